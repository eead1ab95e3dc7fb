// FX101: `.item()` on a tensor.
#include "rules/check.h"
#include "rules/check_support.h"

namespace fxlint {
namespace {

class TensorItem final : public Check {
 public:
  using Check::Check;
  void on_call(Node call, const SemanticModel& ctx) override {
    if (support::method_name(call, ctx) != "item") return;
    if (!support::receiver_is_tensor(call, ctx)) return;
    sink_.report(RuleId::FX101, call.range(),
                 "`.item()` reads a tensor's value into Python; the trace breaks here or freezes the value");
  }
};

}  // namespace
std::unique_ptr<Check> make_tensor_item(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<TensorItem>(s, c);
}
}  // namespace fxlint

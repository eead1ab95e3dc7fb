// FX104: `assert` on a tensor. Fix: guard the assert so only eager runs it.
#include "rules/check.h"
#include "rules/check_support.h"
#include "rules/fix_support.h"

namespace fxlint {
namespace {

class TensorAssert final : public Check {
 public:
  using Check::Check;
  void on_condition(Node test, ConditionKind kind, Node owner, const SemanticModel& ctx) override {
    if (kind != ConditionKind::Assert || !ctx.value_of(test).is_tensor()) return;
    sink_.report(RuleId::FX104, owner.range(), "`assert` on a tensor reads its value at trace time",
                 fixes::guard_statement(owner, ctx,
                                        support::compile_guard_function(settings_.torch_version, settings_.target),
                                        "Run the assert only outside compilation"));
  }
};

}  // namespace
std::unique_ptr<Check> make_tensor_assert(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<TensorAssert>(s, c);
}
}  // namespace fxlint

// FX502: calls into libraries the tracer cannot follow: numpy or math on
// tensor data, random, time, copy.deepcopy.
#include "rules/check.h"
#include "rules/check_support.h"

namespace fxlint {
namespace {

class UntraceableCall final : public Check {
 public:
  using Check::Check;
  void on_call(Node call, const SemanticModel& ctx) override {
    std::string q = ctx.resolve(call.field("function"));
    if (q.empty()) return;
    std::string module = q.substr(0, q.find('.'));
    bool always = module == "random" || module == "time" || q == "copy.deepcopy" || q == "copy.copy" ||
                  q.starts_with("numpy.random.");
    bool on_data = module == "numpy" || module == "math" || module == "scipy" || module == "cv2" ||
                   module == "PIL" || module == "pandas";
    if (!always && !(on_data && has_tensor_argument(call, ctx))) return;
    sink_.report(RuleId::FX502, call.range(), "`" + q + "` is not a torch operation; the tracer cannot follow it");
  }

 private:
  // A tensor (or a list of them) handed over. A Python number already read out
  // of a tensor (`.item()`, `float(t)`) is not: that read is the pitfall, and
  // FX101/FX102 report it where it happens.
  static bool has_tensor_argument(Node call, const SemanticModel& ctx) {
    Node args = call.field("arguments");
    if (!args) return false;
    for (Node a : args.children()) {
      Node v = a.is(NodeKind::KeywordArgument) ? a.field("value") : a;
      if (!v) continue;
      ValueKind kind = ctx.value_of(v).kind;
      if (kind == ValueKind::Tensor || kind == ValueKind::TensorSequence) return true;
    }
    return false;
  }
};

}  // namespace
std::unique_ptr<Check> make_untraceable_call(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<UntraceableCall>(s, c);
}
}  // namespace fxlint

// FX105: `for ... in range(n)` where n comes from tensor values.
#include "rules/check.h"
#include "rules/check_support.h"

namespace fxlint {
namespace {

class DataDependentLoop final : public Check {
 public:
  using Check::Check;
  void on_for(Node loop, const SemanticModel& ctx) override {
    Node iterable = loop.field("right");
    if (!iterable) return;
    if (Node bound = tensor_bound(iterable.unparenthesized(), ctx)) {
      sink_.report(RuleId::FX105, bound.range(),
                   "loop bound comes from tensor values; the trace unrolls it for one input only");
    }
  }

 private:
  static Node tensor_bound(Node iterable, const SemanticModel& ctx) {
    if (!iterable.is(NodeKind::Call)) return Node();
    std::string callee = ctx.resolve(iterable.field("function"));
    if (callee == "builtins.range") {
      for (Node a : support::positional_args(iterable)) {
        if (ctx.value_of(a).depends_on_tensor_data()) return a;
      }
    } else if (callee == "builtins.enumerate" || callee == "builtins.zip" || callee == "builtins.reversed") {
      for (Node a : support::positional_args(iterable)) {
        if (Node b = tensor_bound(a.unparenthesized(), ctx)) return b;
      }
    }
    return Node();
  }
};

}  // namespace
std::unique_ptr<Check> make_data_dependent_loop(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<DataDependentLoop>(s, c);
}
}  // namespace fxlint

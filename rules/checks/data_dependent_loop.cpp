// FX105: `for ... in range(n)` where n is a tensor. For the tracers that
// carry data-dependent values as symbols (torch.export, torch.fx), also where
// n is a Python number read from tensor data (`int(t)`), the size of a tensor
// whose shape depends on data, or the loop iterates such a tensor's rows;
// Dynamo has broken the graph where that number or tensor was made, and loops
// over a concrete one.
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
    bool sizes = settings_.target != Target::Dynamo;
    if (Node bound = tensor_bound(iterable.unparenthesized(), ctx, sizes)) {
      sink_.report(RuleId::FX105, bound.range(),
                   "loop bound comes from tensor values; the trace unrolls it for one input only");
    } else if (Node rows = data_dependent_rows(iterable.unparenthesized(), ctx); rows && sizes) {
      sink_.report(RuleId::FX105, rows.range(),
                   "the loop iterates the rows of a tensor whose row count depends on its data: torch.export and "
                   "torch.fx cannot unroll it");
    }
  }

 private:
  static Node tensor_bound(Node iterable, const SemanticModel& ctx, bool sizes) {
    if (!iterable.is(NodeKind::Call)) return Node();
    std::string callee = ctx.resolve(iterable.field("function"));
    if (callee == "builtins.range") {
      for (Node a : support::positional_args(iterable)) {
        Value v = ctx.value_of(a);
        if (v.is_tensor() || (sizes && (v.is_tensor_data() || v.is_data_dependent_scalar()))) return a;
      }
    } else if (callee == "builtins.enumerate" || callee == "builtins.zip" || callee == "builtins.reversed") {
      for (Node a : support::positional_args(iterable)) {
        if (Node b = tensor_bound(a.unparenthesized(), ctx, sizes)) return b;
      }
    }
    return Node();
  }

  // `for r in rows`, `zip(masks, boxes)`: a tensor with data-dependent rows iterated.
  static Node data_dependent_rows(Node iterable, const SemanticModel& ctx) {
    Value v = ctx.value_of(iterable);
    if (v.is_tensor() && v.data_dependent) return iterable;
    if (!iterable.is(NodeKind::Call)) return Node();
    std::string callee = ctx.resolve(iterable.field("function"));
    if (callee != "builtins.enumerate" && callee != "builtins.zip" && callee != "builtins.reversed") return Node();
    for (Node a : support::positional_args(iterable)) {
      if (Node b = data_dependent_rows(a.unparenthesized(), ctx)) return b;
    }
    return Node();
  }
};

}  // namespace
std::unique_ptr<Check> make_data_dependent_loop(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<DataDependentLoop>(s, c);
}
}  // namespace fxlint

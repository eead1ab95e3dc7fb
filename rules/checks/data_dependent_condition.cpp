// FX106: a branch on a Python value drawn from tensor data, or on the size of
// a tensor whose shape depends on its values. torch.export carries such a
// value as a data-dependent symbol and fails at the first branch on it, and
// at `len()` of such a tensor, which must give a Python int.
#include "rules/check.h"
#include "rules/check_support.h"

namespace fxlint {
namespace {

class DataDependentCondition final : public Check {
 public:
  using Check::Check;
  void on_condition(Node test, ConditionKind kind, Node, const SemanticModel& ctx) override {
    // torch.export turns an assert on a data-dependent value into a runtime
    // assert of the program (`_assert_scalar`) instead of failing; a `len()` in
    // it still must give a Python int (`assert len(boxes) == len(labels)`).
    if (kind == ConditionKind::Assert && settings_.target == Target::Export) {
      report_lengths_in(test.unparenthesized(), ctx);
      return;
    }
    Node t = test.unparenthesized();
    // `not`, `and` and `or` decide on their operands, which come as their own conditions.
    if (t.is(NodeKind::NotOperator) || t.is(NodeKind::BooleanOperator)) return;
    // `if all(t):` is FX102's, at the same expression: all() reads each element.
    if (!support::truth_of_each_element(t, ctx).empty()) return;
    Value v = ctx.value_of(t);
    // A value an earlier test already decided: the compiler guarded on it there.
    if (!v.is_data_dependent_scalar() || v.truth_decided) return;
    std::string what = v.is_tensor_data() ? "a Python value read from tensor data"
                                          : "a size or value that depends on tensor data";
    std::string_view decides = kind == ConditionKind::Assert ? "torch.fx cannot decide this assert"
                                                             : "torch.export and torch.fx cannot decide this branch";
    sink_.report(RuleId::FX106, test.range(),
                 "the condition is " + what + ": " + std::string(decides) + " when tracing");
  }

  // Inside a condition the test itself is reported; as a `range()` bound, the
  // loop (FX105).
  void on_call(Node call, const SemanticModel& ctx) override {
    if (ctx.in_condition()) return;
    Node list = call.parent();
    if (list.is(NodeKind::ArgumentList) && ctx.resolve(list.parent().field("function")) == "builtins.range") return;
    report_length(call, ctx);
  }

 private:
  void report_length(Node call, const SemanticModel& ctx) {
    if (ctx.resolve(call.field("function")) != "builtins.len") return;
    const std::vector<Node>& args = support::positional_args(call, ctx);
    if (args.size() != 1) return;
    Value v = ctx.value_of(args[0]);
    if (!v.is_tensor() || !v.data_dependent) return;
    sink_.report(RuleId::FX106, call.range(),
                 "`len()` of a tensor whose rows depend on its data must give a Python int: torch.export and "
                 "torch.fx cannot tell it when tracing");
  }

  void report_lengths_in(Node e, const SemanticModel& ctx) {
    if (e.is(NodeKind::Lambda) || e.is(NodeKind::ListComprehension) || e.is(NodeKind::GeneratorExpression)) return;
    if (e.is(NodeKind::Call)) report_length(e, ctx);
    for (Node c : NamedChildren(e)) report_lengths_in(c, ctx);
  }
};

}  // namespace
std::unique_ptr<Check> make_data_dependent_condition(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<DataDependentCondition>(s, c);
}
}  // namespace fxlint

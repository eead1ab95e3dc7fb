// FX106: a branch on a Python value drawn from tensor data, or on the size of
// a tensor whose shape depends on its values. torch.export carries such a
// value as a data-dependent symbol and fails at the first branch on it, at
// `len()` of such a tensor, which must give a Python int, and where it names a
// dimension, which an operator must know.
#include <unordered_map>

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
    if (settings_.target == Target::Export) report_dimension(call, ctx);
    if (ctx.in_condition()) return;
    Node list = call.parent();
    if (list.is(NodeKind::ArgumentList) && ctx.resolve(list.parent().field("function")) == "builtins.range") return;
    report_length(call, ctx);
  }

 private:
  // Operators that take dimensions by position: the first such position of the tensor
  // method (one more for the torch function, after the tensor), and whether every
  // position from there on is one (`permute(*dims)`).
  struct DimPositions {
    size_t first;
    bool rest;
  };
  static const std::unordered_map<std::string_view, DimPositions>& dim_operators() {
    static const std::unordered_map<std::string_view, DimPositions> m = {
        {"sum", {0, false}},     {"mean", {0, false}},      {"amax", {0, false}},    {"amin", {0, false}},
        {"prod", {0, false}},    {"std", {0, false}},       {"var", {0, false}},     {"logsumexp", {0, false}},
        {"argmax", {0, false}},  {"argmin", {0, false}},    {"softmax", {0, false}}, {"log_softmax", {0, false}},
        {"cumsum", {0, false}},  {"cumprod", {0, false}},   {"unsqueeze", {0, false}}, {"squeeze", {0, false}},
        {"flip", {0, false}},    {"transpose", {0, true}},  {"permute", {0, true}},  {"movedim", {0, true}},
        {"flatten", {0, true}},  {"unbind", {0, false}},    {"select", {0, false}},  {"narrow", {0, false}},
        {"nansum", {0, false}},  {"nanmean", {0, false}},   {"count_nonzero", {0, false}}};
    return m;
  }

  // A dimension read from tensor data (`dims = torch.arange(2, x.ndim).tolist()`, then
  // `x.sum(dim=dims)`): non-strict torch.export carries the numbers as symbols, and the
  // operator must know which dimension it works on (checked: sum, mean, permute, transpose,
  // softmax, unsqueeze, flip, cat, each with GuardOnDataDependentSymNode; MONAI's Dice loss).
  void report_dimension(Node call, const SemanticModel& ctx) {
    Node args = call.field("arguments");
    if (!args) return;
    for (Node a : NamedChildren(args)) {
      if (!a.is(NodeKind::KeywordArgument)) continue;
      std::string_view name = a.field("name").text(ctx.source());
      if ((name == "dim" || name == "dims" || name == "axis") && read_from_data(a.field("value"), ctx)) {
        return report_dimension_at(a.field("value"));
      }
    }
    std::string q = ctx.resolve(call.field("function"));
    bool method = q.empty() && support::receiver_is_tensor(call, ctx);
    std::string_view name = method ? support::method_name(call, ctx) : std::string_view(q);
    size_t offset = 0;
    if (!method) {
      if (!name.starts_with("torch.") || name.find('.', 6) != std::string_view::npos) return;
      name.remove_prefix(6);
      offset = 1;
      if (name == "cat" || name == "stack" || name == "concat") {
        const std::vector<Node>& p = support::positional_args(call, ctx);
        if (p.size() > 1 && read_from_data(p[1], ctx)) report_dimension_at(p[1]);
        return;
      }
    }
    auto it = dim_operators().find(name);
    if (it == dim_operators().end()) return;
    // Every positional argument from the first dimension on, `*dims` included.
    size_t skip = it->second.first + offset;
    for (Node a : NamedChildren(args)) {
      if (a.is(NodeKind::KeywordArgument) || a.is(NodeKind::DictionarySplat) || a.is(NodeKind::Comment)) continue;
      if (skip > 0) {
        if (a.is(NodeKind::ListSplat)) return;  // where the dimensions start is not known
        --skip;
        continue;
      }
      if (read_from_data(a, ctx)) return report_dimension_at(a);
      if (!it->second.rest) return;
    }
  }

  void report_dimension_at(Node at) {
    sink_.report(RuleId::FX106, at.range(),
                 "the dimension is a value read from tensor data: torch.export must know it when tracing");
  }

  // A value read from tensor data, or a list or tuple holding one.
  static bool read_from_data(Node e, const SemanticModel& ctx) {
    if (!e) return false;
    Node u = e.unparenthesized();
    if (u.is(NodeKind::ListSplat)) u = u.named_child(0);
    if (u && (u.is(NodeKind::List) || u.is(NodeKind::Tuple))) {
      for (Node c : NamedChildren(u)) {
        if (read_from_data(c, ctx)) return true;
      }
      return false;
    }
    return u && ctx.value_of(u).is_data_dependent_scalar();
  }

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

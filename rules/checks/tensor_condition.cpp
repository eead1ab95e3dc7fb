// FX103: a tensor as the condition of if/elif/while, a conditional expression,
// an operand of and/or/not, or a comprehension filter. Its fix rewrites a
// choice between tensor values to `torch.where`.
#include <set>

#include "rules/check.h"
#include "rules/check_support.h"
#include "rules/fix_support.h"

namespace fxlint {
namespace {

using namespace fixes;


// A tensor expression known to hold one element: a full reduction
// (`x.sum()`, `x.abs().max()`, `torch.all(m)`), or comparisons and logical
// operators over such tensors and numbers. `bool()` of any other tensor raises
// when it has several elements, where torch.where would broadcast.
bool one_element(Node e, const SemanticModel& ctx, int depth = 0);

bool one_element(Node e, const SemanticModel& ctx, int depth) {
  static const std::set<std::string_view> reductions = {"sum", "mean", "max", "min", "amax", "amin", "prod", "norm",
                                                         "all", "any", "std", "var", "median", "logsumexp"};
  std::string_view src = ctx.source();
  Node n = e.unparenthesized();
  if (is_number_literal(n)) return true;
  if (n.is(NodeKind::Identifier)) {
    // A local assigned once, from a one-element expression (`t = x.amax()`).
    if (depth > 8 || ctx.scope_of(n.text(src)) != NameScope::Local) return false;
    Node value = ctx.sole_binding(n.text(src));
    return value && one_element(value, ctx, depth + 1);
  }
  if (n.is(NodeKind::Call)) {
    Node arguments = n.field("arguments");
    size_t count = arguments ? arguments.named_child_count() : 0;
    std::string_view method = tensor_method(n, ctx);
    if (!method.empty()) {
      if (method == "bool" || method == "float" || method == "logical_not") {
        return count == 0 && one_element(support::receiver(n), ctx, depth + 1);
      }
      return count == 0 && reductions.count(method) > 0 && ctx.value_of(support::receiver(n)).is_tensor();
    }
    std::string q = ctx.resolve(n.field("function"));
    if (q.starts_with("torch.") && reductions.count(std::string_view(q).substr(6)) && count == 1) {
      std::vector<Node> args = support::positional_args(n);
      return args.size() == 1 && ctx.value_of(args[0]).is_tensor();
    }
    return false;
  }
  if (n.is(NodeKind::ComparisonOperator)) {
    for (Node c : n.children()) {
      if (c.is_named()) {
        if (!one_element(c, ctx, depth + 1)) return false;
      } else {
        std::string_view op = c.text(src);
        if (op != "<" && op != ">" && op != "<=" && op != ">=" && op != "==" && op != "!=") return false;
      }
    }
    return true;
  }
  if (n.is(NodeKind::BinaryOperator)) {
    Node op = n.field("operator");
    std::string_view o = op ? op.text(src) : "";
    if (o != "&" && o != "|" && o != "^") return false;
    return one_element(n.field("left"), ctx, depth + 1) && one_element(n.field("right"), ctx, depth + 1);
  }
  if (n.is(NodeKind::UnaryOperator)) {
    Node op = n.field("operator");
    return op && op.text(src) == "~" && one_element(n.field("argument"), ctx, depth + 1);
  }
  return false;
}

// A condition torch.where takes in place of the `if`: a one-element bool tensor.
bool where_condition(Node c, const SemanticModel& ctx) {
  Value v = ctx.value_of(c);
  return v.is_tensor() && v.dtype == TensorDtype::Bool && one_element(c, ctx) && !has_side_effect_syntax(c);
}

// An arm torch.where may compute although the `if` would not have: a tensor
// named or read from `self`, arithmetic of one with numbers or one-element
// tensors, and elementwise methods with number arguments. Other calls and
// tensor-with-tensor arithmetic are refused: evaluated unconditionally they
// could raise where the original did not.
bool eager_safe_arm(Node e, const SemanticModel& ctx) {
  std::string_view src = ctx.source();
  Node n = e.unparenthesized();
  if (n.is(NodeKind::Identifier)) return ctx.value_of(n).is_tensor() && ctx.is_bound(n.text(src));
  if (n.is(NodeKind::Attribute)) {
    Node object = n.field("object").unparenthesized();
    return object.is(NodeKind::Identifier) && !ctx.self_name().empty() && object.text(src) == ctx.self_name() &&
           ctx.value_of(n).is_tensor();
  }
  if (n.is(NodeKind::UnaryOperator)) {
    Node op = n.field("operator");
    return op && op.text(src) == "-" && eager_safe_arm(n.field("argument"), ctx);
  }
  if (n.is(NodeKind::BinaryOperator)) {
    Node op = n.field("operator");
    std::string_view o = op ? op.text(src) : "";
    if (o != "+" && o != "-" && o != "*" && o != "/") return false;
    Node l = n.field("left"), r = n.field("right");
    // With a number or a one-element tensor, broadcasting cannot fail.
    auto scalar = [&](Node x) { return is_number_literal(x) || (eager_safe_arm(x, ctx) && one_element(x, ctx)); };
    return (eager_safe_arm(l, ctx) && scalar(r)) || (scalar(l) && eager_safe_arm(r, ctx));
  }
  if (n.is(NodeKind::Call)) {
    // Elementwise methods that accept any real tensor, with number arguments only.
    static const std::set<std::string_view> elementwise = {"clamp", "clip", "abs", "neg", "relu", "sigmoid", "tanh",
                                                          "exp", "floor", "ceil", "round", "sign", "square"};
    std::string_view method = tensor_method(n, ctx);
    Node receiver = support::receiver(n);
    if (method.empty() || !elementwise.count(method) || !receiver || !eager_safe_arm(receiver, ctx)) return false;
    Node arguments = n.field("arguments");
    for (Node a : arguments.children()) {
      if (!a.is_named() || a.is(NodeKind::Comment)) continue;
      Node value = a.is(NodeKind::KeywordArgument) ? a.field("value") : a;
      if (!value || !is_number_literal(value)) return false;
    }
    return true;
  }
  return false;
}

// What one arm of an `if` computes, if it is rewritable.
struct Arm {
  std::vector<std::pair<std::string, Node>> assigns;  // name -> expression, in order
  Node returned;                                      // `return expr`
  bool ok = false;
};

Arm read_arm(Node block, std::string_view src) {
  Arm arm;
  bool has_return = false, has_assign = false;
  bool ok = true;
  for_each_child(block, [&](Node s) {
    if (!ok || !s.is_named()) return;
    if (s.is(NodeKind::Comment)) return;  // kept by the caller
    if (s.is(NodeKind::ReturnStatement)) {
      std::vector<Node> v = s.children();
      if (v.size() != 1 || v[0].is(NodeKind::ExpressionList) || has_side_effect_syntax(v[0])) {
        ok = false;
        return;
      }
      arm.returned = v[0];
      has_return = true;
      return;
    }
    if (s.is(NodeKind::ExpressionStatement)) {
      std::vector<Node> v = s.children();
      if (v.size() == 1 && v[0].is(NodeKind::Assignment)) {
        Node left = v[0].field("left");
        Node right = v[0].field("right");
        if (left && right && left.is(NodeKind::Identifier) && !right.is(NodeKind::Assignment) &&
            !right.is(NodeKind::ExpressionList) && !v[0].field("type") && !has_side_effect_syntax(right)) {
          for (auto& [n, _] : arm.assigns) {
            if (n == left.text(src)) ok = false;  // assigned twice: order matters
          }
          arm.assigns.emplace_back(std::string(left.text(src)), right);
          has_assign = true;
          return;
        }
      }
    }
    ok = false;
  });
  // An arm that both assigns and returns is not a pure choice between values.
  arm.ok = ok && (has_return != has_assign) && (!has_return || arm.assigns.empty());
  return arm;
}

// `a if c else b` -> `torch.where(c, a, b)` (unsafe).
std::optional<Fix> ternary_to_where(Node conditional, const SemanticModel& ctx) {
  std::string_view src = ctx.source();
  std::vector<Node> parts = conditional.children();
  if (parts.size() != 3) return std::nullopt;
  if (!where_condition(parts[1], ctx) || !eager_safe_arm(parts[0], ctx) || !eager_safe_arm(parts[2], ctx)) {
    return std::nullopt;
  }
  bool has_comment = false;
  for_each_child(conditional, [&](Node c) { has_comment = has_comment || c.is(NodeKind::Comment); });
  if (has_comment) return std::nullopt;  // a comment inside the expression has no place in the call
  std::optional<TorchRef> torch = torch_ref(conditional, ctx);
  if (!torch) return std::nullopt;
  std::string text = torch->spell("torch.where") + "(" + as_operand(parts[1], src) + ", " +
                     as_operand(parts[0], src) + ", " + as_operand(parts[2], src) + ")";
  return Fix{"Replace with `torch.where`, which computes both values and broadcasts and promotes them together",
             Applicability::Unsafe, torch->with_import({Edit{conditional.range(), std::move(text)}})};
}

// `if c: y = a else: y = b` -> `y = torch.where(c, a, b)` (unsafe).
std::optional<Fix> if_to_where(Node if_statement, const SemanticModel& ctx) {
  std::string_view src = ctx.source();
  auto indent = indentation_at(src, if_statement.start());
  if (!indent) return std::nullopt;
  std::optional<TorchRef> torch = torch_ref(if_statement, ctx);
  if (!torch) return std::nullopt;
  std::string where = torch->spell("torch.where");

  // Conditions and arms of the whole if/elif/else chain.
  std::vector<Node> conditions;
  std::vector<Arm> arms;
  conditions.push_back(if_statement.field("condition"));
  arms.push_back(read_arm(if_statement.field("consequence"), src));
  bool has_else = false;
  for (Node alt : if_statement.children()) {
    if (alt.is(NodeKind::ElifClause)) {
      Node c = alt.field("condition");
      if (!ctx.value_of(c).is_tensor()) return std::nullopt;
      conditions.push_back(c);
      arms.push_back(read_arm(alt.field("consequence"), src));
    } else if (alt.is(NodeKind::ElseClause)) {
      has_else = true;
      arms.push_back(read_arm(alt.field("body"), src));
    }
  }
  // `if c: return a` then `return b`: the statement after the `if` is its else.
  Node fallthrough;
  if (!has_else && arms[0].ok && arms[0].returned) {
    Node next = next_named(if_statement);
    while (next && next.is(NodeKind::Comment)) next = next_named(next);
    if (next && next.is(NodeKind::ReturnStatement)) {
      Arm tail;
      std::vector<Node> v = next.children();
      if (v.size() == 1 && !v[0].is(NodeKind::ExpressionList) && !has_side_effect_syntax(v[0])) {
        tail.returned = v[0];
        tail.ok = true;
        fallthrough = next;
        arms.push_back(tail);
        has_else = true;
      }
    }
  }
  for (const Arm& a : arms) {
    if (!a.ok) return std::nullopt;
    if (a.returned && !eager_safe_arm(a.returned, ctx)) return std::nullopt;
    for (auto& [_, e] : a.assigns) {
      if (!eager_safe_arm(e, ctx)) return std::nullopt;
    }
  }
  for (Node c : conditions) {
    if (!where_condition(c, ctx)) return std::nullopt;
  }

  // Nested where over the chain for one choice of expression per arm; without
  // an else, the innermost choice is the name's current value.
  auto choose = [&](auto pick, const std::string& current) {
    std::string text = has_else ? as_operand(pick(arms.back()), src) : current;
    for (size_t i = conditions.size(); i-- > 0;) {
      text = where + "(" + as_operand(conditions[i], src) + ", " + as_operand(pick(arms[i]), src) + ", " + text + ")";
    }
    return text;
  };

  // Every comment of the statement (on the `if` line, in the arms) moves above the result.
  std::string out;
  auto keep_comments = [&](auto&& self, Node n) -> void {
    if (n.is(NodeKind::Comment)) {
      out += std::string(n.text(src)) + "\n" + *indent;
      return;
    }
    for_each_child(n, [&](Node c) { self(self, c); });
  };
  keep_comments(keep_comments, if_statement);
  if (fallthrough) {
    for (Node n = next_named(if_statement); n && !(n == fallthrough); n = next_named(n)) {
      keep_comments(keep_comments, n);
    }
  }
  bool returns = static_cast<bool>(arms[0].returned);
  for (const Arm& a : arms) {
    if (static_cast<bool>(a.returned) != returns) return std::nullopt;
  }
  if (returns) {
    if (!has_else) return std::nullopt;  // falls through when no arm runs
    out += "return " + choose([](const Arm& a) { return a.returned; }, "");
  } else {
    // Every arm must assign the same names.
    std::set<std::string> names;
    for (auto& [n, _] : arms[0].assigns) names.insert(n);
    for (const Arm& a : arms) {
      std::set<std::string> other;
      for (auto& [n, _] : a.assigns) other.insert(n);
      if (other != names) return std::nullopt;
    }
    // Without an else, each name keeps its value when no arm runs: it must have one.
    if (!has_else) {
      for (const std::string& n : names) {
        if (!ctx.is_bound(n)) return std::nullopt;
      }
    }
    // A later arm expression may read a name an earlier line rebinds; refuse then.
    bool first = true;
    for (auto& [name, _] : arms[0].assigns) {
      for (const Arm& a : arms) {
        for (auto& [n2, e] : a.assigns) {
          if (n2 == name) continue;
          std::string_view t = e.text(src);
          if (t.find(name) != std::string_view::npos) return std::nullopt;
        }
      }
      std::string n = name;
      auto pick = [&](const Arm& a) {
        for (auto& [n2, e] : a.assigns) {
          if (n2 == n) return e;
        }
        return Node();
      };
      if (!first) out += "\n" + *indent;
      out += name + " = " + choose(pick, name);
      first = false;
    }
  }
  TextRange replaced = if_statement.range();
  if (fallthrough) replaced.end = fallthrough.end();
  return Fix{"Replace the `if` with `torch.where`, which computes every arm and broadcasts and promotes them "
             "together",
             Applicability::Unsafe, torch->with_import({Edit{replaced, std::move(out)}})};
}

const char* where(ConditionKind k) {
  switch (k) {
    case ConditionKind::If: return "`if` on a tensor";
    case ConditionKind::While: return "`while` on a tensor";
    case ConditionKind::Ternary: return "conditional expression on a tensor";
    case ConditionKind::BoolOperand: return "`and`/`or` on a tensor";
    case ConditionKind::NotOperand: return "`not` on a tensor";
    case ConditionKind::ComprehensionFilter: return "comprehension filter on a tensor";
    case ConditionKind::Assert: return "";
  }
  return "";
}

// `assert t, f"{n}"` or `assert t, (a, b)`: a message that is not a plain string.
bool computed_message(Node assert_statement) {
  if (assert_statement.named_child_count() < 2) return false;
  Node m = assert_statement.named_child(1).unparenthesized();
  auto plain = [](Node str) {
    bool interpolated = false;
    for_each_child(str, [&](Node c) { interpolated = interpolated || std::string_view(c.type()) == "interpolation"; });
    return !interpolated;
  };
  if (m.is(NodeKind::String)) return !plain(m);
  if (m.is(NodeKind::ConcatenatedString)) {
    bool all_plain = true;
    for (Node part : NamedChildren(m)) all_plain = all_plain && part.is(NodeKind::String) && plain(part);
    return !all_plain;
  }
  return !m.is(NodeKind::Comment);
}

// The torch.distributions classes whose constructor checks its arguments' values.
bool validating_distribution(std::string_view q) {
  static const std::set<std::string_view> classes = {
      "Bernoulli", "Beta", "Binomial", "Categorical", "Cauchy", "Chi2", "ContinuousBernoulli", "Dirichlet",
      "Exponential", "FisherSnedecor", "Gamma", "GeneralizedPareto", "Geometric", "Gumbel", "HalfCauchy",
      "HalfNormal", "InverseGamma", "Kumaraswamy", "LKJCholesky", "Laplace", "LogNormal", "LogisticNormal",
      "LowRankMultivariateNormal", "Multinomial", "MultivariateNormal", "NegativeBinomial", "Normal",
      "OneHotCategorical", "OneHotCategoricalStraightThrough", "Pareto", "Poisson", "RelaxedBernoulli",
      "RelaxedOneHotCategorical", "StudentT", "Uniform", "VonMises", "Weibull", "Wishart"};
  if (!q.starts_with("torch.distributions.")) return false;
  auto dot = q.rfind('.');
  return classes.count(q.substr(dot + 1)) > 0;
}

class TensorCondition final : public Check {
 public:
  using Check::Check;
  // torch.distributions checks a distribution's arguments when it is built, and the value
  // `log_prob` / `cdf` are given (`if not valid.all(): raise ValueError`), unless built with
  // `validate_args=False`: a branch on tensor data inside torch, which torch.export and
  // torch.fx cannot decide. TorchDynamo turns the checks off for the process when it starts.
  void on_call(Node call, const SemanticModel& ctx) override {
    if (settings_.target == Target::Dynamo) return;
    std::string q = ctx.resolve(call.field("function"));
    if (!q.empty() && validating_distribution(q) && validates(call, ctx) && tensor_argument(call, ctx)) {
      sink_.report(RuleId::FX103, call.range(),
                   "`" + q + "` checks its arguments' values when built, a branch on tensor data the tracer cannot "
                   "decide (TorchDynamo turns the check off); pass `validate_args=False`");
      return;
    }
    std::string_view m = support::method_name(call, ctx);
    if (m != "log_prob" && m != "cdf") return;
    Node built = support::receiver(call, ctx).unparenthesized();
    if (built.is(NodeKind::Identifier) && ctx.scope_of(built.text(ctx.source())) == NameScope::Local) {
      built = ctx.sole_binding(built.text(ctx.source()));
    }
    // Built from Python numbers (`Normal(0.0, 1.0)`): only the value is checked here.
    if (!built || !built.unparenthesized().is(NodeKind::Call)) return;
    built = built.unparenthesized();
    std::string d = ctx.resolve(built.field("function"));
    if (!validating_distribution(d) || !validates(built, ctx) || tensor_argument(built, ctx)) return;
    if (!tensor_argument(call, ctx)) return;
    sink_.report(RuleId::FX103, call.range(),
                 "`" + std::string(m) + "` of a `" + d + "` checks the value it is given, a branch on tensor data the "
                 "tracer cannot decide (TorchDynamo turns the check off); build it with `validate_args=False`");
  }

  void on_condition(Node test, ConditionKind kind, Node owner, const SemanticModel& ctx) override {
    if (kind == ConditionKind::Assert) {
      // TorchDynamo makes an in-graph check of an assert whose message is a
      // plain string (FX104's concern for the other tracers); any other
      // message it must build in Python, so it branches on the tensor.
      if (settings_.target == Target::Dynamo && ctx.value_of(test).is_tensor() && computed_message(owner)) {
        sink_.report(RuleId::FX103, test.range(),
                     "`assert` on a tensor with a computed message needs its value at trace time; the branch is "
                     "data-dependent (a string literal message keeps it in the graph)");
      }
      return;
    }
    if (!ctx.value_of(test).is_tensor()) return;
    std::optional<Fix> fix;
    if (kind == ConditionKind::If && owner.is(NodeKind::IfStatement)) fix = if_to_where(owner, ctx);
    if (kind == ConditionKind::Ternary) fix = ternary_to_where(owner, ctx);
    sink_.report(RuleId::FX103, test.range(),
                 std::string(where(kind)) + " needs its value at trace time; the branch is data-dependent",
                 std::move(fix));
  }

 private:
  // No `validate_args`, or `validate_args=True` / `None` (the default, which checks).
  static bool validates(Node call, const SemanticModel& ctx) {
    Node v = support::keyword_arg(call, "validate_args", ctx.source());
    return !v || v.unparenthesized().is(NodeKind::True) || v.unparenthesized().is(NodeKind::None);
  }
  static bool tensor_argument(Node call, const SemanticModel& ctx) {
    Node args = call.field("arguments");
    if (!args) return false;
    for (Node a : NamedChildren(args)) {
      Node v = a.is(NodeKind::KeywordArgument) ? a.field("value") : a;
      if (v && !a.is(NodeKind::ListSplat) && !a.is(NodeKind::DictionarySplat) && ctx.value_of(v).is_tensor()) return true;
    }
    return false;
  }
};

}  // namespace
std::unique_ptr<Check> make_tensor_condition(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<TensorCondition>(s, c);
}
}  // namespace fxlint

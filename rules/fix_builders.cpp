#include "rules/fix_builders.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "analyzer/import_map.h"
#include "rules/check_support.h"

namespace fxlint::fixes {

namespace {

// Whitespace before `offset` on its line, when only whitespace precedes it.
std::optional<std::string> indentation_at(std::string_view src, uint32_t offset) {
  uint32_t line_start = offset;
  while (line_start > 0 && src[line_start - 1] != '\n' && src[line_start - 1] != '\r') --line_start;
  std::string_view prefix = src.substr(line_start, offset - line_start);
  for (char c : prefix) {
    if (c != ' ' && c != '\t') return std::nullopt;
  }
  return std::string(prefix);
}

// One level of indentation as the file spells it.
std::string indent_unit(std::string_view src, std::string_view current) {
  if (!current.empty() && current[0] == '\t') return "\t";
  for (size_t i = 0; i + 1 < src.size(); ++i) {
    if (src[i] == '\n' && (src[i + 1] == ' ' || src[i + 1] == '\t')) {
      if (src[i + 1] == '\t') return "\t";
      size_t n = 0;
      while (i + 1 + n < src.size() && src[i + 1 + n] == ' ') ++n;
      if (n > 0 && n <= 8) return std::string(n, ' ');
    }
  }
  return "    ";
}

// Text of a node with every continuation line indented one more level.
std::string indented_more(std::string_view text, std::string_view unit) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] == '\n' && i + 1 < text.size() && text[i + 1] != '\n' && text[i + 1] != '\r') out += unit;
  }
  return out;
}

bool contains_multiline_string(Node n, std::string_view src) {
  if (n.is(NodeKind::String) || n.is(NodeKind::ConcatenatedString)) {
    return n.text(src).find('\n') != std::string_view::npos;
  }
  bool found = false;
  for_each_child(n, [&](Node c) { found = found || contains_multiline_string(c, src); });
  return found;
}

// How the fixed code names torch where the fix goes: the module's own import
// of it, or `torch` with an `import torch` the fix adds to the module.
struct TorchRef {
  std::string name;
  std::optional<Edit> import;

  std::string spell(std::string_view qualified) const {
    if (qualified.starts_with("torch.")) return name + std::string(qualified.substr(5));
    return std::string(qualified);
  }
  // `edits` plus the import, if the fix adds one.
  std::vector<Edit> with_import(std::vector<Edit> edits) const {
    if (import) edits.push_back(*import);
    std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.range.start < b.range.start; });
    return edits;
  }
};

bool resolves_to_module_level(std::string_view name, const WalkContext& ctx) {
  NameScope scope = ctx.scope_of(name);
  return scope == NameScope::Global || scope == NameScope::Builtin;
}

// Where `import torch` goes: before the first statement that is not the
// docstring or a `from __future__` import (a shebang and coding line stay first).
Edit import_torch_edit(Node root, std::string_view src) {
  uint32_t after = 0;
  bool first = true;
  for (Node s : root.children()) {
    if (!s.is_named() || s.is(NodeKind::Comment)) continue;
    bool docstring = first && s.is(NodeKind::ExpressionStatement) && s.named_child_count() == 1 &&
                     (s.named_child(0).is(NodeKind::String) || s.named_child(0).is(NodeKind::ConcatenatedString));
    first = false;
    if (docstring || s.is(NodeKind::FutureImportStatement)) {
      after = s.end();
      continue;
    }
    uint32_t line_start = s.start();
    while (line_start > 0 && src[line_start - 1] != '\n') --line_start;
    return Edit{{line_start, line_start}, "import torch\n"};
  }
  if (after == 0) return Edit{{0, 0}, "import torch\n"};
  return Edit{{after, after}, "\nimport torch"};
}

// nullopt when torch cannot be named there: a local (a parameter, say) or a
// module-level name other than the import shadows it.
std::optional<TorchRef> torch_ref(Node at, const WalkContext& ctx) {
  const FileModel& file = ctx.file();
  if (const std::string* local = file.module_imports.local_name_for("torch")) {
    const GlobalFacts* rebound = ctx.global_facts(*local);
    if (resolves_to_module_level(*local, ctx) && !(rebound && rebound->top_level_assignments > 0)) {
      return TorchRef{*local, std::nullopt};
    }
    return std::nullopt;
  }
  // No module-level `import torch`: add one, if `torch` is free in the module and
  // here, and the module already needs torch to import (`from torch import nn`):
  // a module that imports without torch must keep doing so.
  if (file.module_imports.find("torch") || ctx.global_facts("torch") || !resolves_to_module_level("torch", ctx) ||
      !file.module_imports.imports_from("torch")) {
    return std::nullopt;
  }
  Node root = at;
  while (root.parent()) root = root.parent();
  return TorchRef{"torch", import_torch_edit(root, ctx.source())};
}

bool has_side_effect_syntax(Node n) {
  switch (n.kind()) {
    case NodeKind::NamedExpression:
    case NodeKind::Yield:
    case NodeKind::Await:
    case NodeKind::Lambda:
      return true;
    default:
      break;
  }
  bool found = false;
  for_each_child(n, [&](Node c) { found = found || (c.is_named() && has_side_effect_syntax(c)); });
  return found;
}

Node next_named(Node n) {
  for (n = n.next_sibling(); n && !n.is_named(); n = n.next_sibling()) {
  }
  return n;
}

// The method of `value.method(...)`; empty for a call of a module's function
// (`torch.isnan(x)` resolves to a qualified name instead).
std::string_view tensor_method(Node call, const WalkContext& ctx) {
  if (!ctx.resolve(call.field("function")).empty()) return {};
  return support::method_name(call, ctx.source());
}

bool is_number_literal(Node e) {
  Node n = e.unparenthesized();
  if (n.is(NodeKind::UnaryOperator)) n = n.field("argument");
  return n.is(NodeKind::Integer) || n.is(NodeKind::Float);
}

// A tensor expression known to hold one element: a full reduction
// (`x.sum()`, `x.abs().max()`, `torch.all(m)`), or comparisons and logical
// operators over such tensors and numbers. `bool()` of any other tensor raises
// when it has several elements, where torch.where would broadcast.
bool one_element(Node e, const WalkContext& ctx, int depth = 0);

// The one expression a local name is ever assigned in this function (nested
// functions aside); a null node when it is bound any other way or more than once.
Node single_assignment(std::string_view name, const WalkContext& ctx) {
  std::string_view src = ctx.source();
  Node found;
  int bindings = 0;
  auto visit = [&](auto&& self, Node n) -> void {
    if (bindings > 1) return;
    if (n.is(NodeKind::FunctionDefinition) || n.is(NodeKind::Lambda) || n.is(NodeKind::ClassDefinition)) return;
    if (n.is(NodeKind::Identifier) && n.text(src) == name) {
      Node p = n.parent();
      if (p && p.is(NodeKind::Assignment) && p.field("left") == n && !p.field("type")) {
        ++bindings;
        found = p.field("right");
      } else if (p && !(p.is(NodeKind::Attribute) && !(p.field("object") == n))) {
        // A load, or a binding of another form (augmented, for, with, walrus, del).
        bool load = !(p.is(NodeKind::AugmentedAssignment) || p.is(NodeKind::ForStatement) ||
                      p.is(NodeKind::NamedExpression) || p.is(NodeKind::PatternList) || p.is(NodeKind::TuplePattern) ||
                      p.is(NodeKind::AsPatternTarget) || p.is(NodeKind::DeleteStatement) ||
                      p.is(NodeKind::Parameters) || p.is(NodeKind::DefaultParameter) ||
                      p.is(NodeKind::TypedParameter) || p.is(NodeKind::TypedDefaultParameter));
        if (!load) bindings += 2;
      }
      return;
    }
    for_each_child(n, [&](Node c) { self(self, c); });
  };
  Node body = ctx.function().node.field("body");
  if (Node params = ctx.function().node.field("parameters")) visit(visit, params);
  if (body) visit(visit, body);
  return bindings == 1 ? found : Node();
}

bool one_element(Node e, const WalkContext& ctx, int depth) {
  static const std::set<std::string_view> reductions = {"sum", "mean", "max", "min", "amax", "amin", "prod", "norm",
                                                         "all", "any", "std", "var", "median", "logsumexp"};
  std::string_view src = ctx.source();
  Node n = e.unparenthesized();
  if (is_number_literal(n)) return true;
  if (n.is(NodeKind::Identifier)) {
    // A local assigned once, from a one-element expression (`t = x.amax()`).
    if (depth > 8 || ctx.scope_of(n.text(src)) != NameScope::Local) return false;
    Node value = single_assignment(n.text(src), ctx);
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
bool where_condition(Node c, const WalkContext& ctx) {
  Value v = ctx.value_of(c);
  return v.is_tensor() && v.dtype == TensorDtype::Bool && one_element(c, ctx) && !has_side_effect_syntax(c);
}

// An arm torch.where may compute although the `if` would not have: a tensor
// named or read from `self`, arithmetic of one with numbers or one-element
// tensors, and elementwise methods with number arguments. Other calls and
// tensor-with-tensor arithmetic are refused: evaluated unconditionally they
// could raise where the original did not.
bool eager_safe_arm(Node e, const WalkContext& ctx) {
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

std::string as_operand(Node n, std::string_view src) {
  Node u = n.unparenthesized();
  std::string_view t = u.text(src);
  if (u.is(NodeKind::ConditionalExpression) || u.is(NodeKind::Lambda)) return "(" + std::string(t) + ")";
  return std::string(t);
}

}  // namespace

std::optional<Fix> guard_statement(Node statement, const WalkContext& ctx, std::string_view guard_function,
                                   std::string title) {
  std::string_view src = ctx.source();
  auto indent = indentation_at(src, statement.start());
  if (!indent || contains_multiline_string(statement, src)) return std::nullopt;
  // Only a statement that stands alone on its lines (not `x = 1; assert t`).
  Node parent = statement.parent();
  if (!parent || !(parent.is(NodeKind::Block) || parent.is(NodeKind::Module))) return std::nullopt;
  uint32_t end = statement.end();
  while (end < src.size() && (src[end] == ' ' || src[end] == '\t')) ++end;
  if (end < src.size() && src[end] == ';') return std::nullopt;
  std::string unit = indent_unit(src, *indent);
  std::optional<TorchRef> torch = torch_ref(statement, ctx);
  if (!torch) return std::nullopt;
  std::string text = "if not " + torch->spell(guard_function) + "():\n" + *indent + unit +
                     indented_more(statement.text(src), unit);
  return Fix{std::move(title), Applicability::Safe, torch->with_import({Edit{statement.range(), std::move(text)}})};
}

std::optional<Fix> guard_call_statement(Node call, const WalkContext& ctx, std::string_view guard_function) {
  Node parent = call.parent();
  if (!parent || !parent.is(NodeKind::ExpressionStatement) || parent.named_child_count() != 1) return std::nullopt;
  return guard_statement(parent, ctx, guard_function, "Run it only outside compilation");
}

std::optional<Fix> ternary_to_where(Node conditional, const WalkContext& ctx) {
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

std::optional<Fix> if_to_where(Node if_statement, const WalkContext& ctx) {
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

namespace {
// The name whose shape a tensor expression has, following locals assigned once
// from shape-keeping expressions (`z = x.clone()`, `out = torch.zeros_like(x)`,
// `y = x * 2`): "x" for all of those; the expression's own text otherwise.
std::string shape_root(Node e, const WalkContext& ctx, int depth = 0) {
  static const std::set<std::string_view> keeping_methods = {"clone", "detach", "contiguous", "float", "double",
                                                              "half", "int", "long", "bool", "abs", "neg"};
  static const std::set<std::string_view> like = {"zeros_like", "ones_like", "empty_like", "full_like",
                                                   "rand_like", "randn_like", "clone"};
  std::string_view src = ctx.source();
  Node n = e.unparenthesized();
  if (depth > 8) return std::string(n.text(src));
  if (n.is(NodeKind::Identifier) && ctx.scope_of(n.text(src)) == NameScope::Local) {
    if (Node value = single_assignment(n.text(src), ctx)) {
      std::string root = shape_root(value, ctx, depth + 1);
      if (!root.empty()) return root;
    }
    return std::string(n.text(src));
  }
  if (n.is(NodeKind::Call)) {
    Node arguments = n.field("arguments");
    std::string_view method = tensor_method(n, ctx);
    if (!method.empty()) {
      if (keeping_methods.count(method) && arguments && arguments.named_child_count() == 0) {
        return shape_root(support::receiver(n), ctx, depth + 1);
      }
      return std::string(n.text(src));
    }
    std::string q = ctx.resolve(n.field("function"));
    std::vector<Node> args = support::positional_args(n);
    if (q.starts_with("torch.") && like.count(std::string_view(q).substr(6)) && !args.empty()) {
      return shape_root(args[0], ctx, depth + 1);
    }
    return std::string(n.text(src));
  }
  if (n.is(NodeKind::BinaryOperator)) {
    Node l = n.field("left"), r = n.field("right");
    if (is_number_literal(r)) return shape_root(l, ctx, depth + 1);
    if (is_number_literal(l)) return shape_root(r, ctx, depth + 1);
  }
  return std::string(n.text(src));
}

// An expression computed elementwise from tensors of z's shape and numbers
// only, so it has z's shape: `z > 0`, `(z < -1) | (z > 1)`, `torch.isnan(z)`,
// `~z.isfinite()`, or a local assigned once from such an expression.
bool elementwise_of(Node e, Node z, const WalkContext& ctx, int depth = 0);

bool elementwise_of(Node e, Node z, const WalkContext& ctx, int depth) {
  if (depth > 8) return false;
  static const std::set<std::string_view> functions = {"isnan", "isinf", "isfinite", "isposinf", "isneginf",
                                                        "abs", "signbit", "logical_not", "isreal", "sign"};
  std::string_view src = ctx.source();
  Node n = e.unparenthesized();
  if (n.is(NodeKind::Identifier) || n.is(NodeKind::Attribute)) {
    if (n.text(src) == z.text(src) || shape_root(n, ctx) == shape_root(z, ctx)) return true;
    if (n.is(NodeKind::Identifier) && ctx.scope_of(n.text(src)) == NameScope::Local) {
      Node value = single_assignment(n.text(src), ctx);
      return value && elementwise_of(value, z, ctx, depth + 1);
    }
    return false;
  }
  if (is_number_literal(n) || n.is(NodeKind::True) || n.is(NodeKind::False)) return true;
  if (n.is(NodeKind::ComparisonOperator)) {
    bool has_z = false;
    for (Node c : n.children()) {
      if (!c.is_named()) {
        std::string_view op = c.text(src);
        if (op != "<" && op != ">" && op != "<=" && op != ">=" && op != "==" && op != "!=") return false;
        continue;
      }
      if (!elementwise_of(c, z, ctx, depth + 1)) return false;
      has_z = has_z || !is_number_literal(c);
    }
    return has_z;
  }
  if (n.is(NodeKind::BinaryOperator)) {
    Node op = n.field("operator");
    std::string_view o = op ? op.text(src) : "";
    if (o != "&" && o != "|" && o != "^" && o != "+" && o != "-" && o != "*") return false;
    return elementwise_of(n.field("left"), z, ctx, depth + 1) && elementwise_of(n.field("right"), z, ctx, depth + 1);
  }
  if (n.is(NodeKind::UnaryOperator)) return elementwise_of(n.field("argument"), z, ctx, depth + 1);
  if (n.is(NodeKind::Call)) {
    Node arguments = n.field("arguments");
    std::string_view method = tensor_method(n, ctx);
    if (!method.empty()) {
      return functions.count(method) && arguments && arguments.named_child_count() == 0 &&
             elementwise_of(support::receiver(n), z, ctx, depth + 1);
    }
    std::string q = ctx.resolve(n.field("function"));
    std::vector<Node> args = support::positional_args(n);
    return q.starts_with("torch.") && functions.count(std::string_view(q).substr(6)) && args.size() == 1 &&
           arguments.named_child_count() == 1 && elementwise_of(args[0], z, ctx, depth + 1);
  }
  return false;
}

// A mask known to have z's shape: computed elementwise from tensors of that shape.
Applicability mask_applicability(Node mask, Node z, const WalkContext& ctx) {
  return elementwise_of(mask, z, ctx) ? Applicability::Safe : Applicability::Unsafe;
}
}  // namespace

std::optional<Fix> mask_assignment(Node target, Node mask, Node value, Node statement, const WalkContext& ctx) {
  std::string_view src = ctx.source();
  Node z = target.field("value").unparenthesized();
  Node assignment = target.parent();
  bool z_is_name = z.is(NodeKind::Identifier);
  bool z_is_attribute = z.is(NodeKind::Attribute) && z.field("object").unparenthesized().is(NodeKind::Identifier);
  if (!(z_is_name || z_is_attribute) || !value || !assignment || !assignment.is(NodeKind::Assignment) ||
      !statement.is(NodeKind::ExpressionStatement) || statement.named_child_count() != 1) {
    return std::nullopt;
  }
  std::string zt(z.text(src));
  std::string mt(mask.text(src));
  Node v = value.unparenthesized();
  // `z[m]` applies a mask to z's leading dimensions; masked_fill_ and where
  // broadcast it against the trailing ones. Only a mask of z's own shape means
  // the same to both.
  if (mask_applicability(mask, z, ctx) != Applicability::Safe) return std::nullopt;
  // Both rewrites update `z` in place, as the masked assignment does, so views
  // of it and names bound to it see the change.
  if (v.is(NodeKind::Integer) || v.is(NodeKind::Float) || v.is(NodeKind::True) || v.is(NodeKind::False) ||
      (v.is(NodeKind::UnaryOperator) && (v.field("argument").is(NodeKind::Integer) || v.field("argument").is(NodeKind::Float)))) {
    std::string text = zt + ".masked_fill_(" + mt + ", " + std::string(v.text(src)) + ")";
    return Fix{"Replace the masked assignment with `masked_fill_`", Applicability::Safe,
               {Edit{assignment.range(), std::move(text)}}};
  }
  if (!v.is(NodeKind::Subscript)) return std::nullopt;
  auto idx = support::subscript_indices(v);
  if (idx.size() != 1 || idx[0].text(src) != mask.text(src)) return std::nullopt;
  std::optional<TorchRef> torch = torch_ref(statement, ctx);
  if (!torch) return std::nullopt;
  std::string vt(v.field("value").text(src));
  std::string text = zt + ".copy_(" + torch->spell("torch.where") + "(" + mt + ", " + vt + ", " + zt + "))";
  // `z[m] = v[m]` raises when v's dtype or shape differs from z's; the select
  // would promote or broadcast instead, and nothing here knows them.
  return Fix{"Replace the masked assignment with an in-place elementwise select; `" + vt +
                 "` must have the dtype and shape of `" + zt + "`",
             Applicability::Unsafe, torch->with_import({Edit{assignment.range(), std::move(text)}})};
}

std::optional<Fix> masked_reduction(Node subscript, Node mask, const WalkContext& ctx) {
  std::string_view src = ctx.source();
  Node attr = subscript.parent();
  if (!attr || !attr.is(NodeKind::Attribute) || !(attr.field("object") == subscript)) return std::nullopt;
  Node call = attr.parent();
  if (!call || !call.is(NodeKind::Call) || !(call.field("function") == attr)) return std::nullopt;
  // With any argument (dim=, keepdim=, dtype=) the reduction is over another shape.
  Node arguments = call.field("arguments");
  if (!arguments || arguments.named_child_count() != 0) return std::nullopt;
  std::string_view method = attr.field("attribute").text(src);
  const char* identity = method == "sum" ? "0" : method == "prod" ? "1" : method == "any" ? "False"
                         : method == "all" ? "True" : nullptr;
  if (!identity || support::subscript_indices(subscript).size() != 1) return std::nullopt;
  Node x = subscript.field("value");
  std::optional<TorchRef> torch = torch_ref(subscript, ctx);
  if (!torch) return std::nullopt;
  std::string text = torch->spell("torch.where") + "(" + std::string(mask.text(src)) + ", " +
                     as_operand(x, src) + ", " + identity + ")";
  Applicability a = mask_applicability(mask, x, ctx);
  return Fix{"Reduce over an elementwise select instead of a masked index", a,
             torch->with_import({Edit{subscript.range(), std::move(text)}})};
}

std::optional<Fix> outer_tensor_copy(Node target, Node value, Node statement, const WalkContext& ctx) {
  std::string_view src = ctx.source();
  std::string_view name = target.text(src);
  bool outer_is_tensor = false;
  if (ctx.declared_global(name)) {
    const GlobalFacts* g = ctx.global_facts(name);
    outer_is_tensor = g && g->value.is_tensor();
  } else if (ctx.declared_nonlocal(name)) {
    outer_is_tensor = ctx.enclosing_value(name).is_tensor();
  }
  Node assignment = target.parent();
  if (!outer_is_tensor || !assignment || !assignment.is(NodeKind::Assignment) ||
      !statement.is(NodeKind::ExpressionStatement) || statement.named_child_count() != 1) {
    return std::nullopt;
  }
  std::string text = std::string(target.text(src)) + ".copy_(" + std::string(value.text(src)) + ")";
  return Fix{"Copy into the existing tensor in place", Applicability::Unsafe, {Edit{assignment.range(), std::move(text)}}};
}

namespace {

// `+=` -> add_, `-=` -> sub_, `*=` -> mul_; "" for operators without an in-place method here.
std::string_view inplace_method(Node augmented, std::string_view src) {
  Node op = augmented.field("operator");
  std::string_view o = op ? op.text(src) : "";
  if (o == "+=") return "add_";
  if (o == "-=") return "sub_";
  if (o == "*=") return "mul_";
  return {};
}

// Whether a float literal (`0.`, `0e400`, `0_0.0`) is zero: its mantissa has
// no non-zero digit. Read from the text, so no literal is out of range; an
// imaginary literal (`0j`) is not a float.
bool float_literal_is_zero(std::string_view text) {
  if (text.ends_with('j') || text.ends_with('J')) return false;
  for (char c : text) {
    if (c == 'e' || c == 'E') break;
    if (c >= '1' && c <= '9') return false;
  }
  return true;
}

// The 0-d tensor that holds a counter initialised with the literal zero, in
// the dtype Python computes with (int -> int64, float -> float64); "" otherwise.
std::string zero_dim_tensor(Node literal, const TorchRef& torch, std::string_view src, bool* is_float) {
  Node v = literal.unparenthesized();
  std::string_view dtype;
  if (v.is(NodeKind::Integer) && v.text(src) == "0") dtype = "torch.int64";
  else if (v.is(NodeKind::Float) && float_literal_is_zero(v.text(src))) dtype = "torch.float64";
  else return {};
  *is_float = dtype == "torch.float64";
  return torch.spell("torch.zeros") + "((), dtype=" + torch.spell(dtype) + ")";
}

Node root_of(Node n) {
  while (n.parent()) n = n.parent();
  return n;
}

// `t.item()` as the whole expression: the tensor `t`, else a null node.
Node item_receiver(Node expr, std::string_view src) {
  Node e = expr.unparenthesized();
  if (e.is(NodeKind::Call) && support::method_name(e, src) == "item") {
    Node arguments = e.field("arguments");
    if (arguments && arguments.named_child_count() == 0) return support::receiver(e);
  }
  return Node();
}

// `target += v` -> `target.add_(v)`, computing what Python computes: an int
// counter takes int literals; a float (float64) counter also takes float
// literals and `t.item()`, which becomes `t.detach().reshape(())` (the same
// number, without tying the counter to t's autograd graph). Anything else
// would change the counter's type or raise where Python did not.
std::optional<Edit> inplace_update(Node augmented, std::string_view target, std::string_view src, bool is_float) {
  std::string_view method = inplace_method(augmented, src);
  Node right = augmented.field("right");
  if (method.empty() || !right) return std::nullopt;
  std::string operand(right.text(src));
  Node r = right.unparenthesized();
  if (r.is(NodeKind::UnaryOperator)) r = r.field("argument");
  if (Node t = item_receiver(right, src); t && is_float) {
    operand = std::string(t.text(src)) + ".detach().reshape(())";
  } else if (!(r.is(NodeKind::Integer) || (is_float && r.is(NodeKind::Float)))) {
    return std::nullopt;
  }
  return Edit{augmented.range(), std::string(target) + "." + std::string(method) + "(" + operand + ")"};
}

Fix sorted_fix(std::string title, std::vector<Edit> edits) {
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.range.start < b.range.start; });
  return Fix{std::move(title), Applicability::Unsafe, std::move(edits)};
}

// An update the rewrite can carry: by a number literal or by `t.item()`
// (inplace_update then decides by the counter's type).
bool literal_update(Node n, std::string_view src) {
  if (!n.is(NodeKind::AugmentedAssignment)) return false;
  Node right = n.field("right");
  if (!right) return false;
  if (item_receiver(right, src)) return true;
  Node r = right.unparenthesized();
  if (r.is(NodeKind::UnaryOperator)) r = r.field("argument");
  return r.is(NodeKind::Integer) || r.is(NodeKind::Float);
}

}  // namespace

std::optional<Fix> global_scalar_to_tensor(Node statement, const WalkContext& ctx) {
  std::string_view src = ctx.source();
  Node left = statement.field("left").unparenthesized();
  std::string name(left.text(src));
  // torch's own modules run this at their import, before torch can build tensors.
  const std::string& module = ctx.file().module_name;
  if (module == "torch" || module.starts_with("torch.")) return std::nullopt;
  // The name is used only as a counter: one module-level `name = 0`, updates by
  // number literals, `global name`. Any other read (`mine = name`, `print(name)`)
  // would see a tensor, shared and updated in place, where it saw an int.
  Node initializer;
  int module_bindings = 0;
  bool other_use = false;
  Node root = root_of(statement);
  auto visit = [&](auto&& self, Node n, bool in_function) -> void {
    if (other_use) return;
    if (n.is(NodeKind::FunctionDefinition) || n.is(NodeKind::Lambda)) in_function = true;
    if (n.is(NodeKind::GlobalStatement)) return;
    if (n.is(NodeKind::Assignment) || n.is(NodeKind::AugmentedAssignment)) {
      Node l = n.field("left").unparenthesized();
      if (l.is(NodeKind::Identifier) && l.text(src) == name) {
        if (n.is(NodeKind::AugmentedAssignment)) {
          if (!literal_update(n, src) || !in_function) other_use = true;
        } else if (!in_function && n.parent().is(NodeKind::ExpressionStatement) &&
                   n.parent().parent().is(NodeKind::Module)) {
          ++module_bindings;
          initializer = n.field("right");
        } else {
          other_use = true;
        }
        if (Node right = n.field("right")) self(self, right, in_function);
        return;
      }
    }
    if (n.is(NodeKind::Identifier) && n.text(src) == name) {
      Node parent = n.parent();
      bool attribute_name = parent && parent.is(NodeKind::Attribute) && parent.field("attribute") == n;
      bool keyword = parent && parent.is(NodeKind::KeywordArgument) && parent.field("name") == n;
      if (!attribute_name && !keyword) other_use = true;
      return;
    }
    for_each_child(n, [&](Node c) {
      if (c.is_named()) self(self, c, in_function);
    });
  };
  visit(visit, root, false);
  if (module_bindings != 1 || other_use || !initializer) return std::nullopt;
  std::optional<TorchRef> torch = torch_ref(statement, ctx);
  if (!torch) return std::nullopt;
  bool is_float = false;
  std::string tensor = zero_dim_tensor(initializer, *torch, src, &is_float);
  if (tensor.empty()) return std::nullopt;
  auto site = inplace_update(statement, name, src, is_float);
  if (!site) return std::nullopt;
  return sorted_fix("Keep `" + name + "` in a 0-d tensor updated in place; another module that reads `" + name +
                        "` gets the tensor",
                    torch->with_import({Edit{initializer.range(), tensor}, *site}));
}

std::optional<Fix> attribute_scalar_to_buffer(Node statement, const WalkContext& ctx) {
  std::string_view src = ctx.source();
  Node left = statement.field("left").unparenthesized();
  Node object = left.field("object").unparenthesized();
  Node attr = left.field("attribute");
  if (!object.is(NodeKind::Identifier) || object.text(src) != ctx.self_name() || !attr) return std::nullopt;
  // Only an nn.Module has register_buffer.
  if (!ctx.in_module_class()) return std::nullopt;
  std::string name(attr.text(src));
  Node cls = statement;
  while (cls && !cls.is(NodeKind::ClassDefinition)) cls = cls.parent();
  if (!cls) return std::nullopt;
  // Exactly one plain `self.<name> = 0` in __init__; every other `<obj>.<name>`
  // in the class is an update by a number literal (a read would see a tensor).
  Node init_stmt, init_value;
  int plain = 0;
  bool other_use = false;
  auto visit = [&](auto&& self, Node n, bool in_init) -> void {
    if (other_use) return;
    if (n.is(NodeKind::FunctionDefinition)) {
      Node fname = n.field("name");
      in_init = fname && fname.text(src) == "__init__";
    }
    auto names_it = [&](Node l) {
      return l.is(NodeKind::Attribute) && l.field("attribute") && l.field("attribute").text(src) == name;
    };
    if (n.is(NodeKind::Assignment) && names_it(n.field("left").unparenthesized())) {
      ++plain;
      if (in_init && n.parent().is(NodeKind::ExpressionStatement) &&
          n.field("left").unparenthesized().field("object").unparenthesized().is(NodeKind::Identifier)) {
        init_stmt = n;
        init_value = n.field("right");
      }
      if (Node right = n.field("right")) self(self, right, in_init);
      return;
    }
    if (n.is(NodeKind::AugmentedAssignment) && names_it(n.field("left").unparenthesized())) {
      if (!literal_update(n, src)) other_use = true;
      if (Node right = n.field("right")) self(self, right, in_init);
      return;
    }
    if (names_it(n)) {
      other_use = true;
      return;
    }
    for_each_child(n, [&](Node c) {
      if (c.is_named()) self(self, c, in_init);
    });
  };
  visit(visit, cls, false);
  if (plain != 1 || other_use || !init_stmt || !init_value) return std::nullopt;
  std::optional<TorchRef> torch = torch_ref(statement, ctx);
  if (!torch) return std::nullopt;
  bool is_float = false;
  std::string tensor = zero_dim_tensor(init_value, *torch, src, &is_float);
  if (tensor.empty()) return std::nullopt;
  auto site = inplace_update(statement, left.text(src), src, is_float);
  if (!site) return std::nullopt;
  std::string self_text(init_stmt.field("left").field("object").text(src));
  std::string reg = self_text + ".register_buffer(\"" + name + "\", " + tensor + ", persistent=False)";
  return sorted_fix("Keep `" + std::string(left.text(src)) +
                        "` in a non-persistent buffer updated in place; it moves with `.to()` and is left "
                        "out of state_dict",
                    torch->with_import({Edit{init_stmt.range(), reg}, *site}));
}

}  // namespace fxlint::fixes

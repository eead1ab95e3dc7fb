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

std::string torch_name(const WalkContext& ctx) {
  const std::string* local = ctx.file().imports.local_name_for("torch");
  return local ? *local : "torch";
}

std::string spelled(std::string_view qualified, const WalkContext& ctx) {
  std::string t = torch_name(ctx);
  if (qualified.starts_with("torch.")) return t + std::string(qualified.substr(5));
  return std::string(qualified);
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
  std::string guard = spelled(guard_function, ctx);
  std::string text = "if not " + guard + "():\n" + *indent + unit + indented_more(statement.text(src), unit);
  return Fix{std::move(title), Applicability::Safe, {Edit{statement.range(), std::move(text)}}};
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
  for (Node p : parts) {
    if (has_side_effect_syntax(p)) return std::nullopt;
  }
  bool has_comment = false;
  for_each_child(conditional, [&](Node c) { has_comment = has_comment || c.is(NodeKind::Comment); });
  if (has_comment) return std::nullopt;  // a comment inside the expression has no place in the call
  std::string text = spelled("torch.where", ctx) + "(" + as_operand(parts[1], src) + ", " +
                     as_operand(parts[0], src) + ", " + as_operand(parts[2], src) + ")";
  return Fix{"Replace with `torch.where`", Applicability::Unsafe, {Edit{conditional.range(), std::move(text)}}};
}

std::optional<Fix> if_to_where(Node if_statement, const WalkContext& ctx) {
  std::string_view src = ctx.source();
  auto indent = indentation_at(src, if_statement.start());
  if (!indent) return std::nullopt;
  std::string where = spelled("torch.where", ctx);

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
  for (const Arm& a : arms) {
    if (!a.ok) return std::nullopt;
  }
  for (Node c : conditions) {
    if (has_side_effect_syntax(c)) return std::nullopt;
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
  return Fix{"Replace the `if` with `torch.where`", Applicability::Unsafe, {Edit{if_statement.range(), std::move(out)}}};
}

namespace {
// Identifiers an expression reads, ignoring attribute names and `torch` itself.
void collect_names(Node n, std::string_view src, std::set<std::string>& out, const std::string& torch) {
  if (n.is(NodeKind::Identifier)) {
    std::string t(n.text(src));
    if (t != torch) out.insert(t);
    return;
  }
  if (n.is(NodeKind::Attribute)) {
    collect_names(n.field("object"), src, out, torch);
    return;
  }
  if (n.is(NodeKind::KeywordArgument)) {
    collect_names(n.field("value"), src, out, torch);
    return;
  }
  for_each_child(n, [&](Node c) {
    if (c.is_named()) collect_names(c, src, out, torch);
  });
}

// A mask computed elementwise from `z` alone has z's shape.
Applicability mask_applicability(Node mask, std::string_view z, const WalkContext& ctx) {
  Node m = mask.unparenthesized();
  if (m.is(NodeKind::Identifier)) return Applicability::Unsafe;
  std::set<std::string> names;
  collect_names(m, ctx.source(), names, torch_name(ctx));
  return names.size() == 1 && *names.begin() == z ? Applicability::Safe : Applicability::Unsafe;
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
  Applicability applicability = mask_applicability(mask, zt, ctx);
  Node v = value.unparenthesized();
  std::string text;
  if (v.is(NodeKind::Integer) || v.is(NodeKind::Float) || v.is(NodeKind::True) || v.is(NodeKind::False) ||
      (v.is(NodeKind::UnaryOperator) && (v.field("argument").is(NodeKind::Integer) || v.field("argument").is(NodeKind::Float)))) {
    text = zt + ".masked_fill_(" + mt + ", " + std::string(v.text(src)) + ")";
  } else if (v.is(NodeKind::Subscript)) {
    auto idx = support::subscript_indices(v);
    if (idx.size() != 1 || idx[0].text(src) != mask.text(src)) return std::nullopt;
    std::string vt(v.field("value").text(src));
    std::string choice = spelled("torch.where", ctx) + "(" + mt + ", " + vt + ", " + zt + ")";
    text = z_is_name && ctx.assigned_locally(zt) ? zt + " = " + choice : zt + ".copy_(" + choice + ")";
  } else {
    return std::nullopt;
  }
  return Fix{"Replace the masked assignment with an elementwise select", applicability,
             {Edit{assignment.range(), std::move(text)}}};
}

std::optional<Fix> masked_reduction(Node subscript, Node mask, const WalkContext& ctx) {
  std::string_view src = ctx.source();
  Node attr = subscript.parent();
  if (!attr || !attr.is(NodeKind::Attribute) || !(attr.field("object") == subscript)) return std::nullopt;
  Node call = attr.parent();
  if (!call || !call.is(NodeKind::Call) || !(call.field("function") == attr)) return std::nullopt;
  if (!support::positional_args(call).empty()) return std::nullopt;
  std::string_view method = attr.field("attribute").text(src);
  const char* identity = method == "sum" ? "0" : method == "prod" ? "1" : method == "any" ? "False"
                         : method == "all" ? "True" : nullptr;
  if (!identity || support::subscript_indices(subscript).size() != 1) return std::nullopt;
  Node x = subscript.field("value");
  std::string text = spelled("torch.where", ctx) + "(" + std::string(mask.text(src)) + ", " +
                     as_operand(x, src) + ", " + identity + ")";
  Applicability a = mask_applicability(mask, x.text(src), ctx);
  return Fix{"Reduce over an elementwise select instead of a masked index", a, {Edit{subscript.range(), std::move(text)}}};
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

// Text of `expr` with every `t.item()` turned into `t.reshape(())`: the value stays a 0-d tensor.
std::string item_as_tensor(Node expr, std::string_view src) {
  std::vector<Edit> edits;
  auto visit = [&](auto&& self, Node n) -> void {
    if (n.is(NodeKind::Call) && support::method_name(n, src) == "item" && support::positional_args(n).empty()) {
      Node object = support::receiver(n);
      edits.push_back({{object.end(), n.end()}, ".reshape(())"});
    }
    for_each_child(n, [&](Node c) {
      if (c.is_named()) self(self, c);
    });
  };
  visit(visit, expr);
  std::string out(expr.text(src));
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.range.start > b.range.start; });
  for (const Edit& e : edits) {
    out.replace(e.range.start - expr.start(), e.range.length(), e.content);
  }
  return out;
}

// `torch.zeros((), dtype=...)` for a Python number literal; "" for anything else.
std::string zero_dim_tensor(Node literal, const WalkContext& ctx) {
  Node v = literal.unparenthesized();
  std::string_view dtype;
  if (v.is(NodeKind::Integer) && v.text(ctx.source()) == "0") dtype = "torch.int64";
  else if (v.is(NodeKind::Float) && std::stod(std::string(v.text(ctx.source()))) == 0.0) dtype = "torch.float32";
  else return {};
  return spelled("torch.zeros", ctx) + "((), dtype=" + spelled(dtype, ctx) + ")";
}

Node root_of(Node n) {
  while (n.parent()) n = n.parent();
  return n;
}

// The update `target += v` rewritten as `target.add_(v)`.
std::optional<Edit> inplace_update(Node augmented, std::string_view target, std::string_view src) {
  std::string_view method = inplace_method(augmented, src);
  Node right = augmented.field("right");
  if (method.empty() || !right) return std::nullopt;
  return Edit{augmented.range(), std::string(target) + "." + std::string(method) + "(" + item_as_tensor(right, src) + ")"};
}

Fix sorted_fix(std::string title, std::vector<Edit> edits) {
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.range.start < b.range.start; });
  return Fix{std::move(title), Applicability::Unsafe, std::move(edits)};
}

}  // namespace

std::optional<Fix> global_scalar_to_tensor(Node statement, const WalkContext& ctx) {
  std::string_view src = ctx.source();
  Node left = statement.field("left").unparenthesized();
  std::string name(left.text(src));
  auto site = inplace_update(statement, name, src);
  if (!site) return std::nullopt;
  // The one module-level binding must be a zero literal; no function may rebind the name.
  Node initializer;
  int module_bindings = 0;
  bool rebound = false;
  Node root = root_of(statement);
  auto visit = [&](auto&& self, Node n, bool in_function) -> void {
    if (n.is(NodeKind::FunctionDefinition) || n.is(NodeKind::Lambda)) in_function = true;
    if (n.is(NodeKind::Assignment) || n.is(NodeKind::AugmentedAssignment)) {
      Node l = n.field("left").unparenthesized();
      bool names_it = false;
      auto check = [&](Node t) { names_it = names_it || (t.is(NodeKind::Identifier) && t.text(src) == name); };
      if (l.is(NodeKind::PatternList) || l.is(NodeKind::TuplePattern)) {
        for (Node t : l.children()) check(t);
      } else {
        check(l);
      }
      if (names_it) {
        if (!in_function) {
          ++module_bindings;
          if (n.is(NodeKind::Assignment) && l.is(NodeKind::Identifier)) initializer = n.field("right");
          if (n.is(NodeKind::AugmentedAssignment)) rebound = true;
        } else if (n.is(NodeKind::Assignment)) {
          rebound = true;
        }
      }
    }
    if (n.is(NodeKind::DeleteStatement) && n.text(src).find(name) != std::string_view::npos) rebound = true;
    for_each_child(n, [&](Node c) {
      if (c.is_named()) self(self, c, in_function);
    });
  };
  visit(visit, root, false);
  if (module_bindings != 1 || rebound || !initializer) return std::nullopt;
  std::string tensor = zero_dim_tensor(initializer, ctx);
  if (tensor.empty()) return std::nullopt;
  return sorted_fix("Keep `" + name + "` in a 0-d tensor updated in place",
                    {Edit{initializer.range(), tensor}, *site});
}

std::optional<Fix> attribute_scalar_to_buffer(Node statement, const WalkContext& ctx) {
  std::string_view src = ctx.source();
  Node left = statement.field("left").unparenthesized();
  Node object = left.field("object").unparenthesized();
  Node attr = left.field("attribute");
  if (!object.is(NodeKind::Identifier) || object.text(src) != ctx.self_name() || !attr) return std::nullopt;
  std::string name(attr.text(src));
  auto site = inplace_update(statement, left.text(src), src);
  if (!site) return std::nullopt;
  // Find the class: the nearest class_definition above the statement.
  Node cls = statement;
  while (cls && !cls.is(NodeKind::ClassDefinition)) cls = cls.parent();
  if (!cls) return std::nullopt;
  // Exactly one plain `self.<name> = 0` in __init__, and no other plain assignment in the class.
  Node init_stmt, init_value;
  int plain = 0;
  auto visit = [&](auto&& self, Node n, bool in_init) -> void {
    if (n.is(NodeKind::FunctionDefinition)) {
      Node fname = n.field("name");
      in_init = fname && fname.text(src) == "__init__";
    }
    if (n.is(NodeKind::Assignment)) {
      Node l = n.field("left").unparenthesized();
      if (l.is(NodeKind::Attribute) && l.field("attribute") && l.field("attribute").text(src) == name &&
          l.field("object").unparenthesized().is(NodeKind::Identifier)) {
        ++plain;
        if (in_init && n.parent().is(NodeKind::ExpressionStatement)) {
          init_stmt = n;
          init_value = n.field("right");
        }
      }
    }
    for_each_child(n, [&](Node c) {
      if (c.is_named()) self(self, c, in_init);
    });
  };
  visit(visit, cls, false);
  if (plain != 1 || !init_stmt || !init_value) return std::nullopt;
  std::string tensor = zero_dim_tensor(init_value, ctx);
  if (tensor.empty()) return std::nullopt;
  std::string self_text(init_stmt.field("left").field("object").text(src));
  std::string reg = self_text + ".register_buffer(\"" + name + "\", " + tensor + ", persistent=False)";
  return sorted_fix("Keep `" + std::string(left.text(src)) + "` in a non-persistent buffer updated in place",
                    {Edit{init_stmt.range(), reg}, *site});
}

}  // namespace fxlint::fixes

#include "rules/fix_builders.h"

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
  std::vector<std::string> comments;
  bool ok = false;
};

Arm read_arm(Node block, std::string_view src) {
  Arm arm;
  bool has_return = false, has_assign = false;
  bool ok = true;
  for_each_child(block, [&](Node s) {
    if (!ok || !s.is_named()) return;
    if (s.is(NodeKind::Comment)) {
      arm.comments.emplace_back(s.text(src));
      return;
    }
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

std::optional<Fix> guard_statement(Node statement, const WalkContext& ctx, std::string_view torch_version,
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
  std::string guard = spelled(support::is_compiling_function(torch_version), ctx);
  std::string text = "if not " + guard + "():\n" + *indent + unit + indented_more(statement.text(src), unit);
  return Fix{std::move(title), Applicability::Safe, {Edit{statement.range(), std::move(text)}}};
}

std::optional<Fix> guard_call_statement(Node call, const WalkContext& ctx, std::string_view torch_version) {
  Node parent = call.parent();
  if (!parent || !parent.is(NodeKind::ExpressionStatement) || parent.named_child_count() != 1) return std::nullopt;
  return guard_statement(parent, ctx, torch_version, "Run it only outside compilation");
}

std::optional<Fix> ternary_to_where(Node conditional, const WalkContext& ctx) {
  std::string_view src = ctx.source();
  std::vector<Node> parts = conditional.children();
  if (parts.size() != 3) return std::nullopt;
  for (Node p : parts) {
    if (has_side_effect_syntax(p)) return std::nullopt;
  }
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
  if (!has_else) return std::nullopt;
  for (const Arm& a : arms) {
    if (!a.ok) return std::nullopt;
  }
  for (Node c : conditions) {
    if (has_side_effect_syntax(c)) return std::nullopt;
  }

  // Nested where over the chain for one choice of expression per arm.
  auto choose = [&](auto pick) {
    std::string text = as_operand(pick(arms.back()), src);
    for (size_t i = conditions.size(); i-- > 0;) {
      text = where + "(" + as_operand(conditions[i], src) + ", " + as_operand(pick(arms[i]), src) + ", " + text + ")";
    }
    return text;
  };

  std::string out;
  for (const Arm& a : arms) {
    for (const std::string& c : a.comments) out += c + "\n" + *indent;
  }
  bool returns = static_cast<bool>(arms[0].returned);
  for (const Arm& a : arms) {
    if (static_cast<bool>(a.returned) != returns) return std::nullopt;
  }
  if (returns) {
    out += "return " + choose([](const Arm& a) { return a.returned; });
  } else {
    // Every arm must assign the same names.
    std::set<std::string> names;
    for (auto& [n, _] : arms[0].assigns) names.insert(n);
    for (const Arm& a : arms) {
      std::set<std::string> other;
      for (auto& [n, _] : a.assigns) other.insert(n);
      if (other != names) return std::nullopt;
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
      out += name + " = " + choose(pick);
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
  if (!z.is(NodeKind::Identifier) || !value || !assignment || !assignment.is(NodeKind::Assignment) ||
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
    text = ctx.assigned_locally(zt) ? zt + " = " + choice : zt + ".copy_(" + choice + ")";
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
  const GlobalFacts* g = ctx.global_facts(target.text(src));
  Node assignment = target.parent();
  if (!g || !g->value.is_tensor() || !assignment || !assignment.is(NodeKind::Assignment) ||
      !statement.is(NodeKind::ExpressionStatement) || statement.named_child_count() != 1) {
    return std::nullopt;
  }
  std::string text = std::string(target.text(src)) + ".copy_(" + std::string(value.text(src)) + ")";
  return Fix{"Copy into the existing tensor in place", Applicability::Unsafe, {Edit{assignment.range(), std::move(text)}}};
}

std::optional<Fix> global_scalar_to_tensor(Node, const WalkContext&) { return std::nullopt; }
std::optional<Fix> attribute_scalar_to_buffer(Node, const WalkContext&) { return std::nullopt; }

}  // namespace fxlint::fixes

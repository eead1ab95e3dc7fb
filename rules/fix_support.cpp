#include "rules/fix_support.h"

#include <algorithm>

#include "rules/check_support.h"

namespace fxlint::fixes {

namespace {

bool resolves_to_module_level(std::string_view name, const SemanticModel& ctx) {
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

}  // namespace

std::optional<std::string> indentation_at(std::string_view src, uint32_t offset) {
  uint32_t line_start = offset;
  while (line_start > 0 && src[line_start - 1] != '\n' && src[line_start - 1] != '\r') --line_start;
  std::string_view prefix = src.substr(line_start, offset - line_start);
  for (char c : prefix) {
    if (c != ' ' && c != '\t') return std::nullopt;
  }
  return std::string(prefix);
}

std::string indent_unit(Node statement, std::string_view src, std::string_view current) {
  if (!current.empty() && current[0] == '\t') return "\t";
  for (Node p = statement.parent(); p; p = p.parent()) {
    if (!p.is(NodeKind::Block) || !p.parent()) continue;
    std::optional<std::string> header = indentation_at(src, p.parent().start());
    if (header && current.size() > header->size() && current.starts_with(*header)) {
      return std::string(current.substr(header->size()));
    }
  }
  return "    ";
}

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

std::vector<Edit> TorchRef::with_import(std::vector<Edit> edits) const {
  if (import) edits.push_back(*import);
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.range.start < b.range.start; });
  return edits;
}

std::optional<TorchRef> torch_ref(Node at, const SemanticModel& ctx) {
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

std::string_view tensor_method(Node call, const SemanticModel& ctx) {
  if (!ctx.resolve(call.field("function")).empty()) return {};
  return support::method_name(call, ctx.source());
}

bool is_number_literal(Node e) {
  Node n = e.unparenthesized();
  if (n.is(NodeKind::UnaryOperator)) n = n.field("argument");
  return n.is(NodeKind::Integer) || n.is(NodeKind::Float);
}

std::string as_operand(Node n, std::string_view src) {
  Node u = n.unparenthesized();
  std::string_view t = u.text(src);
  if (u.is(NodeKind::ConditionalExpression) || u.is(NodeKind::Lambda)) return "(" + std::string(t) + ")";
  return std::string(t);
}

Fix sorted_fix(std::string title, Applicability applicability, std::vector<Edit> edits) {
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.range.start < b.range.start; });
  return Fix{std::move(title), applicability, std::move(edits)};
}

std::optional<Fix> guard_statement(Node statement, const SemanticModel& ctx, std::string_view guard_function,
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
  std::string unit = indent_unit(statement, src, *indent);
  std::optional<TorchRef> torch = torch_ref(statement, ctx);
  if (!torch) return std::nullopt;
  std::string text = "if not " + torch->spell(guard_function) + "():\n" + *indent + unit +
                     indented_more(statement.text(src), unit);
  return Fix{std::move(title), Applicability::Safe, torch->with_import({Edit{statement.range(), std::move(text)}})};
}

}  // namespace fxlint::fixes

#include "analyzer/type_comment.h"

#include <string>

namespace fxlint {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// The text of `# type: ...` between the header's colon and the first
// statement of the body, without the marker.
std::optional<std::string_view> comment_text(Node def, std::string_view src) {
  Node body = def.field("body");
  if (!body) return std::nullopt;
  uint32_t from = 0;
  for_each_child(def, [&](Node c) {
    if (!c.is_named() && c.text(src) == ":") from = c.end();
  });
  uint32_t to = body.end();
  for (Node s : NamedChildren(body)) {
    to = s.start();
    break;
  }
  if (from == 0 || to <= from) return std::nullopt;
  std::string_view region = src.substr(from, to - from);
  for (size_t hash = region.find('#'); hash != std::string_view::npos; hash = region.find('#', hash + 1)) {
    std::string_view rest = trim(region.substr(hash + 1));
    if (!rest.starts_with("type:")) continue;
    rest = rest.substr(5);
    size_t eol = rest.find_first_of("\r\n");
    return trim(rest.substr(0, eol));
  }
  return std::nullopt;
}

AnnotationKind classify_text(std::string_view type, const ImportMap& imports, const TypeAliases* aliases) {
  SyntaxTree tree = SyntaxTree::parse(std::string(type));
  if (tree.has_error()) return AnnotationKind::Other;
  Node statement = tree.root().named_child(0);
  Node expr = statement ? statement.named_child(0) : Node();
  return expr ? classify_annotation(expr, tree.text(), imports, aliases) : AnnotationKind::Other;
}

}  // namespace

std::optional<FunctionTypeComment> function_type_comment(Node def, std::string_view source,
                                                         const ImportMap& imports, const TypeAliases* aliases) {
  std::optional<std::string_view> text = comment_text(def, source);
  if (!text) return std::nullopt;
  size_t arrow = text->find("->");
  std::string_view params = trim(text->substr(0, arrow == std::string_view::npos ? text->size() : arrow));
  if (arrow == std::string_view::npos || !params.starts_with('(') || !params.ends_with(')')) return std::nullopt;
  FunctionTypeComment out;
  // Python never evaluates a type comment; TorchScript, which reads them,
  // takes a bare `Tensor` for torch.Tensor whether or not the module imports it.
  ImportMap with_tensor;
  const ImportMap* names = &imports;
  if (!imports.find("Tensor") && imports.imports_from("torch")) {
    with_tensor = imports;
    with_tensor.bind("Tensor", "torch.Tensor");
    names = &with_tensor;
  }
  out.returns = classify_text(trim(text->substr(arrow + 2)), *names, aliases);
  // The parameter list, split at top-level commas: `(Tensor, Dict[str, int])`.
  std::string_view inner = params.substr(1, params.size() - 2);
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= inner.size(); ++i) {
    char c = i < inner.size() ? inner[i] : ',';
    if (c == '[' || c == '(' || c == '{') ++depth;
    if (c == ']' || c == ')' || c == '}') --depth;
    if (c != ',' || depth != 0) continue;
    std::string_view one = trim(inner.substr(start, i - start));
    start = i + 1;
    if (one.empty()) continue;
    // `*Tensor` / `**int`: the types of variadic parameters.
    out.parameters.push_back(one.starts_with('*') ? AnnotationKind::Other : classify_text(one, *names, aliases));
  }
  return out;
}

}  // namespace fxlint

#include "analyzer/import_map.h"

namespace fxlint {

std::string dotted_text(Node expr, std::string_view source) {
  expr = expr.unparenthesized();
  if (expr.is(NodeKind::Identifier)) return std::string(expr.text(source));
  if (expr.is(NodeKind::Attribute)) {
    std::string head = dotted_text(expr.field("object"), source);
    if (head.empty()) return head;
    Node attr = expr.field("attribute");
    if (!attr) return {};
    head += '.';
    head += attr.text(source);
    return head;
  }
  return {};
}

std::string ImportMap::qualify(std::string_view dotted) const {
  if (dotted.empty()) return {};
  auto dot = dotted.find('.');
  std::string_view head = dotted.substr(0, dot);
  const std::string* q = find(head);
  if (!q) return {};
  std::string out = *q;
  if (dot != std::string_view::npos) out.append(dotted.substr(dot));
  return out;
}

std::string ImportMap::qualify(Node expr, std::string_view source) const {
  return qualify(dotted_text(expr, source));
}

}  // namespace fxlint

#include "analyzer/call_parts.h"

namespace fxlint {

CallParts split_call(Node call, std::string_view source) {
  CallParts p;
  p.callee = call.field("function").unparenthesized();
  if (p.callee.is(NodeKind::Attribute)) {
    p.receiver = p.callee.field("object");
    if (Node attr = p.callee.field("attribute")) p.method = attr.text(source);
  }
  Node args = call.field("arguments");
  if (args && args.is(NodeKind::ArgumentList)) {
    for_each_child(args, [&](Node a) {
      if (!a.is_named() || a.is(NodeKind::Comment) || a.is(NodeKind::KeywordArgument) ||
          a.is(NodeKind::ListSplat) || a.is(NodeKind::DictionarySplat)) {
        return;
      }
      p.positional.push_back(a);
    });
  }
  return p;
}

}  // namespace fxlint

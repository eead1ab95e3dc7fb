#pragma once
// The name of one parameter of a `def` or `lambda`, however it is written
// (`x`, `x: T`, `x=1`, `x: T = 1`); a null node for `*args`, `**kw` and the
// bare `*` / `/` separators.
#include "analyzer/syntax_tree.h"

namespace fxlint {

inline Node parameter_name(Node parameter) {
  Node name = parameter;
  if (parameter.is(NodeKind::DefaultParameter) || parameter.is(NodeKind::TypedDefaultParameter)) {
    name = parameter.field("name");
  } else if (parameter.is(NodeKind::TypedParameter)) {
    name = parameter.named_child_count() ? parameter.named_child(0) : Node();
  }
  return name && name.is(NodeKind::Identifier) ? name : Node();
}

}  // namespace fxlint

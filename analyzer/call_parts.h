#pragma once
// The pieces of a call expression most questions need, found once per call.
#include <string_view>
#include <vector>

#include "analyzer/syntax_tree.h"

namespace fxlint {

struct CallParts {
  Node callee;              // parentheses removed
  Node receiver;            // `recv` of `recv.method(...)`; invalid otherwise
  std::string_view method;  // "method" of `recv.method(...)`; "" otherwise
  std::vector<Node> positional;  // positional arguments (no keywords, no splats)
};

CallParts split_call(Node call, std::string_view source);

}  // namespace fxlint

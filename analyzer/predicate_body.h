#pragma once
// What a project function's escape-hatch predicate (ProjectModel::
// hatch_of_function: `def is_tracing(): return torch.compiler.is_compiling()`)
// is computed from: the return statements of a small body, and the
// assignments of the locals they return. The file interface hashes exactly
// these, so that other edits of a body leave the interface as it was.
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/syntax_tree.h"

namespace fxlint {

// Return statements of a small function body (nested definitions aside), and
// whether each lies in an `except` handler. Large bodies are not wrappers:
// false, with `out` unspecified.
bool collect_returns(Node body, std::vector<std::pair<Node, bool>>& out);

// The expression each `return` of a small function definition gives, unparenthesized
// (a null Node where it gives none or several), and whether it lies in an `except`
// handler. False for a lambda or a large body, with `out` unspecified.
bool returned_values(Node function, std::vector<std::pair<Node, bool>>& out);

// The plain and augmented assignments in `body` (nested definitions aside) of
// the locals that the returned expressions name, directly or through `or`,
// and of the locals named that way by those assignments' right-hand sides: a
// superset of what the predicate reads past the returns.
std::vector<Node> returned_local_assignments(Node body, const std::vector<std::pair<Node, bool>>& returns,
                                             std::string_view src);

}  // namespace fxlint

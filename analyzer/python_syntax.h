#pragma once
// What makes CPython refuse a text that the tree-sitter grammar accepts or
// explains badly: null bytes, too many indentation levels, and the Python 2
// forms the grammar still parses (`print 'x'`, `exec`, backquotes, `<>`,
// `0777`, `10L`, `ur''`, `raise E, v`). Reported as CPython words them.
#include <optional>
#include <string>
#include <vector>

#include "analyzer/syntax_tree.h"
#include "core/text_range.h"

namespace fxlint {

struct SyntaxProblem {
  TextRange range;
  std::string message;  // "syntax error: ..." or "indentation error: ..."
  // Null bytes and indentation overflow: they explain whatever else looks
  // wrong in the file, so they are reported before any other problem.
  bool explains_the_rest = false;
};

// CPython's tokenizer refuses a line at this many indentation levels
// (MAXINDENT, the outermost level counted).
inline constexpr size_t kMaxIndentLevels = 100;
// The grammar's scanner fails from this many levels on (CPython does not).
inline constexpr size_t kMaxParsedIndentLevels = 64;

// The first reason, in document order, that the tree's text is not Python 3:
// the grammar's own first ERROR or MISSING node included. nullopt when the
// text is valid as far as these checks tell.
std::optional<SyntaxProblem> first_syntax_problem(const SyntaxTree& tree);

// Every construct that tree-sitter accepts but CPython rejects, plus null
// bytes and indentation overflow (the grammar's ERROR nodes not included).
// The rewriter counts them before and after a fix.
std::vector<SyntaxProblem> python3_violations(const SyntaxTree& tree);

}  // namespace fxlint

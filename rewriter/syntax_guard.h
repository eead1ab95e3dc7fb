#pragma once
// The guarantees every fixed text is held to before it is kept: it parses with
// no more ERROR or MISSING nodes, nor forms CPython rejects, than the original
// had, and it keeps every comment, except those a diagnostic is about (an
// unused suppression comment may be removed by its own fix).
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/text_range.h"

namespace fxlint {

struct SourceComment {
  TextRange range;
  std::string text;  // trailing whitespace removed
};

// What one parse of a text tells the guard.
struct SyntaxFacts {
  size_t error_count = 0;  // ERROR and MISSING nodes, and forms CPython rejects
  std::vector<SourceComment> comments;
};

SyntaxFacts syntax_facts(std::string_view text);

// Comments of `before` that are gone from `after` (compared by text, so a
// comment moved to another line is kept), leaving out those overlapping an
// `exempt` range (a diagnostic's range: it exempts the comment it lies in).
std::vector<std::string> lost_comments(const SyntaxFacts& before, const SyntaxFacts& after,
                                       std::span<const TextRange> exempt);

}  // namespace fxlint

#pragma once
// Suppression comments: `# noqa`, `# noqa: FX101, FX102`, `# fxlint: ignore[FX101]`
// on the diagnostic's line, and `# fxlint: skip-file`.
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "core/line_index.h"

namespace fxlint {

struct Suppression {
  TextRange range;                 // the comment; it applies to the comment's line
  bool all = false;                // bare `# noqa` (never reported unused: it may be for another linter)
  std::vector<std::string> codes;  // codes named, as written
  std::vector<bool> used;          // per code
};

struct SuppressionSet {
  bool skip_file = false;
  std::vector<Suppression> items;
};

SuppressionSet parse_suppressions(std::string_view source, const std::vector<TextRange>& comments);

// Removes suppressed diagnostics; marks the suppressions that were used.
void apply_suppressions(std::vector<Diagnostic>& diagnostics, SuppressionSet& set, const LineIndex& lines);

}  // namespace fxlint

#pragma once
// Unified diffs of a file before and after fixing, in the format `patch` and
// `git apply` read: `--- a/path` / `+++ b/path`, hunks with context lines.
// Line bytes are printed as they are (a CRLF file's lines keep their `\r`).
#include <string>
#include <string_view>

namespace fxlint {

struct DiffOptions {
  unsigned context = 3;  // unchanged lines around each change
  bool color = false;    // ANSI colors, for a terminal
};

// Empty when the texts are equal.
std::string unified_diff(std::string_view before, std::string_view after, std::string_view path,
                         const DiffOptions& options = {});

}  // namespace fxlint

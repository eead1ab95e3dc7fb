#pragma once
// Applies the fixes carried by one file's diagnostics to its text, under one
// explicit policy for fixes that touch the same bytes:
//
//  1. Applicability first: display-only fixes are never applied; unsafe ones
//     only with FixMode::IncludeUnsafe.
//  2. A fix whose edits are unsorted, overlap each other, leave the text, or
//     cut a UTF-8 character or a CRLF in two is malformed and dropped.
//  3. Fixes are taken in order of their span (start ascending, longer first,
//     then diagnostic order) and accepted greedily. Two fixes conflict when an
//     edit of one overlaps an edit of the other (insertions at the same offset
//     or strictly inside a replaced range count as overlapping). Identical
//     edits never conflict and are applied once.
//  4. On conflict with an accepted fix: when the accepted fix's span contains
//     the new one's, the new one is dropped as contained; otherwise the two
//     overlap partially and the later one (the new one) is dropped. Because
//     containing spans sort first, a containing fix always wins.
//
// A fix is all or nothing: every edit of an accepted fix is applied, no edit
// of a dropped one. Every fix not applied is reported with its reason.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "rewriter/text_style.h"

namespace fxlint {

enum class FixMode { SafeOnly, IncludeUnsafe };

enum class SkipReason {
  DisplayOnly,  // shown, never applied
  NeedsUnsafe,  // unsafe, and unsafe fixes were not asked for
  Malformed,    // edits unsorted, overlapping, outside the text, or splitting a character
  Contained,    // inside the span of an accepted fix it conflicts with
  Overlapping,  // partially overlaps an accepted fix that comes first
  NoChange,     // applied, but the text stayed the same (set by the fix loop)
  Reverted,     // the file's fixes were undone (set by the fix loop)
  SyntaxError,  // the file does not parse, so it is not rewritten (set by the fix loop)
};

// A short phrase for messages: "needs --unsafe-fixes", "overlaps another fix", ...
const char* skip_reason_text(SkipReason reason);

struct SkippedFix {
  size_t diagnostic = 0;          // index into the diagnostics given
  SkipReason reason = SkipReason::Malformed;
  std::optional<size_t> winner;   // the accepted fix it conflicted with (diagnostic index)
};

struct ApplyResult {
  std::string text;                  // the text with every accepted fix applied
  std::vector<size_t> applied;       // diagnostic indices, in the order accepted
  std::vector<SkippedFix> skipped;   // diagnostics with a fix that was not applied
};

// True when fixes of `a` and `b` cannot both be applied.
bool edits_conflict(const Edit& a, const Edit& b);

// Applies the fixes of `diagnostics` (those without a fix are ignored) to
// `text`. Edit content is written with `\n`; it is converted to `ending`.
ApplyResult apply_fixes(std::string_view text, std::span<const Diagnostic> diagnostics,
                        FixMode mode, LineEnding ending = LineEnding::Lf);

}  // namespace fxlint

#include "rewriter/apply.h"

#include <algorithm>
#include <numeric>

namespace fxlint {

const char* skip_reason_text(SkipReason reason) {
  switch (reason) {
    case SkipReason::DisplayOnly: return "display-only fix";
    case SkipReason::NeedsUnsafe: return "unsafe fix, needs --unsafe-fixes";
    case SkipReason::Malformed: return "malformed fix (edits out of order, out of range or splitting a character)";
    case SkipReason::Contained: return "inside the span of another fix that was applied";
    case SkipReason::Overlapping: return "overlaps another fix that was applied";
    case SkipReason::NoChange: return "the fix changes nothing";
    case SkipReason::Reverted: return "not applied: its file was left as it was (see the error)";
    case SkipReason::SyntaxError: return "not applied: the file has a syntax error (FX900)";
  }
  return "not applied";
}

bool edits_conflict(const Edit& a, const Edit& b) {
  if (a == b) return false;  // the same change asked twice is applied once
  if (a.range.overlaps(b.range)) return true;
  // Insertions: at the same offset their order would be arbitrary; strictly
  // inside a replaced range they would be lost.
  auto inside = [](const TextRange& insertion, const TextRange& r) {
    return insertion.empty() && r.start < insertion.start && insertion.start < r.end;
  };
  if (a.range.empty() && b.range.empty() && a.range.start == b.range.start) return true;
  return inside(a.range, b.range) || inside(b.range, a.range);
}

namespace {

// An edit may not start or end inside a UTF-8 sequence or between the two
// bytes of a CRLF: the bytes around it would no longer mean what they did.
bool clean_boundary(std::string_view text, uint32_t at) {
  if (at == 0 || at >= text.size()) return true;
  if ((static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) return false;
  return !(text[at - 1] == '\r' && text[at] == '\n');
}

bool well_formed(const Fix& fix, std::string_view text) {
  if (fix.edits.empty()) return false;
  for (size_t i = 0; i < fix.edits.size(); ++i) {
    const TextRange& r = fix.edits[i].range;
    if (r.start > r.end || r.end > text.size()) return false;
    if (!clean_boundary(text, r.start) || !clean_boundary(text, r.end)) return false;
    if (i > 0) {
      const Edit& prev = fix.edits[i - 1];
      if (r.start < prev.range.end) return false;
      // Two insertions at one offset have no defined order.
      if (r.empty() && prev.range.empty() && r.start == prev.range.start) return false;
    }
  }
  return true;
}

bool fixes_conflict(const Fix& a, const Fix& b) {
  for (const Edit& ea : a.edits) {
    for (const Edit& eb : b.edits) {
      if (edits_conflict(ea, eb)) return true;
    }
  }
  return false;
}

}  // namespace

ApplyResult apply_fixes(std::string_view text, std::span<const Diagnostic> diagnostics,
                        FixMode mode, LineEnding ending) {
  ApplyResult result;
  std::vector<size_t> candidates;
  for (size_t i = 0; i < diagnostics.size(); ++i) {
    const std::optional<Fix>& fix = diagnostics[i].fix;
    if (!fix) continue;
    if (fix->applicability == Applicability::DisplayOnly) {
      result.skipped.push_back({i, SkipReason::DisplayOnly, std::nullopt});
    } else if (fix->applicability == Applicability::Unsafe && mode == FixMode::SafeOnly) {
      result.skipped.push_back({i, SkipReason::NeedsUnsafe, std::nullopt});
    } else if (!well_formed(*fix, text)) {
      result.skipped.push_back({i, SkipReason::Malformed, std::nullopt});
    } else {
      candidates.push_back(i);
    }
  }

  auto span_of = [&](size_t i) { return diagnostics[i].fix->span(); };
  std::stable_sort(candidates.begin(), candidates.end(), [&](size_t a, size_t b) {
    TextRange ra = span_of(a), rb = span_of(b);
    if (ra.start != rb.start) return ra.start < rb.start;
    return ra.length() > rb.length();
  });

  std::vector<Edit> edits;
  for (size_t i : candidates) {
    const Fix& fix = *diagnostics[i].fix;
    std::optional<size_t> winner;
    for (size_t j : result.applied) {
      if (fixes_conflict(*diagnostics[j].fix, fix)) {
        winner = j;
        break;
      }
    }
    if (winner) {
      SkipReason why = span_of(*winner).contains(fix.span()) ? SkipReason::Contained
                                                             : SkipReason::Overlapping;
      result.skipped.push_back({i, why, winner});
      continue;
    }
    result.applied.push_back(i);
    edits.insert(edits.end(), fix.edits.begin(), fix.edits.end());
  }
  std::sort(result.skipped.begin(), result.skipped.end(),
            [](const SkippedFix& a, const SkippedFix& b) { return a.diagnostic < b.diagnostic; });

  // Accepted edits never conflict, so ordering by (start, end) is total up to
  // duplicates, which are applied once.
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    if (a.range.start != b.range.start) return a.range.start < b.range.start;
    return a.range.end < b.range.end;
  });
  edits.erase(std::unique(edits.begin(), edits.end()), edits.end());

  std::string& out = result.text;
  out.reserve(text.size());
  uint32_t pos = 0;
  for (const Edit& e : edits) {
    out.append(text.substr(pos, e.range.start - pos));
    out += convert_line_endings(e.content, ending);
    pos = e.range.end;
  }
  out.append(text.substr(pos));
  return result;
}

}  // namespace fxlint

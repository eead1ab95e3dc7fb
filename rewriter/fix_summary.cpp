#include "rewriter/fix_summary.h"

namespace fxlint {

namespace {

std::string plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

size_t total(const std::map<std::string, size_t>& by_code) {
  size_t n = 0;
  for (const auto& [code, count] : by_code) n += count;
  return n;
}

// "FX103 ×2, FX401"
std::string codes_with_counts(const std::map<std::string, size_t>& by_code) {
  std::string out;
  for (const auto& [code, count] : by_code) {
    if (!out.empty()) out += ", ";
    out += code;
    if (count > 1) out += " \xC3\x97" + std::to_string(count);
  }
  return out;
}

}  // namespace

FixSummary summarize_fixes(std::span<const FileFixResult> results) {
  FixSummary s;
  for (const FileFixResult& r : results) {
    if (r.status == FixStatus::Fixed) {
      ++s.files_fixed;
      s.fixed += r.applied.size();
      for (const AppliedFix& a : r.applied) ++s.fixed_by_code[a.code];
    }
    if (!r.error.empty()) s.errors.push_back(r.error);
    for (const RemainingDiagnostic& left : r.remaining) {
      ++s.remaining;
      const std::string& code = left.diagnostic.code;
      if (!left.not_applied) {
        ++s.no_fix[code];
      } else if (*left.not_applied == SkipReason::NeedsUnsafe) {
        ++s.needs_unsafe[code];
      } else if (*left.not_applied == SkipReason::DisplayOnly) {
        ++s.display_only[code];
      } else {
        ++s.not_applied_other[code + ": " + skip_reason_text(*left.not_applied)];
      }
    }
  }
  return s;
}

std::string render_fix_summary(const FixSummary& s, bool applied) {
  std::string out;
  if (s.fixed == 0) {
    out += applied ? "No fixes applied.\n" : "No fixes to apply.\n";
  } else {
    out += std::string(applied ? "Fixed " : "Would fix ") + plural(s.fixed, "error", "errors") +
           " (" + codes_with_counts(s.fixed_by_code) + ") in " +
           plural(s.files_fixed, "file", "files") + ".\n";
  }
  if (s.remaining == 0) return out;
  out += plural(s.remaining, "error remains", "errors remain") + ":\n";
  if (size_t n = total(s.needs_unsafe)) {
    out += "  " + plural(n, "fix", "fixes") + " available with --unsafe-fixes (" +
           codes_with_counts(s.needs_unsafe) + ")\n";
  }
  if (size_t n = total(s.display_only)) {
    out += "  " + plural(n, "fix is", "fixes are") + " shown in the docs only, not applied (" +
           codes_with_counts(s.display_only) + ")\n";
  }
  // A few codes get a line each; many share one line.
  if (s.no_fix.size() <= 3) {
    for (const auto& [code, count] : s.no_fix) {
      out += "  " + code + " has no automatic fix (" + plural(count, "error", "errors") + ")\n";
    }
  } else {
    out += "  " + plural(total(s.no_fix), "error has", "errors have") + " no automatic fix (" +
           codes_with_counts(s.no_fix) + ")\n";
  }
  for (const auto& [what, count] : s.not_applied_other) {
    out += "  " + what + " (" + std::to_string(count) + ")\n";
  }
  return out;
}

}  // namespace fxlint

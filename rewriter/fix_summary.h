#pragma once
// What `fxlint fix` tells the user after a run: how many fixes were (or would
// be) applied, and for every diagnostic left, why it was not fixed.
#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "rewriter/fix_loop.h"

namespace fxlint {

struct FixSummary {
  size_t fixed = 0;        // fixes applied across files
  size_t files_fixed = 0;  // files whose text changed
  std::map<std::string, size_t> fixed_by_code;
  size_t remaining = 0;                               // diagnostics left
  std::map<std::string, size_t> needs_unsafe;         // by code
  std::map<std::string, size_t> display_only;         // by code
  std::map<std::string, size_t> no_fix;               // by code: the rule has no automatic fix
  std::map<std::string, size_t> not_applied_other;    // by "CODE: reason"
  std::vector<std::string> errors;                    // files left as they were, and why
};

FixSummary summarize_fixes(std::span<const FileFixResult> results);

// Several lines, each ending in '\n'. `applied`: the fixes were written (else
// they would be).
std::string render_fix_summary(const FixSummary& summary, bool applied);

}  // namespace fxlint

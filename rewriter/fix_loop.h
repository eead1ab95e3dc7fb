#pragma once
// The fixpoint loop over a set of files: lint every file, apply each file's
// fixes, lint again, until a pass changes nothing. Bounded: when fixes still
// change a file after `max_passes` passes, or bring back an earlier text, the
// loop fails loudly for that file, naming it and the rules involved. A file
// whose fixed text would parse with more ERROR/MISSING nodes than the original,
// or would lose a comment (see syntax_guard.h), is left exactly as it was, and
// the fixes responsible are named.
//
// Files are linted together so that cross-file facts (compile regions reached
// through imports) stay what `check` sees.
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "rewriter/apply.h"

namespace fxlint {

// Lints the current text of every file; one list of diagnostics per text, in
// order. Production code wraps check_sources; tests pass toy rules.
using LintFunction =
    std::function<std::vector<std::vector<Diagnostic>>(std::span<const std::string> texts)>;

struct FixLoopOptions {
  FixMode mode = FixMode::SafeOnly;
  int max_passes = 10;
  // Per file (by index), rules whose fixes are not applied (rolled back by
  // `fix --verify`); their diagnostics remain.
  std::vector<std::set<std::string>> blocked;
};

struct FixInput {
  std::string path;  // for messages
  std::string text;  // linted text (no BOM); fixes keep its line endings
};

enum class FixStatus {
  Unchanged,     // no fix applied
  Fixed,         // `fixed` differs from `original`
  Reverted,      // a fix broke the syntax or dropped a comment: left as it was, see `error`
  NotConverged,  // fixes kept changing the file: left as it was, see `error`
};

struct AppliedFix {
  std::string code;
  std::string title;
  Applicability applicability = Applicability::Safe;
  int pass = 1;
};

// A diagnostic still in the file after fixing, and why its fix (if any) was not applied.
struct RemainingDiagnostic {
  Diagnostic diagnostic;
  std::optional<SkipReason> not_applied;  // nullopt: the rule offers no fix
};

struct FileFixResult {
  std::string path;
  std::string original;
  std::string fixed;  // equals `original` unless status is Fixed
  FixStatus status = FixStatus::Unchanged;
  std::vector<AppliedFix> applied;             // empty unless Fixed
  std::vector<RemainingDiagnostic> remaining;  // diagnostics of `fixed`
  std::vector<RemainingDiagnostic> unfixed;    // what remains if the fixes are not kept
  std::string error;                           // Reverted / NotConverged: what happened
  int passes = 0;                              // lint passes this file took part in
};

// Drops the fixes of `result`: `fixed` becomes `original` again, with `status`
// and `error` saying why; what remains is what the original text had. For the
// loop's own failures, and for a caller whose write of the fixed text failed.
void keep_original(FileFixResult& result, FixStatus status, std::string error);

std::vector<FileFixResult> fix_until_stable(std::vector<FixInput> files, const LintFunction& lint,
                                            const FixLoopOptions& options);

}  // namespace fxlint

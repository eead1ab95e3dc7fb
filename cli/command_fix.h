#pragma once
// `fxlint fix [PATH ...]`: lint the files as `check` does, apply the fixes to a
// fixpoint in memory, then show the unified diff (default) or write the files
// (`--apply`), and summarize what was fixed and what was left and why.
//
// Exit status: 0 nothing to change (or, with --apply, nothing left); 1 with a
// diff to show, or with --apply when diagnostics remain (or when something
// was fixed and --exit-non-zero-on-fix is given); 2 for a usage or config
// error, or when a file could not be fixed or written (named on stderr and
// left exactly as it was).
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "cli/command.h"
#include "rules/checker.h"

namespace fxlint::cli {

// The subcommand for main's command table: `args` are the words after `fix`.
// Throws UsageError / ConfigError like the other commands.
int run_fix(std::span<const std::string> args, Io& io);

// The lint step the command repeats: check_sources in the binary; tests pass
// toy rules to reach the paths no real rule should take (a fix that breaks
// the syntax, fixes that never settle).
using CheckFunction = std::function<std::vector<std::vector<Diagnostic>>(
    std::span<const SourceInput>, const CheckOptions&)>;

// `color`: color the diff (the binary decides from the terminal and NO_COLOR).
int run_fix(std::span<const std::string> args, Io& io, const CheckFunction& check, bool color);

}  // namespace fxlint::cli

#pragma once
// The options every linting command (`check`, `fix`) takes: target, scope,
// rule selection, config, discovery and threads. One table and one reader, so
// the commands cannot drift apart.
#include <span>
#include <vector>

#include "cli/arg_parser.h"
#include "cli/lint_run.h"

namespace fxlint::cli {

// `own` (the command's options), then the shared ones, then --help.
std::vector<OptionSpec> with_lint_options(std::span<const OptionSpec> own);

// Reads the shared options into `request` (paths included). Throws UsageError
// for a bad value, naming the option and what it accepts.
LintRequest read_lint_request(const ParsedArgs& args);

}  // namespace fxlint::cli

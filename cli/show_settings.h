#pragma once
// `check --show-files` and `check --show-settings`: what a run would lint and
// with which settings, for debugging config and discovery without linting.
#include <filesystem>
#include <iosfwd>

#include "cli/lint_run.h"

namespace fxlint::cli {

// Every file `check` would lint (display paths, sorted), then path problems on stderr-like `err`.
// Returns 0, or 1 when a path could not be read.
int show_files(const LintRequest& request, const std::filesystem::path& cwd, std::ostream& out,
               std::ostream& err);

// The resolved settings for the first file `check` would lint. Returns 0, or 1 when there is none.
int show_settings(const LintRequest& request, const std::filesystem::path& cwd, std::ostream& out,
                  std::ostream& err);

}  // namespace fxlint::cli

#pragma once
// The output formats of `check` (and `fix`): each renders the files' diagnostics
// to a stream. Rows and columns are 1-based; columns count characters.
#include <iosfwd>
#include <optional>
#include <span>
#include <string_view>

#include "cli/lint_run.h"

namespace fxlint::cli {

enum class OutputFormat { Full, Concise, Json, Sarif, Github };

std::optional<OutputFormat> parse_output_format(std::string_view name);

struct OutputOptions {
  bool show_fixes = false;  // full: show each fix's edits as removed / added lines
  bool color = false;       // full, concise: ANSI colors (for a terminal)
  bool summary = true;      // full, concise: end with "Found N errors." / "All checks passed!"
};

void write_full(std::span<const FileResult> files, const OutputOptions& options, std::ostream& out);
void write_concise(std::span<const FileResult> files, const OutputOptions& options, std::ostream& out);
void write_json(std::span<const FileResult> files, std::ostream& out);
void write_sarif(std::span<const FileResult> files, std::ostream& out);
void write_github(std::span<const FileResult> files, std::ostream& out);

// Dispatches to the writer for `format`; full and concise end with the summary.
void write_diagnostics(OutputFormat format, std::span<const FileResult> files,
                       const OutputOptions& options, std::ostream& out);

// "Found 3 errors (2 fixable with `fxlint fix --apply`)." or "All checks passed!".
void write_summary(std::span<const FileResult> files, std::ostream& out);

// --statistics: count per rule, as a table (or JSON for the json format).
void write_statistics(OutputFormat format, std::span<const FileResult> files, std::ostream& out);

}  // namespace fxlint::cli

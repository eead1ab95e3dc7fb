// `fxlint check [PATH ...]`: lint files and report diagnostics.
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <ostream>

#include "cli/arg_parser.h"
#include "cli/cli_error.h"
#include "cli/command.h"
#include "cli/lint_options.h"
#include "cli/lint_run.h"
#include "cli/output/output_format.h"
#include "cli/show_settings.h"

namespace fxlint::cli {

namespace {

constexpr OptionSpec kCheckOptions[] = {
    {"--output-format", "", "FORMAT", "full (default), concise, json, sarif or github"},
    {"--output-file", "-o", "FILE", "Write the report to FILE instead of standard output"},
    {"--statistics", "", "", "Show the number of diagnostics per rule instead of the diagnostics"},
    {"--show-fixes", "", "", "Show the lines each available fix would change"},
    {"--stdin-filename", "", "NAME", "Read the source from standard input; NAME places it for config and output"},
    {"--exit-zero", "", "", "Exit with status 0 even when diagnostics are found"},
    {"--quiet", "-q", "", "Print the diagnostics only: no summary, no warnings"},
    {"--silent", "-s", "", "Print nothing; the exit status still tells"},
    {"--show-files", "", "", "List the files that would be linted, and stop"},
    {"--show-settings", "", "", "Print the settings the first file would be linted with, and stop"},
};
const std::vector<OptionSpec> kOptions = with_lint_options(kCheckOptions);

void print_help(std::ostream& out) {
  out << "Lint Python files for code that breaks graph capture.\n\n"
         "Usage: fxlint check [OPTIONS] [PATH]...\n\n"
         "Arguments:\n  [PATH]...  Files or directories to lint (default: .); - reads stdin\n\n"
         "Options:\n"
      << format_options(kOptions)
      << "\nExit status: 0 no diagnostics, 1 diagnostics found, 2 usage, config or internal error.\n";
}

OutputFormat output_format(const ParsedArgs& args) {
  std::optional<std::string> value = args.last("--output-format");
  if (!value) return OutputFormat::Full;
  std::optional<OutputFormat> format = parse_output_format(*value);
  if (!format) {
    throw UsageError("invalid value '" + *value + "' for '--output-format'; possible values: full, concise, json, sarif, github");
  }
  return *format;
}

// Colors on a terminal, unless NO_COLOR is set; FORCE_COLOR turns them on anywhere.
bool use_color(bool terminal) {
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  const char* force = std::getenv("FORCE_COLOR");
  if (force && *force) return true;
  return terminal;
}

}  // namespace

int run_check(std::span<const std::string> argv, Io& io) {
  for (const std::string& a : argv) {
    if (a == "--") break;
    if (a == "--fix" || a == "--unsafe-fixes") {  // ruff's spelling
      throw UsageError("'" + a + "' is not an option of check: `fxlint fix --apply` writes the fixes "
                       "(add --unsafe-fixes for the unsafe ones)");
    }
  }
  ParsedArgs args = parse_args(argv, kOptions);
  if (args.has("--help")) {
    print_help(io.out);
    return 0;
  }
  LintRequest request = read_lint_request(args);
  OutputFormat format = output_format(args);
  request.stdin_filename = args.last("--stdin-filename");
  if (request.stdin_filename && request.stdin_filename->empty()) {
    throw UsageError("'--stdin-filename' needs a file name");
  }
  if (request.stdin_filename && !request.paths.empty()) {
    io.err << "warning: ignoring the paths given, since --stdin-filename reads standard input\n";
    request.paths.clear();
  }

  if (args.has("--show-files")) return show_files(request, io.cwd, io.out, io.err);
  if (args.has("--show-settings")) return show_settings(request, io.cwd, io.out, io.err);

  std::optional<std::string> output_file = args.last("--output-file");
  if (output_file && output_file->empty()) throw UsageError("'--output-file' needs a file name");

  request.release_memory = false;  // `check` ends the process once it has reported
  LintOutcome outcome = run_lint(request, io.in, io.cwd);
  bool found = false;
  for (const FileResult& f : outcome.files) found = found || !f.diagnostics.empty();
  int status = found && !args.has("--exit-zero") ? 1 : 0;
  if (args.has("--silent") && !output_file) return status;
  bool quiet = args.has("--quiet");
  if (!quiet) {
    for (const std::string& w : outcome.warnings) io.err << "warning: " << w << '\n';
  }
  if (outcome.files.empty() && !request.stdin_filename && !quiet) {
    io.err << "warning: no Python files found under the given path(s)\n";
  }
  if (!outcome.files.empty() && outcome.functions_checked == 0 && outcome.all_reachable && !quiet) {
    // "All checks passed!" would read as a clean bill of health for code that was not looked at.
    io.err << "warning: no compiled code in the checked files (no `nn.Module` forward, nothing compiled, "
              "decorated or called from compiled code), so no function was checked; check them with the "
              "files that compile them, or use `--scope all`\n";
  }
  std::ofstream file;
  if (output_file) {
    std::filesystem::path path = normalize_path(*output_file, io.cwd);
    file.open(path, std::ios::binary | std::ios::trunc);
    if (!file) {
      io.err << "error: cannot write the report to " << *output_file << ": " << std::strerror(errno) << '\n';
      return 2;
    }
  }
  std::ostream& out = output_file ? static_cast<std::ostream&>(file) : io.out;
  if (args.has("--statistics")) {
    write_statistics(format, outcome.files, out);
  } else {
    OutputOptions options;
    options.show_fixes = args.has("--show-fixes");
    options.color = !output_file && use_color(io.out_is_terminal);
    options.summary = !quiet;
    write_diagnostics(format, outcome.files, options, out);
  }
  if (output_file) {
    file.close();
    if (!file) {
      io.err << "error: cannot write the report to " << *output_file << '\n';
      return 2;
    }
  }
  return status;
}

}  // namespace fxlint::cli

// `fxlint check [PATH ...]`: lint files and report diagnostics.
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <ostream>

#include "cli/arg_parser.h"
#include "cli/cli_error.h"
#include "cli/command.h"
#include "cli/lint_run.h"
#include "cli/output/output_format.h"
#include "cli/show_settings.h"

namespace fxlint::cli {

namespace {

constexpr OptionSpec kOptions[] = {
    {"--target", "", "TARGET", "Compiler to prepare for: fx2onnx (default), dynamo, export"},
    {"--scope", "", "SCOPE", "Lint compile regions only (reachable, default) or every function (all)"},
    {"--select", "", "CODES", "Rules to enable (comma-separated codes, prefixes, names or ALL); replaces config"},
    {"--extend-select", "", "CODES", "Rules to enable in addition to those selected"},
    {"--ignore", "", "CODES", "Rules to disable"},
    {"--output-format", "", "FORMAT", "full (default), concise, json, sarif or github"},
    {"--output-file", "-o", "FILE", "Write the report to FILE instead of standard output"},
    {"--statistics", "", "", "Show the number of diagnostics per rule instead of the diagnostics"},
    {"--show-fixes", "", "", "Show the lines each available fix would change"},
    {"--stdin-filename", "", "NAME", "Read the source from standard input; NAME places it for config and output"},
    {"--exit-zero", "", "", "Exit with status 0 even when diagnostics are found"},
    {"--quiet", "-q", "", "Print the diagnostics only: no summary, no warnings"},
    {"--silent", "-s", "", "Print nothing; the exit status still tells"},
    {"--config", "", "FILE", "Use this config file instead of searching for one"},
    {"--force-exclude", "", "", "Apply exclude settings to paths named on the command line too"},
    {"--no-respect-gitignore", "", "", "Lint files that .gitignore files exclude"},
    {"--no-cache", "", "", "Do not read or write a cache (fxlint keeps none yet)"},
    {"--show-files", "", "", "List the files that would be linted, and stop"},
    {"--show-settings", "", "", "Print the settings the first file would be linted with, and stop"},
    {"--jobs", "-j", "N", "Threads to use; 0 (default) uses every core"},
    {"--help", "-h", "", "Print this help"},
};

void print_help(std::ostream& out) {
  out << "Lint Python files for code that breaks graph capture.\n\n"
         "Usage: fxlint check [OPTIONS] [PATH]...\n\n"
         "Arguments:\n  [PATH]...  Files or directories to lint (default: .); - reads stdin\n\n"
         "Options:\n"
      << format_options(kOptions)
      << "\nExit status: 0 no diagnostics, 1 diagnostics found, 2 usage, config or internal error.\n";
}

template <typename T>
T parse_choice(const ParsedArgs& args, std::string_view option, std::optional<T> (*parse)(std::string_view),
               std::string_view allowed) {
  std::string value = *args.last(option);
  std::optional<T> parsed = parse(value);
  if (!parsed) {
    throw UsageError("invalid value '" + value + "' for '" + std::string(option) +
                     "'; possible values: " + std::string(allowed));
  }
  return *parsed;
}

std::optional<Scope> parse_scope(std::string_view s) {
  if (s == "reachable") return Scope::Reachable;
  if (s == "all") return Scope::All;
  return std::nullopt;
}

std::vector<std::string> selectors(const ParsedArgs& args, std::string_view option) {
  std::vector<std::string> out = args.list(option);
  for (const std::string& s : out) {
    if (!is_valid_selector(s)) {
      throw UsageError("invalid value '" + s + "' for '" + std::string(option) +
                       "': not a rule selector; expected ALL, a code prefix like FX1, a code like "
                       "FX101 or a rule name (see `fxlint rule --all`)");
    }
  }
  return out;
}

unsigned parse_jobs(const std::string& value) {
  bool digits = !value.empty() && value.size() < 6;
  for (char c : value) digits = digits && c >= '0' && c <= '9';
  if (!digits) throw UsageError("invalid value '" + value + "' for '--jobs'; expected a number of threads (0 = all cores)");
  return static_cast<unsigned>(std::stoul(value));
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
  ParsedArgs args = parse_args(argv, kOptions);
  if (args.has("--help")) {
    print_help(io.out);
    return 0;
  }
  LintRequest request;
  request.paths = args.positionals();
  if (args.has("--target")) {
    request.target = parse_choice<Target>(args, "--target", parse_target, "fx2onnx, dynamo, export");
  }
  if (args.has("--scope")) request.scope = parse_choice<Scope>(args, "--scope", parse_scope, "reachable, all");
  OutputFormat format = OutputFormat::Full;
  if (args.has("--output-format")) {
    format = parse_choice<OutputFormat>(args, "--output-format", parse_output_format,
                                        "full, concise, json, sarif, github");
  }
  if (args.has("--select")) request.selection.select = selectors(args, "--select");
  request.selection.extend_select = selectors(args, "--extend-select");
  request.selection.ignore = selectors(args, "--ignore");
  request.stdin_filename = args.last("--stdin-filename");
  if (request.stdin_filename && request.stdin_filename->empty()) {
    throw UsageError("'--stdin-filename' needs a file name");
  }
  if (auto config = args.last("--config")) request.config = *config;
  if (auto jobs = args.last("--jobs")) request.jobs = parse_jobs(*jobs);
  request.discovery.force_exclude = args.has("--force-exclude");
  request.discovery.respect_gitignore = !args.has("--no-respect-gitignore");
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
  if (outcome.files.empty() && !request.stdin_filename && !quiet) {
    io.err << "warning: no Python files found under the given path(s)\n";
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

#pragma once
// One lint run as `check` (and later `fix`) performs it: resolve config, find
// files, read them, build each file's rule set and module name, call
// check_sources, and collect the results per file in a stable order.
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "cli/file_discovery.h"
#include "cli/import_context.h"
#include "cli/rule_selection.h"
#include "core/diagnostic.h"
#include "rules/checker.h"

namespace fxlint::cli {

// What the command line says; unset fields defer to the config files.
struct LintRequest {
  std::vector<std::string> paths;               // as typed; "-" reads stdin
  std::optional<std::string> stdin_filename;    // --stdin-filename: read stdin, name it this
  std::optional<std::filesystem::path> config;  // --config FILE
  std::optional<Target> target;
  std::optional<Scope> scope;
  RuleSelection selection;  // --select / --extend-select / --ignore
  DiscoveryOptions discovery;
  unsigned jobs = 0;  // 0 = all cores
  bool release_memory = true;  // false: the process exits right after (see CheckOptions)
};

struct FileResult {
  std::filesystem::path path;  // absolute
  std::string display_path;    // relative to the working directory when inside it
  std::string text;
  std::vector<Diagnostic> diagnostics;  // sorted by position
};

struct LintOutcome {
  std::vector<FileResult> files;  // every file looked at, sorted by display path
  size_t files_checked = 0;
  size_t functions_checked = 0;  // compiled code the checks walked, over the linted files
  bool all_reachable = true;     // every linted file checked with --scope reachable
  std::vector<std::string> warnings;  // about the settings, printed unless --quiet
};

// What applies to one file: the request's overrides over its config.
struct FileSettings {
  Target target = Target::Fx2Onnx;
  Scope scope = Scope::Reachable;
  RuleSet rules;  // after select / extend-select / ignore layers and per-file-ignores
};
FileSettings file_settings(const LintRequest& request, const Config& config,
                           const std::filesystem::path& file);

// The input for one file, with its settings: `check`, `fix` and the language
// server all build them here. `warnings` collects problems finding the torch version.
SourceInput source_input(const LintRequest& request, const Config& config, const std::filesystem::path& file,
                         std::string shown, std::string module_name, std::string text,
                         std::vector<std::string>* warnings);
// A file the linted ones import (import_context.h): analysed with them, nothing reported.
SourceInput context_input(const LintRequest& request, const Config& config, ImportedFile& file,
                          std::vector<std::string>* warnings);
// Adds what `config` says about how code reaches a compiler (entry points,
// compile functions and decorators): one analysis takes those of every config
// of the files it holds, so that a sub-package's config never splits a project.
void add_project_options(CheckOptions& options, const Config& config);

// Throws ConfigError for broken config. `cwd` anchors relative paths.
LintOutcome run_lint(const LintRequest& request, std::istream& stdin_stream,
                     const std::filesystem::path& cwd);

// `path` relative to `cwd` when inside it, else absolute; '/'-separated.
std::string display_path(const std::filesystem::path& path, const std::filesystem::path& cwd);

}  // namespace fxlint::cli

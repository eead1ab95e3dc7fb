#pragma once
// Settings read from one config file: `[tool.fxlint]` in pyproject.toml, or the
// top level of fxlint.toml / .fxlint.toml. Every key is optional; an absent key
// leaves the built-in default (or the command line) in charge.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli/path_pattern.h"
#include "cli/verify_config.h"
#include "rules/checker.h"
#include "rules/registry.h"

namespace fxlint::cli {

struct PerFileIgnore {
  PathPattern pattern;
  std::vector<std::string> selectors;  // validated codes, prefixes or names
};

struct Config {
  std::filesystem::path file;  // empty for the built-in defaults
  std::filesystem::path root;  // directory that relative globs start from

  std::optional<Target> target;
  std::optional<std::string> torch_version;  // "2.1" or "2.1.0"
  std::optional<std::vector<std::string>> select;
  std::vector<std::string> extend_select;
  std::vector<std::string> ignore;
  std::vector<PerFileIgnore> per_file_ignores;
  std::optional<std::vector<PathPattern>> exclude;  // replaces the defaults when set
  std::vector<PathPattern> extend_exclude;
  std::optional<Scope> scope;
  std::vector<std::string> entry_points;  // "package.module:Qualified.name"
  std::vector<std::string> compile_functions;
  std::vector<std::string> compile_decorators;
  VerifyConfig verify;

  // The exclusion patterns in force: `exclude` (or the defaults) plus `extend-exclude`.
  bool is_excluded(const std::filesystem::path& path) const;
};

// Directory names skipped by default, as ruff does.
const std::vector<std::string>& default_excludes();

// The defaults, with relative globs starting at `root`.
Config default_config(std::filesystem::path root);

// Reads and validates a config file. `pyproject.toml` is read from its
// `[tool.fxlint]` table; any other name from its top level. Throws ConfigError.
Config load_config_file(const std::filesystem::path& file);

// Whether a pyproject.toml has a `[tool.fxlint]` table (false when unreadable).
// Throws ConfigError when the file is not valid TOML.
bool pyproject_has_fxlint_table(const std::filesystem::path& file);

}  // namespace fxlint::cli

#pragma once
// Finds the config that governs each directory: the nearest `.fxlint.toml`,
// `fxlint.toml` or `pyproject.toml` with a `[tool.fxlint]` table, looking
// upward (in that order of preference within one directory); `--config FILE`
// overrides the search. Each file is loaded once.
#include <filesystem>
#include <map>
#include <memory>
#include <optional>

#include "cli/config.h"

namespace fxlint::cli {

class ConfigResolver {
 public:
  // `cwd` is where relative globs start when no config file is found.
  // Throws ConfigError when `forced` cannot be loaded.
  ConfigResolver(std::filesystem::path cwd, std::optional<std::filesystem::path> forced);

  // `dir` is absolute and lexically normal. Throws ConfigError for a broken file.
  const Config& for_directory(const std::filesystem::path& dir);
  const Config& for_file(const std::filesystem::path& file) { return for_directory(file.parent_path()); }

 private:
  const Config* find(const std::filesystem::path& dir);

  std::unique_ptr<Config> forced_;
  Config fallback_;
  std::map<std::filesystem::path, std::unique_ptr<Config>> loaded_;  // by file
  std::map<std::filesystem::path, const Config*> by_directory_;
};

// The config file in `dir` itself, if any (pyproject.toml only with `[tool.fxlint]`).
std::optional<std::filesystem::path> config_file_in(const std::filesystem::path& dir);

}  // namespace fxlint::cli

#pragma once
// Which files `check` lints: directories are walked for `.py` and `.pyi`
// files, skipping what `.gitignore` files (nested ones and `.git/info/exclude`
// too) and the config's `exclude` / `extend-exclude` name; files named on the
// command line are linted whatever their name, unless `force_exclude` applies
// the exclusions to them too. Symlinked files are linted; symlinked
// directories are not entered (so symlink loops cannot trap the walk).
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "cli/config_resolver.h"

namespace fxlint::cli {

struct DiscoveryOptions {
  bool respect_gitignore = true;
  bool force_exclude = false;
};

// A path that could not be walked or does not exist; reported as FX900.
struct PathProblem {
  std::filesystem::path path;
  std::string message;
};

struct Discovery {
  std::vector<std::filesystem::path> files;  // absolute, lexically normal, sorted, unique
  std::vector<PathProblem> problems;
};

// `paths` are absolute and lexically normal. Throws ConfigError for a broken config met on the way.
Discovery discover_files(std::span<const std::filesystem::path> paths, ConfigResolver& configs,
                         const DiscoveryOptions& options);

// Absolute and lexically normal, without a trailing slash.
std::filesystem::path normalize_path(const std::filesystem::path& path, const std::filesystem::path& cwd);

// Whether `path` or a directory above it (up to its config's root) is excluded by config.
bool is_excluded_by_config(const std::filesystem::path& path, ConfigResolver& configs);

}  // namespace fxlint::cli

#pragma once
// A user glob from config (`exclude`, `per-file-ignores`), matched the way ruff
// matches them: against the path relative to the config's directory, and
// against the file's base name (so `"__init__.py"` or `"build"` match anywhere).
#include <filesystem>
#include <string>

#include "cli/glob.h"

namespace fxlint::cli {

class PathPattern {
 public:
  PathPattern(Glob glob, std::filesystem::path root) : glob_(std::move(glob)), root_(std::move(root)) {}

  // `path` is absolute and lexically normal.
  bool matches(const std::filesystem::path& path) const;
  const std::string& text() const { return glob_.pattern(); }

 private:
  Glob glob_;
  std::filesystem::path root_;
};

}  // namespace fxlint::cli

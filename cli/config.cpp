#include "cli/config.h"

namespace fxlint::cli {

const std::vector<std::string>& default_excludes() {
  static const std::vector<std::string> names = {
      ".bzr",     ".direnv",      ".eggs",          ".git",      ".git-rewrite", ".hg",
      ".ipynb_checkpoints", ".mypy_cache", ".nox",  ".pants.d",  ".pyenv",       ".pytest_cache",
      ".pytype",  ".ruff_cache",  ".svn",           ".tox",      ".venv",        ".vscode",
      "__pycache__", "__pypackages__", "_build", "buck-out", "build", "dist", "node_modules",
      "site-packages",  "venv",
  };
  return names;
}

namespace {

const std::vector<PathPattern>& default_exclude_patterns() {
  // Base-name patterns: the root does not matter.
  static const std::vector<PathPattern> patterns = [] {
    std::vector<PathPattern> out;
    for (const std::string& name : default_excludes()) {
      out.emplace_back(*Glob::compile(name, Glob::Star::CrossesSlash, nullptr), "/");
    }
    return out;
  }();
  return patterns;
}

}  // namespace

Config default_config(std::filesystem::path root) {
  Config c;
  c.root = std::move(root);
  return c;
}

bool Config::is_excluded(const std::filesystem::path& path) const {
  const std::vector<PathPattern>& base = exclude ? *exclude : default_exclude_patterns();
  for (const PathPattern& p : base) {
    if (p.matches(path)) return true;
  }
  for (const PathPattern& p : extend_exclude) {
    if (p.matches(path)) return true;
  }
  return false;
}

}  // namespace fxlint::cli

#include "cli/path_pattern.h"

namespace fxlint::cli {

bool PathPattern::matches(const std::filesystem::path& path) const {
  if (glob_.matches(path.filename().generic_string())) return true;
  std::filesystem::path relative = path.lexically_relative(root_);
  if (relative.empty()) return false;
  std::string rel = relative.generic_string();
  if (rel.starts_with("../")) return glob_.matches(path.generic_string());
  return glob_.matches(rel);
}

}  // namespace fxlint::cli

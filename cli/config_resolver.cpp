#include "cli/config_resolver.h"

namespace fxlint::cli {

namespace {
bool is_file(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec);
}
}  // namespace

std::optional<std::filesystem::path> config_file_in(const std::filesystem::path& dir) {
  for (const char* name : {".fxlint.toml", "fxlint.toml"}) {
    if (is_file(dir / name)) return dir / name;
  }
  std::filesystem::path pyproject = dir / "pyproject.toml";
  if (is_file(pyproject) && pyproject_has_fxlint_table(pyproject)) return pyproject;
  return std::nullopt;
}

ConfigResolver::ConfigResolver(std::filesystem::path cwd, std::optional<std::filesystem::path> forced)
    : fallback_(default_config(std::move(cwd))) {
  if (forced) forced_ = std::make_unique<Config>(load_config_file(*forced));
}

const Config& ConfigResolver::for_directory(const std::filesystem::path& dir) {
  if (forced_) return *forced_;
  if (const Config* c = find(dir)) return *c;
  return fallback_;
}

const Config* ConfigResolver::find(const std::filesystem::path& dir) {
  auto cached = by_directory_.find(dir);
  if (cached != by_directory_.end()) return cached->second;
  const Config* found = nullptr;
  if (std::optional<std::filesystem::path> file = config_file_in(dir)) {
    auto& slot = loaded_[*file];
    if (!slot) slot = std::make_unique<Config>(load_config_file(*file));
    found = slot.get();
  } else if (dir.has_parent_path() && dir.parent_path() != dir) {
    found = find(dir.parent_path());
  }
  by_directory_[dir] = found;
  return found;
}

}  // namespace fxlint::cli

#include "cli/module_name.h"

#include <deque>

#include "cli/name_syntax.h"

namespace fxlint::cli {

bool ModuleNamer::is_package(const std::filesystem::path& dir) {
  auto it = packages_.find(dir);
  if (it != packages_.end()) return it->second;
  std::error_code ec;
  bool package = std::filesystem::exists(dir / "__init__.py", ec) ||
                 std::filesystem::exists(dir / "__init__.pyi", ec);
  packages_[dir] = package;
  return package;
}

std::string ModuleNamer::name_of(const std::filesystem::path& file) {
  std::deque<std::string> parts;
  std::string stem = file.stem().string();
  if (stem != "__init__") parts.push_back(stem);
  for (std::filesystem::path dir = file.parent_path();
       dir.has_parent_path() && dir.parent_path() != dir && is_package(dir); dir = dir.parent_path()) {
    parts.push_front(dir.filename().string());
  }
  std::string name;
  for (const std::string& p : parts) {
    if (!name.empty()) name += '.';
    name += p;
  }
  return is_dotted_name(name) ? name : "";
}

std::vector<std::string> ModuleNamer::aliases_of(const std::filesystem::path& file) {
  std::string name = name_of(file);
  if (name.empty()) return {};
  // The directory above the package root (or the file's own directory).
  std::filesystem::path dir = file.parent_path();
  while (dir.has_parent_path() && dir.parent_path() != dir && is_package(dir)) dir = dir.parent_path();
  std::vector<std::string> out;
  for (int up = 0; up < 3 && dir.has_parent_path() && dir.parent_path() != dir; ++up, dir = dir.parent_path()) {
    std::string part = dir.filename().string();
    if (!is_dotted_name(part) || part.find('.') != std::string::npos) break;
    name = part + "." + name;
    out.push_back(name);
  }
  return out;
}

}  // namespace fxlint::cli

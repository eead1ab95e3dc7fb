#pragma once
// The dotted import name of a file, so cross-file imports resolve: the file's
// stem prefixed by every enclosing directory that is a package (holds an
// `__init__.py` or `__init__.pyi`). `pkg/sub/mod.py` -> "pkg.sub.mod";
// `pkg/__init__.py` -> "pkg".
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace fxlint::cli {

class ModuleNamer {
 public:
  // `file` is absolute. "" when the name is not a valid module path.
  std::string name_of(const std::filesystem::path& file);
  // Its names through the directories above its package that are not packages
  // (namespace packages, imported from a directory higher up): for
  // `ldm/modules/pkg/mod.py` with only `pkg/__init__.py`, "modules.pkg.mod" and
  // "ldm.modules.pkg.mod". Up to three such directories, while they are names.
  std::vector<std::string> aliases_of(const std::filesystem::path& file);

 private:
  bool is_package(const std::filesystem::path& dir);
  std::map<std::filesystem::path, bool> packages_;
};

}  // namespace fxlint::cli

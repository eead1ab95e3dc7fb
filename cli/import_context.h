#pragma once
// The project files that the linted files import, directly or through one
// another, and that were not named. What their functions return and which of
// them compiled code calls decide findings in the linted files, so `fxlint
// check models/` sees what `fxlint check .` sees there. They are analysed and
// never reported.
#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/module_name.h"
#include "cli/source_reader.h"

namespace fxlint::cli {

// The absolute module names the import statements of `text` name, for a file
// of package `package` ("pkg.sub"; "" at the top): `import a.b` gives "a.b";
// `from .m import f, g` gives "pkg.sub.m", "pkg.sub.m.f" and "pkg.sub.m.g"
// (either may be a module). A line scan: imports inside strings count too,
// which only reads a file more.
std::vector<std::string> imported_modules(std::string_view text, std::string_view package);

struct ImportedFile {
  SourceFile source;
  std::string module_name;  // as the importing file names it
};

// The files under the linted files' import roots that their imports name,
// and those that these import, up to `max_depth` imports away; at most `limit`.
// Under a `site-packages` root only the linted files' own top-level packages
// are followed, never other installed ones.
std::vector<ImportedFile> imported_files(std::span<const SourceFile> linted, ModuleNamer& modules,
                                         size_t max_depth = 2, size_t limit = 2000);

}  // namespace fxlint::cli

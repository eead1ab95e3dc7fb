#include "tests/support/catch.h"

#include "cli/module_name.h"
#include "temp_dir.h"

using fxlint::cli::ModuleNamer;
using fxlint::cli::test::TempDir;

TEST_CASE("module names start at the nearest directory without __init__.py") {
  TempDir dir;
  dir.write("src/pkg/__init__.py", "");
  dir.write("src/pkg/sub/__init__.pyi", "");
  auto mod = dir.write("src/pkg/sub/mod.py", "");
  auto init = dir.path() / "src/pkg/__init__.py";
  auto script = dir.write("scripts/run.py", "");
  auto bad = dir.write("scripts/my-tool.py", "");
  ModuleNamer namer;
  CHECK(namer.name_of(mod) == "pkg.sub.mod");
  CHECK(namer.name_of(init) == "pkg");
  CHECK(namer.name_of(script) == "run");
  CHECK(namer.name_of(bad) == "");
}

TEST_CASE("a module's aliases go up through the directories that are not packages") {
  TempDir dir;
  dir.write("my-repo/ldm/modules/pkg/__init__.py", "");
  auto mod = dir.write("my-repo/ldm/modules/pkg/mod.py", "");
  auto script = dir.write("my-repo/tools/run.py", "");
  auto dotted = dir.write("v1.0/tool.py", "");
  ModuleNamer namer;
  CHECK(namer.name_of(mod) == "pkg.mod");
  std::vector<std::string> aliases = namer.aliases_of(mod);
  REQUIRE(aliases.size() == 2);  // `my-repo` is no name: it stops there
  CHECK(aliases[0] == "modules.pkg.mod");
  CHECK(aliases[1] == "ldm.modules.pkg.mod");
  CHECK(namer.aliases_of(script) == std::vector<std::string>{"tools.run"});
  CHECK(namer.aliases_of(dotted).empty());
}

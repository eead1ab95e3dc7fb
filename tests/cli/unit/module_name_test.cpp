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

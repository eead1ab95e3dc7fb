#include "tests/support/catch.h"

#include <algorithm>

#include "cli/file_discovery.h"
#include "temp_dir.h"

using namespace fxlint::cli;
using fxlint::cli::test::TempDir;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> relative_files(const Discovery& d, const fs::path& root) {
  std::vector<std::string> out;
  for (const fs::path& f : d.files) out.push_back(f.lexically_relative(root).generic_string());
  return out;
}

Discovery discover(const TempDir& dir, std::vector<fs::path> paths, DiscoveryOptions options = {}) {
  ConfigResolver configs(dir.path(), std::nullopt);
  return discover_files(paths, configs, options);
}

}  // namespace

TEST_CASE("walks .py and .pyi files, skipping default excludes") {
  TempDir dir;
  dir.write("a.py", "");
  dir.write("b.pyi", "");
  dir.write("notes.txt", "");
  dir.write("pkg/c.py", "");
  dir.write("build/gen.py", "");
  dir.write(".venv/lib/x.py", "");
  dir.write("node_modules/y.py", "");
  Discovery d = discover(dir, {dir.path()});
  CHECK(relative_files(d, dir.path()) == std::vector<std::string>{"a.py", "b.pyi", "pkg/c.py"});
  CHECK(d.problems.empty());
}

TEST_CASE(".gitignore files: nested, negated and directory patterns") {
  TempDir dir;
  fs::create_directories(dir.path() / ".git" / "info");
  dir.write(".git/info/exclude", "local_only.py\n");
  dir.write(".gitignore", "*_gen.py\nout/\n");
  dir.write("sub/.gitignore", "!keep_gen.py\nsecret.py\n");
  dir.write("a.py", "");
  dir.write("x_gen.py", "");
  dir.write("local_only.py", "");
  dir.write("out/o.py", "");
  dir.write("sub/keep_gen.py", "");
  dir.write("sub/drop_gen.py", "");
  dir.write("sub/secret.py", "");
  dir.write("sub/ok.py", "");
  dir.write("other/secret.py", "");
  Discovery d = discover(dir, {dir.path()});
  CHECK(relative_files(d, dir.path()) ==
        std::vector<std::string>{"a.py", "other/secret.py", "sub/keep_gen.py", "sub/ok.py"});

  // Ignore files above the walked directory apply inside the repository too.
  Discovery sub = discover(dir, {dir.path() / "sub"});
  CHECK(relative_files(sub, dir.path()) == std::vector<std::string>{"sub/keep_gen.py", "sub/ok.py"});

  DiscoveryOptions no_git;
  no_git.respect_gitignore = false;
  CHECK(discover(dir, {dir.path()}, no_git).files.size() == 9);
}

TEST_CASE("config exclude, and explicit files unless force_exclude") {
  TempDir dir;
  dir.write("fxlint.toml", "extend-exclude = [\"legacy\", \"gen_*.py\"]\n");
  dir.write("a.py", "");
  dir.write("gen_x.py", "");
  dir.write("legacy/old.py", "");
  Discovery d = discover(dir, {dir.path()});
  CHECK(relative_files(d, dir.path()) == std::vector<std::string>{"a.py"});

  std::vector<fs::path> explicit_files = {dir.path() / "legacy" / "old.py", dir.path() / "gen_x.py"};
  CHECK(discover(dir, explicit_files).files.size() == 2);
  DiscoveryOptions force;
  force.force_exclude = true;
  CHECK(discover(dir, explicit_files, force).files.empty());
}

TEST_CASE("symlink loops, a directory named x.py and missing paths do not stop the walk") {
  TempDir dir;
  dir.write("a.py", "");
  dir.write("x.py/inner.py", "");
  fs::create_directory_symlink(dir.path(), dir.path() / "loop");
  fs::create_symlink(dir.path() / "self.py", dir.path() / "self.py");
  fs::create_symlink(dir.path() / "a.py", dir.path() / "link.py");
  Discovery d = discover(dir, {dir.path(), dir.path() / "missing.py"});
  CHECK(relative_files(d, dir.path()) == std::vector<std::string>{"a.py", "link.py", "x.py/inner.py"});
  REQUIRE(d.problems.size() == 2);
  std::vector<std::string> problems;
  for (const PathProblem& p : d.problems) problems.push_back(p.path.filename().string() + ": " + p.message);
  std::sort(problems.begin(), problems.end());
  CHECK(problems[0] == "missing.py: cannot read path: no such file or directory");
  CHECK_THAT(problems[1], Catch::StartsWith("self.py: cannot read file: too many levels of symbolic links"));
}

TEST_CASE("the same file named twice is linted once") {
  TempDir dir;
  dir.write("a.py", "");
  Discovery d = discover(dir, {dir.path(), dir.path() / "a.py"});
  CHECK(d.files.size() == 1);
}

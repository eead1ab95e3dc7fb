#include "tests/support/catch.h"

#include "cli/glob.h"

using fxlint::cli::Glob;

namespace {
bool config_glob(const char* pattern, const char* path) {
  return Glob::compile(pattern, Glob::Star::CrossesSlash, nullptr)->matches(path);
}
bool git_glob(const char* pattern, const char* path) {
  return Glob::compile(pattern, Glob::Star::StopsAtSlash, nullptr)->matches(path);
}
}  // namespace

TEST_CASE("config globs: * crosses directories as in ruff") {
  CHECK(config_glob("tests/*", "tests/a/b.py"));
  CHECK(config_glob("*.py", "a/b.py"));
  CHECK_FALSE(config_glob("*.py", "a/b.pyi"));
  CHECK(config_glob("**/{tests,docs}/*", "x/docs/y.py"));
  CHECK_FALSE(config_glob("**/{tests,docs}/*", "x/src/y.py"));
}

TEST_CASE("gitignore globs: * stops at /, ** crosses") {
  CHECK(git_glob("*.py", "a.py"));
  CHECK_FALSE(git_glob("*.py", "dir/a.py"));
  CHECK(git_glob("**/a.py", "a.py"));
  CHECK(git_glob("**/a.py", "x/y/a.py"));
  CHECK(git_glob("a/**/b", "a/b"));
  CHECK(git_glob("a/**/b", "a/x/y/b"));
  CHECK(git_glob("a/**", "a/x/y"));
  CHECK_FALSE(git_glob("a/**", "b/x"));
}

TEST_CASE("classes, ? and escapes") {
  CHECK(config_glob("file[0-9].py", "file7.py"));
  CHECK_FALSE(config_glob("file[!0-9].py", "file7.py"));
  CHECK(config_glob("file[!0-9].py", "fileX.py"));
  CHECK(config_glob("?.py", "a.py"));
  CHECK_FALSE(git_glob("a?b", "a/b"));
  CHECK(config_glob("\\*.py", "*.py"));
  CHECK_FALSE(config_glob("\\*.py", "a.py"));
}

TEST_CASE("malformed globs are rejected with a reason") {
  std::string error;
  CHECK_FALSE(Glob::compile("a[bc", Glob::Star::CrossesSlash, &error));
  CHECK(error == "unclosed `[`");
  CHECK_FALSE(Glob::compile("{a,b", Glob::Star::CrossesSlash, &error));
  CHECK(error == "unclosed `{`");
}

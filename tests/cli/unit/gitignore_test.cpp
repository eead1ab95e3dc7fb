#include "tests/support/catch.h"

#include "cli/gitignore.h"

using fxlint::cli::GitignoreFile;
using V = GitignoreFile::Verdict;

TEST_CASE("gitignore: base names match at any depth, anchored patterns at the base") {
  GitignoreFile g("/repo", "# comment\n\n*.pyc\n/top.py\ndocs/gen.py\n");
  CHECK(g.match("a/b/c.pyc", false) == V::Ignore);
  CHECK(g.match("top.py", false) == V::Ignore);
  CHECK(g.match("sub/top.py", false) == V::None);
  CHECK(g.match("docs/gen.py", false) == V::Ignore);
  CHECK(g.match("x/docs/gen.py", false) == V::None);
}

TEST_CASE("gitignore: trailing slash matches directories only") {
  GitignoreFile g("/repo", "out/\n");
  CHECK(g.match("out", true) == V::Ignore);
  CHECK(g.match("a/out", true) == V::Ignore);
  CHECK(g.match("out", false) == V::None);
}

TEST_CASE("gitignore: the last matching rule wins and ! re-includes") {
  GitignoreFile g("/repo", "*.py\n!keep.py\n");
  CHECK(g.match("drop.py", false) == V::Ignore);
  CHECK(g.match("keep.py", false) == V::Include);
  GitignoreFile h("/repo", "!keep.py\n*.py\n");
  CHECK(h.match("keep.py", false) == V::Ignore);
}

TEST_CASE("gitignore: escapes, CRLF and trailing spaces") {
  GitignoreFile g("/repo", "\\#hash.py\r\nspace.py   \n\\!bang.py\n");
  CHECK(g.match("#hash.py", false) == V::Ignore);
  CHECK(g.match("space.py", false) == V::Ignore);
  CHECK(g.match("!bang.py", false) == V::Ignore);
}

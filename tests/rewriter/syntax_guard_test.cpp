#include "tests/support/catch.h"

#include "rewriter/syntax_guard.h"

using namespace fxlint;

TEST_CASE("syntax facts count errors and collect comments", "[guard]") {
  SyntaxFacts ok = syntax_facts("def f(x):  # head\n    return x  # tail \n");
  CHECK(ok.error_count == 0);
  REQUIRE(ok.comments.size() == 2);
  CHECK(ok.comments[0].text == "# head");
  CHECK(ok.comments[1].text == "# tail");
  CHECK(syntax_facts("def f(:\n").error_count > 0);
  CHECK(syntax_facts("x = (1,\n").error_count > 0);
}

TEST_CASE("lost comments are counted by text, exempt ranges aside", "[guard]") {
  SyntaxFacts before = syntax_facts("a = 1  # one\nb = 2  # two\nc = 3  # two\n");
  SyntaxFacts after = syntax_facts("# one\na = 1\nb = 2  # two\n");
  CHECK(lost_comments(before, after, {}) == std::vector<std::string>{"# two"});
  TextRange about_third[] = {{before.comments[2].range.start + 2, before.comments[2].range.end}};
  CHECK(lost_comments(before, after, about_third).empty());
  // A range around the statement is not about its comment.
  TextRange statement[] = {{0, before.comments[2].range.end}};
  CHECK(lost_comments(before, after, statement).size() == 1);
}

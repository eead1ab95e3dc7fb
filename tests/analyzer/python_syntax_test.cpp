#include "tests/support/catch.h"

#include <string>

#include "analyzer/python_syntax.h"
#include "analyzer/syntax_tree.h"

using fxlint::first_syntax_problem;
using fxlint::python3_violations;
using fxlint::SyntaxTree;

namespace {

std::string problem(const std::string& text) {
  SyntaxTree tree = SyntaxTree::parse(text);
  auto p = first_syntax_problem(tree);
  return p ? p->message : "";
}

std::string nested_ifs(int n) {
  std::string s = "def f(x):\n";
  for (int i = 0; i < n; ++i) s += std::string(4 * (i + 1), ' ') + "if x:\n";
  return s + std::string(4 * (n + 1), ' ') + "pass\n";
}

}  // namespace

TEST_CASE("Python 2 forms the grammar accepts are syntax errors, as CPython says") {
  CHECK(problem("print 'x'\n").find("missing parentheses in call to 'print'") != std::string::npos);
  CHECK(problem("exec 'x = 1'\n").find("missing parentheses in call to 'exec'") != std::string::npos);
  CHECK(problem("y = `1`\n").find("backquotes") != std::string::npos);
  CHECK(problem("z = 0777\n").find("leading zeros in decimal integer literals") != std::string::npos);
  CHECK(problem("z = 10L\n").find("invalid decimal literal") != std::string::npos);
  CHECK(problem("u = ur'x'\n") == "syntax error: invalid string prefix `ur`");
  CHECK(problem("if 1 <> 2:\n    pass\n").find("`<>` is Python 2") != std::string::npos);
  CHECK(problem("raise E, 'm'\n").find("`raise E, V` is Python 2") != std::string::npos);
}

TEST_CASE("valid Python 3 that looks like Python 2 is not an error") {
  for (const char* ok : {"print >> f, x\n", "print(x)\n", "print\n", "exec(code)\n", "z = 0777j\n", "z = 00\n",
                         "z = 0_0\n", "z = 0.5e-400\n", "x = rb'a' + Rb'b' + BR'c' + f'{x!r}' + U'u'\n",
                         "raise E('m') from None\n", "raise\n", "x = (a, b) if a < b != c else 0\n"}) {
    INFO(ok);
    CHECK(problem(ok).empty());
  }
}

TEST_CASE("null bytes are reported where they are, escaped in messages") {
  SyntaxTree tree = SyntaxTree::parse(std::string("x = 1\ny = 2\0 +\n", 14));
  auto p = first_syntax_problem(tree);
  REQUIRE(p);
  CHECK(p->message == "syntax error: source code cannot contain null bytes");
  CHECK(p->range.start == 11);
  SyntaxTree bad = SyntaxTree::parse("x = (1\n\x01\x1b +\n");
  auto q = first_syntax_problem(bad);
  REQUIRE(q);
  CHECK(q->message.find('\x1b') == std::string::npos);
  CHECK(q->message.find('\n') == std::string::npos);
}

TEST_CASE("indentation depth: CPython's limit, then the parser's, each at its line") {
  CHECK(problem(nested_ifs(62)).empty());
  SyntaxTree parser_limit = SyntaxTree::parse(nested_ifs(63));
  auto p = first_syntax_problem(parser_limit);
  REQUIRE(p);
  CHECK(p->message.find("nested too deep to analyze") != std::string::npos);
  SyntaxTree cpython_limit = SyntaxTree::parse(nested_ifs(300));
  auto q = first_syntax_problem(cpython_limit);
  REQUIRE(q);
  CHECK(q->message == "indentation error: too many levels of indentation");
  // Line 101 holds the 100th level, where CPython stops.
  std::string text = nested_ifs(300);
  size_t line = 1;
  for (uint32_t i = 0; i < q->range.start; ++i) line += text[i] == '\n';
  CHECK(line == 101);
}

TEST_CASE("a text whose lines end with a lone CR parses like one with LF") {
  SyntaxTree cr = SyntaxTree::parse("import torch\r@torch.compile\rdef f(x):\r    return x.item()\r");
  CHECK_FALSE(cr.has_error());
  CHECK(problem("import torch\r@torch.compile\rdef f(x):\r    return x.item()\r").empty());
  CHECK(cr.text().find('\n') == std::string::npos);  // the text itself is kept
}

TEST_CASE("violations are counted, for the rewriter's guard") {
  SyntaxTree tree = SyntaxTree::parse("print 'a'\nz = 0777\nok = 1\n");
  CHECK(python3_violations(tree).size() == 2);
}

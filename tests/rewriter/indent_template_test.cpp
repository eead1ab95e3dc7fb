#include "tests/support/catch.h"

#include "rewriter/indent_template.h"

using namespace fxlint;

TEST_CASE("the indent style is read from block bodies", "[indent]") {
  CHECK(detect_indent_style("def f(x):\n    return x\n") == IndentStyle{false, 4});
  CHECK(detect_indent_style("def f(x):\n  if x:\n    return x\n") == IndentStyle{false, 2});
  CHECK(detect_indent_style("def f(x):\n\tif x:\n\t\treturn x\n").tabs);
  // Continuation lines aligned with a bracket do not count.
  CHECK(detect_indent_style("y = f(a,\n      b)\ndef g():\n    pass\n") == IndentStyle{false, 4});
  CHECK(detect_indent_style("x = 1\n") == IndentStyle{false, 4});
}

TEST_CASE("indent_at gives the indentation of the line holding an offset", "[indent]") {
  std::string text = "def f():\n\t\ty = 1\n";
  CHECK(indent_at(text, static_cast<uint32_t>(text.find('y'))) == "\t\t");
  CHECK(indent_at(text, 0).empty());
}

TEST_CASE("rebase_indent keeps relative layout and comments", "[indent]") {
  std::string block = "if c:\n        y = a  # keep\n\n        z = b\n";
  CHECK(*rebase_indent(block, "    ", "\t") == "if c:\n\t    y = a  # keep\n\n\t    z = b\n");
  CHECK(*rebase_indent("f(a,\n  b)", "    ", "        ") == "f(a,\n  b)");
  CHECK_FALSE(rebase_indent("s = '''\n    text\n'''\n", "    ", "  ").has_value());
  // Same base: nothing to move, multi-line strings included.
  CHECK(*rebase_indent("s = '''\n    t\n'''", "  ", "  ") == "s = '''\n    t\n'''");
}

TEST_CASE("render_template places a snippet in the file's style", "[indent]") {
  std::map<std::string, Capture> caps = {
      {"GUARD", {"torch.compiler.is_compiling", ""}},
      {"STMT", {"assert (x > 0).all(), (\n        \"negative\")  # why", "    "}},
  };
  std::string pattern = "if not $GUARD():\n    $STMT\n";
  SECTION("spaces") {
    auto out = render_template(pattern, caps, "    ", {false, 4});
    REQUIRE(out);
    CHECK(*out ==
          "if not torch.compiler.is_compiling():\n"
          "        assert (x > 0).all(), (\n"
          "            \"negative\")  # why\n");
  }
  SECTION("tabs") {
    caps["STMT"] = {"assert x.all(), (\n\t\t\"m\")", "\t"};
    auto out = render_template(pattern, caps, "\t", {true, 4});
    REQUIRE(out);
    CHECK(*out == "if not torch.compiler.is_compiling():\n\t\tassert x.all(), (\n\t\t\t\"m\")\n");
  }
  SECTION("a missing capture fails instead of leaving a hole") {
    CHECK_FALSE(render_template("y = $NOPE\n", caps, "", {}).has_value());
  }
}

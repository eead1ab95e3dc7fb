// A guard fix indents by the step its own block uses, whatever the rest of the
// file does: the language server reuses a statement's findings across edits
// elsewhere, so the fix must not depend on them.
#include "tests/support/catch.h"

#include <string>

#include "analyzer/node_kind.h"
#include "analyzer/syntax_tree.h"
#include "rules/fix_support.h"

using namespace fxlint;

namespace {

// The indentation unit at the first statement that starts with `marker`.
std::string unit_at(const std::string& text, const std::string& marker) {
  SyntaxTree tree = SyntaxTree::parse(text);
  Node found;
  for_each_descendant(tree.root(), [&](Node n) {
    if (!found && n.is(NodeKind::ExpressionStatement) && n.text(tree.text()).starts_with(marker)) found = n;
    return !found;
  });
  REQUIRE(found);
  auto indent = fixes::indentation_at(tree.text(), found.start());
  REQUIRE(indent);
  return fixes::indent_unit(found, tree.text(), *indent);
}

}  // namespace

TEST_CASE("a guard's indentation unit is its block's step, not the file's first indented line") {
  // The file's first indented line uses two spaces; the function uses four.
  const std::string text = "if FLAG:\n  pass\n\n\ndef f(x):\n    print(x)\n    return x\n";
  CHECK(unit_at(text, "print") == "    ");
  // Nested blocks: the step from the enclosing header.
  const std::string nested = "def g(x):\n   if x:\n         print(x)\n";
  CHECK(unit_at(nested, "print") == "      ");
  CHECK(unit_at("def h(x):\n\tprint(x)\n", "print") == "\t");
}

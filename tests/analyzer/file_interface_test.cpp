// The interface fingerprint changes exactly when what other files can see of
// a file changes: an edit of a body that does not make or unmake an
// escape-hatch predicate keeps it, so the language server re-analyses that
// function only.
#include "tests/support/catch.h"

#include <string>

#include "analyzer/file_interface.h"
#include "analyzer/syntax_tree.h"

using namespace fxlint;

namespace {

uint64_t fingerprint(const std::string& text) {
  SyntaxTree tree = SyntaxTree::parse(text);
  return interface_fingerprint(index_file(tree, "m", false, {}));
}

const char* kSmall =
    "import torch\n"
    "def is_tracing():\n"
    "    flag = torch.compiler.is_compiling()\n"
    "    other = 1\n"
    "    print(other)\n"
    "    return flag\n";

std::string with(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

}  // namespace

TEST_CASE("a small function's statements that its predicate does not read leave the interface") {
  uint64_t base = fingerprint(kSmall);
  CHECK(fingerprint(with(kSmall, "print(other)", "print( other )")) == base);
  CHECK(fingerprint(with(kSmall, "print(other)", "print(other, other)")) == base);
  CHECK(fingerprint(with(kSmall, "other = 1", "other = 2")) == base);
}

TEST_CASE("what a small function's predicate reads changes the interface") {
  uint64_t base = fingerprint(kSmall);
  // the returned local's assignment, the return itself, a `|=` of the returned local
  CHECK(fingerprint(with(kSmall, "torch.compiler.is_compiling()", "torch.jit.is_tracing()")) != base);
  CHECK(fingerprint(with(kSmall, "return flag", "return other")) != base);
  CHECK(fingerprint(with(kSmall, "    return flag", "    flag |= other\n    return flag")) != base);
  // a local followed through `or`
  std::string through_or = with(kSmall, "return flag", "return flag or other");
  CHECK(fingerprint(with(through_or, "other = 1", "other = 2")) != fingerprint(through_or));
}

TEST_CASE("a body that grows past what a predicate may be changes the interface") {
  // Past 12 statements a function is not a wrapper: it stops being a predicate.
  std::string grown = kSmall;
  for (int i = 0; i < 12; ++i) grown = with(grown, "    return flag", "    other = other + 1\n    return flag");
  CHECK(fingerprint(grown) != fingerprint(kSmall));
}

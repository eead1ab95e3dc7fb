// An incremental reparse must give the same node table as parsing the new
// text from scratch, whatever the edit (for text that parses): tree-sitter reuses subtrees only as
// far as the edit it is told about allows, so a wrong edit shows here.
#include "tests/support/catch.h"

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "analyzer/syntax_tree.h"

namespace fs = std::filesystem;
using namespace fxlint;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// "" when both tables hold the same nodes in the same places.
std::string difference(const SyntaxTree& a, const SyntaxTree& b) {
  std::vector<Node> na, nb;
  auto collect = [](const SyntaxTree& t, std::vector<Node>& out) {
    for_each_descendant(t.root(), [&](Node n) {
      out.push_back(n);
      return true;
    });
  };
  collect(a, na);
  collect(b, nb);
  if (na.size() != nb.size()) return "node counts " + std::to_string(na.size()) + " and " + std::to_string(nb.size());
  for (size_t i = 0; i < na.size(); ++i) {
    const Node x = na[i], y = nb[i];
    bool same = x.kind() == y.kind() && std::string(x.type()) == y.type() && x.start() == y.start() &&
                x.end() == y.end() && x.child_count() == y.child_count() && x.field_id() == y.field_id() &&
                x.is_named() == y.is_named() && x.is_missing() == y.is_missing() && x.is_error() == y.is_error() &&
                x.has_error() == y.has_error();
    if (!same) return "node " + std::to_string(i) + " (" + x.type() + " at byte " + std::to_string(x.start()) + ")";
  }
  return "";
}

// A random edit: insert, delete or replace a short span with Python-ish text.
std::string edited(const std::string& text, std::mt19937& rng) {
  static const char* pieces[] = {" ", "x", "\n", "(", ")", ":", "    ", "if x:\n    ", "def f(a):\n", "#", "\"",
                                 "é", "x.item()", "\r\n", "]", "lambda: 0", "\t"};
  std::uniform_int_distribution<size_t> at(0, text.size());
  size_t start = at(rng);
  size_t length = std::min<size_t>(text.size() - start, std::uniform_int_distribution<size_t>(0, 12)(rng));
  std::string insert;
  for (int k = std::uniform_int_distribution<int>(0, 2)(rng); k > 0; --k) {
    insert += pieces[std::uniform_int_distribution<size_t>(0, std::size(pieces) - 1)(rng)];
  }
  std::string out = text;
  out.replace(start, length, insert);
  return out;
}

}  // namespace

TEST_CASE("reparse after chains of random edits equals a fresh parse") {
  fs::path dir = fs::path(FXLINT_SOURCE_DIR) / "tests" / "fixtures" / "rules";
  std::mt19937 rng(20261130);
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".py") continue;
    ++files;
    std::string text = read(entry.path());
    SyntaxTree tree = SyntaxTree::parse(text, SyntaxTree::Keep::ParserTree);
    for (int step = 0; step < 40; ++step) {
      text = edited(text, rng);
      SyntaxTree next = tree.reparse(text);
      SyntaxTree fresh = SyntaxTree::parse(text);
      INFO(entry.path().filename().string() << " after edit " << step);
      // Error recovery may group the broken part differently (about one
      // edit in a thousand); a text that parses gives the same tree.
      REQUIRE(next.has_error() == fresh.has_error());
      if (!fresh.has_error()) REQUIRE(difference(next, fresh) == "");
      REQUIRE(next.text() == text);
      tree = std::move(next);
    }
  }
  CHECK(files > 20);
}

TEST_CASE("reparse handles the edge edits") {
  SyntaxTree tree = SyntaxTree::parse("def f(x):\n    return x.item()\n", SyntaxTree::Keep::ParserTree);
  for (std::string text : {std::string("def f(x):\n    return x.item()\n"),  // unchanged
                           std::string(""),                                      // everything deleted
                           std::string("y = 1\n"),                               // everything replaced
                           std::string("y = 1\ndef g(:\n"),                      // a syntax error appended
                           std::string("y = 1\r\nz = 2\r"),                      // line endings CPython reads
                           std::string("y = 1\nz = 2\n")}) {
    SyntaxTree next = tree.reparse(text);
    INFO(text);
    CHECK(difference(next, SyntaxTree::parse(text)) == "");
    tree = std::move(next);
  }
}

TEST_CASE("a tree parsed without keeping the parser tree reparses in full") {
  SyntaxTree tree = SyntaxTree::parse("x = 1\n");
  SyntaxTree next = tree.reparse("x = (\n");
  CHECK(next.has_error());
  CHECK(difference(next, SyntaxTree::parse("x = (\n")) == "");
}

TEST_CASE("an edit inside one statement copies the others from the previous table") {
  std::string text;
  for (int i = 0; i < 50; ++i) text += "def f" + std::to_string(i) + "(x):\n    return x.item() + " + std::to_string(i) + "\n\n";
  SyntaxTree tree = SyntaxTree::parse(text, SyntaxTree::Keep::ParserTree);
  std::string edited = text;
  edited.insert(edited.find("+ 25") + 1, " 1 +");  // inside f25
  SyntaxTree next = tree.reparse(edited);
  CHECK(next.copied_statements() == 49);
  CHECK(difference(next, SyntaxTree::parse(edited)) == "");
  // And again from the copy: the blocks it holds are valid for the next edit.
  edited.insert(edited.find("+ 3\n") + 1, " 2 +");
  SyntaxTree third = next.reparse(edited);
  CHECK(third.copied_statements() == 49);
  CHECK(difference(third, SyntaxTree::parse(edited)) == "");
}

TEST_CASE("a cancelled parse throws; the tree it started from still reparses like a fresh parse") {
  // Large enough that tree-sitter looks at the flag (every 100 parse actions)
  // long before the end: a set flag stops the parse mid-way.
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "def f" + std::to_string(i) + "(x):\n    return x.item() + " + std::to_string(i) + "\n\n";
  SyntaxTree tree = SyntaxTree::parse(text, SyntaxTree::Keep::ParserTree);
  std::string edited = text;
  edited.insert(edited.find("+ 1000\n") + 1, " 1 +");
  CancelFlag cancel;
  cancel.set();
  CHECK_THROWS_AS(tree.reparse(edited, &cancel), CheckCancelled);
  CHECK_THROWS_AS(SyntaxTree::parse(edited, SyntaxTree::Keep::ParserTree, &cancel), CheckCancelled);
  CHECK_THROWS_AS(tree.reparse(text, &cancel), CheckCancelled);  // nothing to parse: stopped in the flattening
  // The stopped parse is not resumed by this thread's next one, of another text.
  CHECK(difference(SyntaxTree::parse("y = 1\n"), SyntaxTree::parse("y = 1\n", SyntaxTree::Keep::ParserTree)) == "");
  // The tree is unchanged: a reparse from it still reuses what the edit left alone.
  SyntaxTree next = tree.reparse(edited);
  CHECK(next.copied_statements() == 1999);
  CHECK(difference(next, SyntaxTree::parse(edited)) == "");
  CHECK(difference(tree, SyntaxTree::parse(text)) == "");
  // A flag that is never set changes nothing.
  CancelFlag unset;
  CHECK(difference(tree.reparse(edited, &unset), next) == "");
}

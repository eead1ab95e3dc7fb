// The node table must say exactly what tree-sitter's public API says about
// every node: the flattener reads tree-sitter's internals, so this is what
// catches a difference (a grammar alias, a hidden rule, an error node, a
// tree-sitter upgrade).
#include "tests/support/catch.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analyzer/node_kind.h"
#include "analyzer/syntax_tree.h"
#include "tests/support/fixture_file.h"

namespace fs = std::filesystem;
using namespace fxlint;
using fxlint::test::read_file;

namespace {

// Walks tree-sitter's cursor and the table in pre-order side by side; returns
// "" when they agree, else where they first differ.
std::string compare_with_cursor(const std::string& text) {
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_python());
  TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size()));
  SyntaxTree table = SyntaxTree::parse(text);

  std::vector<Node> order;
  for_each_descendant(table.root(), [&](Node n) {
    order.push_back(n);
    return true;
  });
  std::string problem;
  TSTreeCursor cursor = ts_tree_cursor_new(ts_tree_root_node(tree));
  size_t i = 0;
  std::vector<Node> ancestors;  // table nodes the cursor is below
  size_t max_depth = 1;
  for (bool more = true; more && problem.empty(); ++i) {
    TSNode ts = ts_tree_cursor_current_node(&cursor);
    if (i >= order.size()) {
      problem = "table has fewer nodes";
      break;
    }
    Node n = order[i];
    bool same = n.start() == ts_node_start_byte(ts) && n.end() == ts_node_end_byte(ts) &&
                std::string(n.type()) == ts_node_type(ts) && n.kind() == node_kind(ts) &&
                n.is_named() == ts_node_is_named(ts) && n.is_missing() == ts_node_is_missing(ts) &&
                n.has_error() == ts_node_has_error(ts) && n.is_error() == ts_node_is_error(ts) &&
                n.child_count() == ts_node_child_count(ts) &&
                n.field_id() == ts_tree_cursor_current_field_id(&cursor) &&
                n.parent() == (ancestors.empty() ? Node() : ancestors.back());
    if (!same) {
      problem = "node " + std::to_string(i) + " (" + ts_node_type(ts) + " at byte " +
                std::to_string(ts_node_start_byte(ts)) + ") differs";
      break;
    }
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      ancestors.push_back(n);
      max_depth = std::max(max_depth, ancestors.size() + 1);
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        more = false;
        break;
      }
      ancestors.pop_back();
    }
  }
  if (problem.empty() && i != order.size()) problem = "table has more nodes";
  if (problem.empty() && max_depth != table.depth()) {
    problem = "depth " + std::to_string(table.depth()) + ", tree-sitter says " + std::to_string(max_depth);
  }
  ts_tree_cursor_delete(&cursor);
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  return problem;
}

std::vector<fs::path> python_files(const fs::path& root) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".py") out.push_back(e.path());
  }
  return out;
}

}  // namespace

TEST_CASE("node table agrees with tree-sitter on snippets with errors, aliases and extras") {
  const char* snippets[] = {
      "",
      "x = 1\n",
      "def f(:\n  x = (1,\n",
      "if x\n  print 1\nclass\n",
      "\xff\xfe x = 1\n",
      "print 'py2'\nexec 'x'\n",
      "match p:\n    case [a, *rest] if a: pass\n    case {'k': v, **kw}: pass\n    case Point(x=0) as q: pass\n",
      "x = (  # comment\n  1 +  # another\n  2)\n",
      "async def g():\n    async with a as b, c:\n        await d\n    return [i async for i in e]\n",
      "f'{a!r:>{width}} {b=}' \"s\" 'c'\n",
      "lambda *a, **k: (yield)\n",
      "x[1:2, ::3, ...] = -y ** ~z\n",
      "try:\n    pass\nexcept* (A, B) as e:\n    raise X from e\nfinally:\n    del a, b\n",
      "type X = list[int]\n",
      "def f[T](x: T) -> T: ...\n",
      "print(a, b, sep='')\n)",
      "@decorator\nclass C(Base, metaclass=M):\n  x: int = 0\n  def __init__(self): self.a = global_b\n",
  };
  for (const char* s : snippets) {
    INFO(s);
    CHECK(compare_with_cursor(s) == "");
  }
}

TEST_CASE("node table agrees with tree-sitter on the fixtures and examples") {
  for (const char* dir : {"tests/fixtures", "examples"}) {
    for (const fs::path& p : python_files(fs::path(FXLINT_SOURCE_DIR) / dir)) {
      INFO(p.string());
      CHECK(compare_with_cursor(read_file(p)) == "");
    }
  }
}

// Run by ctest with FXLINT_CORPUS set to the installed torch sources.
TEST_CASE("node table agrees with tree-sitter on a corpus", "[.corpus]") {
  const char* corpus = std::getenv("FXLINT_CORPUS");
  REQUIRE(corpus != nullptr);
  std::vector<fs::path> files = python_files(corpus);
  REQUIRE(files.size() > 100);
  for (const fs::path& p : files) {
    std::string problem = compare_with_cursor(read_file(p));
    if (!problem.empty()) FAIL(p.string() + ": " + problem);
  }
}

#pragma once
// A thin RAII layer over tree-sitter: a parsed Python text that owns its tree,
// and a value-type Node with the accessors the analyzer needs. The tree keeps
// the text it was parsed from (nodes refer to it by byte offsets).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "analyzer/node_kind.h"
#include "core/text_range.h"

namespace fxlint {

class Node {
 public:
  Node() : node_{} {}
  explicit Node(TSNode n) : node_(n) {}

  bool valid() const { return !ts_node_is_null(node_); }
  explicit operator bool() const { return valid(); }
  NodeKind kind() const { return valid() ? node_kind(node_) : NodeKind::Other; }
  bool is(NodeKind k) const { return kind() == k; }
  const char* type() const { return ts_node_type(node_); }

  TextRange range() const { return {ts_node_start_byte(node_), ts_node_end_byte(node_)}; }
  uint32_t start() const { return ts_node_start_byte(node_); }
  uint32_t end() const { return ts_node_end_byte(node_); }
  std::string_view text(std::string_view source) const {
    return source.substr(start(), end() - start());
  }

  Node field(const char* name) const;
  Node parent() const { return Node(ts_node_parent(node_)); }
  uint32_t child_count() const { return ts_node_child_count(node_); }
  Node child(uint32_t i) const { return Node(ts_node_child(node_, i)); }
  uint32_t named_child_count() const { return ts_node_named_child_count(node_); }
  Node named_child(uint32_t i) const { return Node(ts_node_named_child(node_, i)); }
  // Named children that are not comments.
  std::vector<Node> children() const;
  bool is_named() const { return ts_node_is_named(node_); }
  bool is_missing() const { return ts_node_is_missing(node_); }
  bool has_error() const { return ts_node_has_error(node_); }
  // Skips parentheses: `((x))` -> `x`.
  Node unparenthesized() const;

  TSNode raw() const { return node_; }
  friend bool operator==(const Node& a, const Node& b) { return ts_node_eq(a.node_, b.node_); }

 private:
  TSNode node_;
};

// Cursors reused per thread and nesting depth: child iteration happens at every
// node, and a fresh cursor would allocate its stack each time.
class PooledCursor {
 public:
  explicit PooledCursor(TSNode node);
  ~PooledCursor();
  PooledCursor(const PooledCursor&) = delete;
  PooledCursor& operator=(const PooledCursor&) = delete;
  TSTreeCursor* get() const { return cursor_; }

 private:
  TSTreeCursor* cursor_;
};

// Calls fn(Node) for every child, named or not, in order. Linear in the child
// count (indexed access is quadratic on wide nodes such as a long module).
template <typename Fn>
void for_each_child(Node node, Fn&& fn) {
  PooledCursor pooled(node.raw());
  TSTreeCursor* cursor = pooled.get();
  if (ts_tree_cursor_goto_first_child(cursor)) {
    do {
      fn(Node(ts_tree_cursor_current_node(cursor)));
    } while (ts_tree_cursor_goto_next_sibling(cursor));
  }
}

// Pre-order walk of `root` and its descendants, named or not. `fn(Node)`
// returns whether to descend into that node's children.
template <typename Fn>
void for_each_descendant(Node root, Fn&& fn) {
  PooledCursor pooled(root.raw());
  TSTreeCursor* cursor = pooled.get();
  for (;;) {
    bool descend = fn(Node(ts_tree_cursor_current_node(cursor)));
    if (descend && ts_tree_cursor_goto_first_child(cursor)) continue;
    for (;;) {
      if (ts_tree_cursor_goto_next_sibling(cursor)) break;
      if (!ts_tree_cursor_goto_parent(cursor)) return;
    }
  }
}

// Named, non-comment children as a range, without allocating:
// `for (Node c : NamedChildren(n))`. Single-pass.
class NamedChildren {
 public:
  explicit NamedChildren(Node parent) : parent_(parent) {}
  struct Sentinel {};
  class Iterator {
   public:
    explicit Iterator(TSNode parent) : pooled_(parent), cursor_(pooled_.get()) {
      valid_ = ts_tree_cursor_goto_first_child(cursor_);
      skip();
    }
    Iterator(const Iterator&) = delete;
    Iterator& operator=(const Iterator&) = delete;
    Node operator*() const { return Node(ts_tree_cursor_current_node(cursor_)); }
    Iterator& operator++() {
      valid_ = ts_tree_cursor_goto_next_sibling(cursor_);
      skip();
      return *this;
    }
    bool operator!=(Sentinel) const { return valid_; }

   private:
    void skip() {
      while (valid_) {
        Node n(ts_tree_cursor_current_node(cursor_));
        if (n.is_named() && !n.is(NodeKind::Comment)) return;
        valid_ = ts_tree_cursor_goto_next_sibling(cursor_);
      }
    }
    PooledCursor pooled_;
    TSTreeCursor* cursor_;
    bool valid_ = false;
  };
  Iterator begin() const { return Iterator(parent_.raw()); }
  Sentinel end() const { return {}; }

 private:
  Node parent_;
};

// A parsed file. Owns the tree and a copy of the text. Move-only.
class SyntaxTree {
 public:
  // Parses `text` (UTF-8) with the Python grammar.
  static SyntaxTree parse(std::string text);

  SyntaxTree(SyntaxTree&&) noexcept = default;
  SyntaxTree& operator=(SyntaxTree&&) noexcept = default;

  Node root() const { return Node(ts_tree_root_node(tree_.get())); }
  const std::string& text() const { return text_; }
  bool has_error() const { return root().has_error(); }

  // The first ERROR or MISSING node in document order (invalid Node when none).
  Node first_error() const;
  // Number of ERROR and MISSING nodes; the rewriter compares it before and after.
  size_t error_count() const;

  // Incremental update for editors: apply an edit to the text and reparse,
  // reusing the old tree. Returns the ranges whose syntax changed.
  std::vector<TextRange> edit(TextRange replaced, std::string_view replacement);

 private:
  struct TreeDeleter {
    void operator()(TSTree* t) const;  // also invalidates the field memo
  };
  SyntaxTree(std::string text, TSTree* tree) : text_(std::move(text)), tree_(tree) {}

  std::string text_;
  std::unique_ptr<TSTree, TreeDeleter> tree_;
};

}  // namespace fxlint

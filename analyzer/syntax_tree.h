#pragma once
// A thin RAII layer over tree-sitter: a parsed Python text, flattened into a
// NodeTable, and a value-type Node with the accessors the analyzer needs. The
// tree keeps the text it was parsed from (nodes refer to it by byte offsets).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "analyzer/node_kind.h"
#include "analyzer/node_table.h"
#include "core/cancel.h"
#include "core/text_range.h"

namespace fxlint {

// A node of a SyntaxTree: a position in its NodeTable. Valid while the tree
// lives and is not edited.
class Node {
 public:
  Node() = default;
  Node(const NodeRecord* base, uint32_t index) : base_(base), index_(index) {}

  bool valid() const { return base_ != nullptr; }
  explicit operator bool() const { return valid(); }
  NodeKind kind() const { return valid() ? static_cast<NodeKind>(rec().kind) : NodeKind::Other; }
  bool is(NodeKind k) const { return kind() == k; }
  const char* type() const { return ts_language_symbol_name(tree_sitter_python(), rec().symbol); }

  TextRange range() const { return {rec().start, rec().end}; }
  uint32_t start() const { return rec().start; }
  uint32_t end() const { return rec().end; }
  std::string_view text(std::string_view source) const {
    return source.substr(start(), end() - start());
  }

  // The first child in the field `name` (a grammar field name).
  Node field(const char* name) const;
  // This node's field in its parent (a grammar field id, 0 when none).
  TSFieldId field_id() const { return rec().field; }
  Node parent() const { return at(rec().parent); }
  uint32_t child_count() const { return rec().child_count; }
  Node child(uint32_t i) const { return i < rec().child_count ? at(rec().first_child + i) : Node(); }
  uint32_t named_child_count() const;
  Node named_child(uint32_t i) const;
  // Named children that are not comments.
  std::vector<Node> children() const;
  bool is_named() const { return (rec().flags & FXLINT_NODE_NAMED) != 0; }
  bool is_missing() const { return (rec().flags & FXLINT_NODE_MISSING) != 0; }
  bool is_error() const { return (rec().flags & FXLINT_NODE_IS_ERROR) != 0; }
  bool has_error() const { return (rec().flags & FXLINT_NODE_HAS_ERROR) != 0; }
  // Skips parentheses: `((x))` -> `x`. Inline for the common unwrapped case.
  Node unparenthesized() const { return is(NodeKind::ParenthesizedExpression) ? unwrap_parentheses() : *this; }
  // The following sibling, named or not (invalid Node after the last).
  Node next_sibling() const {
    uint32_t parent = rec().parent;
    if (parent == FXLINT_NODE_NONE) return Node();
    const NodeRecord& p = base_[parent];
    return index_ + 1 < p.first_child + p.child_count ? at(index_ + 1) : Node();
  }

  // Identity for per-node caches; unique among the nodes alive.
  const void* id() const { return base_ + index_; }
  friend bool operator==(const Node& a, const Node& b) { return a.base_ == b.base_ && a.index_ == b.index_; }

 private:
  Node unwrap_parentheses() const;
  const NodeRecord& rec() const { return base_[index_]; }
  Node at(uint32_t i) const { return i == FXLINT_NODE_NONE ? Node() : Node(base_, i); }

  const NodeRecord* base_ = nullptr;
  uint32_t index_ = 0;
};

// Calls fn(Node) for every child, named or not, in order.
template <typename Fn>
void for_each_child(Node node, Fn&& fn) {
  for (uint32_t i = 0, n = node.child_count(); i < n; ++i) fn(node.child(i));
}

// Pre-order walk of `root` and its descendants, named or not. `fn(Node)`
// returns whether to descend into that node's children.
template <typename Fn>
void for_each_descendant(Node root, Fn&& fn) {
  Node cur = root;
  for (;;) {
    if (fn(cur) && cur.child_count() > 0) {
      cur = cur.child(0);
      continue;
    }
    for (;;) {
      if (cur == root) return;
      if (Node next = cur.next_sibling()) {
        cur = next;
        break;
      }
      cur = cur.parent();
    }
  }
}

// Named, non-comment children as a range, without allocating:
// `for (Node c : NamedChildren(n))`.
class NamedChildren {
 public:
  explicit NamedChildren(Node parent) : parent_(parent) {}
  struct Sentinel {};
  class Iterator {
   public:
    explicit Iterator(Node parent) : parent_(parent), count_(parent.child_count()) { skip(); }
    Node operator*() const { return parent_.child(i_); }
    Iterator& operator++() {
      ++i_;
      skip();
      return *this;
    }
    bool operator!=(Sentinel) const { return i_ < count_; }

   private:
    void skip() {
      while (i_ < count_) {
        Node n = parent_.child(i_);
        if (n.is_named() && !n.is(NodeKind::Comment)) return;
        ++i_;
      }
    }
    Node parent_;
    uint32_t count_;
    uint32_t i_ = 0;
  };
  Iterator begin() const { return Iterator(parent_); }
  Sentinel end() const { return {}; }

 private:
  Node parent_;
};

// A parsed file: its text and its node table. Tree-sitter's own tree is
// released as soon as the table is built, so a checker holding every file of
// a project holds only the compact tables; a tree kept for reparse() (a
// document being edited) keeps tree-sitter's tree as well. Move-only.
class SyntaxTree {
 public:
  enum class Keep { TableOnly, ParserTree };
  // Parses `text` (UTF-8) with the Python grammar. Once `cancel` is set the
  // parse, or the flattening after it, stops where it is (tree-sitter looks
  // every 100 parse actions) and throws CheckCancelled.
  static SyntaxTree parse(std::string text, Keep keep = Keep::TableOnly, const CancelFlag* cancel = nullptr);
  // Parses `text`, an edited version of this tree's text, reusing the
  // subtrees tree-sitter can keep: the changed span is found by comparing the
  // two texts, so any edit (or several) works. Without a kept parser tree it
  // is a full parse. The result keeps its parser tree. Cancelled, it throws
  // CheckCancelled and this tree is as it was: the next reparse starts from it.
  SyntaxTree reparse(std::string text, const CancelFlag* cancel = nullptr) const;

  SyntaxTree(SyntaxTree&&) noexcept = default;
  SyntaxTree& operator=(SyntaxTree&&) noexcept = default;

  Node root() const { return Node(table_.data(), 0); }
  const std::string& text() const { return text_; }
  bool has_error() const { return root().has_error(); }
  // Nodes on the longest path from the root to a leaf.
  uint32_t depth() const { return table_.depth(); }
  // Top-level statements a reparse copied from the previous tree's table.
  uint32_t copied_statements() const { return table_.copied_statements(); }

  // The first ERROR or MISSING node in document order (invalid Node when none).
  Node first_error() const;
  // Number of ERROR and MISSING nodes; the rewriter compares it before and after.
  size_t error_count() const;

 private:
  struct DeleteTree {
    void operator()(TSTree* t) const { ts_tree_delete(t); }
  };
  using ParserTree = std::unique_ptr<TSTree, DeleteTree>;
  // `previous`: the table of the tree `tree` was reparsed from (still alive).
  static SyntaxTree from_parser_tree(std::string text, ParserTree tree, Keep keep, const NodeTable* previous,
                                     const CancelFlag* cancel);

  SyntaxTree(std::string text, NodeTable table, ParserTree tree)
      : text_(std::move(text)), table_(std::move(table)), parser_tree_(std::move(tree)) {}

  std::string text_;
  NodeTable table_;
  ParserTree parser_tree_;  // null unless kept for reparse()
};

}  // namespace fxlint

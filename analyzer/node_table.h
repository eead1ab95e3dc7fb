#pragma once
// A parsed tree flattened into an array, built once per tree by one cursor
// walk. Tree-sitter navigation re-derives positions and parents on every call
// (its parent lookup descends from the root); the analyzer visits each node
// many times, so it navigates this table instead. Children of a node are
// stored contiguously (breadth-first layout), so child(i), the next sibling and
// the parent are index arithmetic.
#include <cstdint>
#include <vector>

#include <tree_sitter/api.h>

#include "analyzer/node_kind.h"

namespace fxlint {

struct NodeRecord {
  static constexpr uint32_t kNone = UINT32_MAX;
  enum Flag : uint8_t { Named = 1, Missing = 2, HasError = 4, IsError = 8 };

  uint32_t start;
  uint32_t end;
  uint32_t parent;       // kNone for the root
  uint32_t first_child;  // children occupy [first_child, first_child + child_count)
  uint32_t child_count;
  TSSymbol symbol;
  TSFieldId field;  // this node's field in its parent, 0 when none
  NodeKind kind;
  uint8_t flags;

  bool has(Flag f) const { return (flags & f) != 0; }
};

class NodeTable {
 public:
  // Flattens the tree below `root`, named and anonymous nodes alike.
  static NodeTable build(TSNode root);

  const NodeRecord* data() const { return nodes_.data(); }
  size_t size() const { return nodes_.size(); }

 private:
  std::vector<NodeRecord> nodes_;
};

}  // namespace fxlint

#pragma once
// A parsed tree flattened into an array, built once per parse. Tree-sitter
// navigation re-derives positions and parents on every call (its parent
// lookup descends from the root); the analyzer visits each node many times,
// so it navigates this table instead. Children of a node are stored
// contiguously, so child(i), the next sibling and the parent are index
// arithmetic.
#include <cstdint>
#include <cstdlib>
#include <memory>

#include <tree_sitter/api.h>

#include "analyzer/tree_flatten.h"
#include "core/cancel.h"

namespace fxlint {

using NodeRecord = FxlintNodeRecord;

class NodeTable {
 public:
  NodeTable() = default;
  // Flattens the whole tree, named and anonymous nodes alike. With `previous`
  // (the table of the tree `tree` was reparsed from, still alive), the
  // top-level statements tree-sitter reused are copied instead of walked.
  // Once `cancel` is set it stops and throws CheckCancelled: copying a large
  // file's table costs several times tree-sitter's own reparse.
  static NodeTable build(const TSTree* tree, const NodeTable* previous = nullptr, const CancelFlag* cancel = nullptr);

  const NodeRecord* data() const { return nodes_.get(); }
  size_t size() const { return size_; }
  // Nodes on the longest path from the root to a leaf.
  uint32_t depth() const { return depth_; }
  // Top-level statements copied from the previous table rather than walked.
  uint32_t copied_statements() const { return copied_; }

 private:
  struct Free {
    void operator()(NodeRecord* p) const { std::free(p); }
  };
  std::unique_ptr<NodeRecord[], Free> nodes_;
  uint32_t size_ = 0;
  uint32_t depth_ = 0;
  struct FreeBlocks {
    void operator()(FxlintTopBlock* p) const { std::free(p); }
  };
  std::unique_ptr<FxlintTopBlock[], FreeBlocks> blocks_;
  uint32_t block_count_ = 0;
  uint32_t copied_ = 0;
};

}  // namespace fxlint

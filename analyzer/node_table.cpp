#include "analyzer/node_table.h"

#include <new>

#include "analyzer/node_kind.h"

namespace fxlint {

NodeTable NodeTable::build(const TSTree* tree, const NodeTable* previous, const CancelFlag* cancel) {
  // NodeKind is a uint8_t enum: the table is the byte array the flattener takes.
  std::span<const NodeKind> kinds = symbol_kinds();
  FxlintFlatTree before{};
  if (previous) {
    before = {const_cast<FxlintNodeRecord*>(previous->nodes_.get()), previous->size_, previous->depth_,
              previous->blocks_.get(), previous->block_count_, 0};
  }
  FxlintFlatTree flat = fxlint_flatten(tree, reinterpret_cast<const uint8_t*>(kinds.data()),
                                       static_cast<uint32_t>(kinds.size()), static_cast<uint8_t>(NodeKind::Error),
                                       previous ? &before : nullptr, cancel ? cancel->word() : nullptr);
  if (!flat.nodes) {
    throw_if_cancelled(cancel);  // the flag never clears: a set one is why it stopped
    throw std::bad_alloc();
  }
  NodeTable table;
  table.nodes_.reset(flat.nodes);
  table.size_ = flat.size;
  table.depth_ = flat.depth;
  table.blocks_.reset(flat.blocks);
  table.block_count_ = flat.block_count;
  table.copied_ = flat.copied;
  return table;
}

}  // namespace fxlint

#include "analyzer/node_table.h"

#include <new>

#include "analyzer/node_kind.h"

namespace fxlint {

NodeTable NodeTable::build(const TSTree* tree) {
  // NodeKind is a uint8_t enum: the table is the byte array the flattener takes.
  std::span<const NodeKind> kinds = symbol_kinds();
  FxlintFlatTree flat = fxlint_flatten(tree, reinterpret_cast<const uint8_t*>(kinds.data()),
                                       static_cast<uint32_t>(kinds.size()), static_cast<uint8_t>(NodeKind::Error));
  if (!flat.nodes) throw std::bad_alloc();
  NodeTable table;
  table.nodes_.reset(flat.nodes);
  table.size_ = flat.size;
  table.depth_ = flat.depth;
  return table;
}

}  // namespace fxlint

#include "analyzer/node_table.h"

#include <new>
#include <vector>

#include "analyzer/node_kind.h"

namespace fxlint {

namespace {

// NodeKind per public grammar symbol, as the flattener takes it.
const std::vector<uint8_t>& kinds_by_symbol() {
  static const std::vector<uint8_t> kinds = [] {
    uint32_t count = ts_language_symbol_count(tree_sitter_python());
    std::vector<uint8_t> k(count);
    for (uint32_t s = 0; s < count; ++s) k[s] = static_cast<uint8_t>(symbol_kind(static_cast<TSSymbol>(s)));
    return k;
  }();
  return kinds;
}

}  // namespace

NodeTable NodeTable::build(const TSTree* tree) {
  const std::vector<uint8_t>& kinds = kinds_by_symbol();
  FxlintFlatTree flat = fxlint_flatten(tree, kinds.data(), static_cast<uint32_t>(kinds.size()),
                                       static_cast<uint8_t>(NodeKind::Error));
  if (!flat.nodes) throw std::bad_alloc();
  NodeTable table;
  table.nodes_.reset(flat.nodes);
  table.size_ = flat.size;
  table.depth_ = flat.depth;
  return table;
}

}  // namespace fxlint

#include "analyzer/node_table.h"

namespace fxlint {

namespace {

NodeRecord record_of(TSNode n, uint32_t parent, TSFieldId field) {
  TSSymbol symbol = ts_node_symbol(n);
  uint8_t flags = 0;
  if (ts_node_is_named(n)) flags |= NodeRecord::Named;
  if (ts_node_is_missing(n)) flags |= NodeRecord::Missing;
  if (ts_node_has_error(n)) flags |= NodeRecord::HasError;
  if (symbol == static_cast<TSSymbol>(-1)) flags |= NodeRecord::IsError;  // as ts_node_is_error
  return {ts_node_start_byte(n), ts_node_end_byte(n), parent, 0, 0, symbol, field, symbol_kind(symbol), flags};
}

}  // namespace

NodeTable NodeTable::build(TSNode root) {
  NodeTable table;
  std::vector<NodeRecord>& nodes = table.nodes_;
  // Breadth-first: a queue of the nodes that have children (leaves, most
  // nodes, never enter it), each with its record; a node's children are
  // appended together when the queue reaches it.
  struct Pending {
    TSNode node;
    uint32_t index;
  };
  std::vector<Pending> queue;
  // About one node per three bytes of source: reserving that avoids the
  // copies of a growing vector (unused capacity is never touched).
  uint32_t bytes = ts_node_end_byte(root);
  nodes.reserve(bytes / 2 + 16);
  queue.reserve(bytes / 8 + 16);
  nodes.push_back(record_of(root, NodeRecord::kNone, 0));
  queue.push_back({root, 0});
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (size_t q = 0; q < queue.size(); ++q) {
    const auto [node, index] = queue[q];
    ts_tree_cursor_reset(&cursor, node);
    if (!ts_tree_cursor_goto_first_child(&cursor)) continue;
    uint32_t first = static_cast<uint32_t>(nodes.size());
    do {
      TSNode child = ts_tree_cursor_current_node(&cursor);
      if (ts_node_child_count(child) > 0) queue.push_back({child, static_cast<uint32_t>(nodes.size())});
      nodes.push_back(record_of(child, index, ts_tree_cursor_current_field_id(&cursor)));
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
    nodes[index].first_child = first;
    nodes[index].child_count = static_cast<uint32_t>(nodes.size()) - first;
  }
  ts_tree_cursor_delete(&cursor);
  return table;
}

}  // namespace fxlint

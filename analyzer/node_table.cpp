#include "analyzer/node_table.h"

namespace fxlint {

namespace {

NodeRecord record_of(TSNode n, uint32_t parent, TSFieldId field) {
  uint8_t flags = 0;
  if (ts_node_is_named(n)) flags |= NodeRecord::Named;
  if (ts_node_is_missing(n)) flags |= NodeRecord::Missing;
  if (ts_node_has_error(n)) flags |= NodeRecord::HasError;
  if (ts_node_is_error(n)) flags |= NodeRecord::IsError;
  return {ts_node_start_byte(n), ts_node_end_byte(n), parent, 0, 0,
          ts_node_symbol(n),     field,                node_kind(n), flags};
}

}  // namespace

NodeTable NodeTable::build(TSNode root) {
  NodeTable table;
  std::vector<NodeRecord>& nodes = table.nodes_;
  // Tree-sitter handles of the records, only while building: each node's
  // children are appended together when the queue reaches it.
  std::vector<TSNode> handles;
  nodes.reserve(1024);
  handles.reserve(1024);
  nodes.push_back(record_of(root, NodeRecord::kNone, 0));
  handles.push_back(root);
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    if (ts_node_child_count(handles[i]) == 0) continue;  // leaves: most nodes
    ts_tree_cursor_reset(&cursor, handles[i]);
    if (!ts_tree_cursor_goto_first_child(&cursor)) continue;
    uint32_t first = static_cast<uint32_t>(nodes.size());
    do {
      TSNode child = ts_tree_cursor_current_node(&cursor);
      nodes.push_back(record_of(child, i, ts_tree_cursor_current_field_id(&cursor)));
      handles.push_back(child);
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
    nodes[i].first_child = first;
    nodes[i].child_count = static_cast<uint32_t>(nodes.size()) - first;
  }
  ts_tree_cursor_delete(&cursor);
  return table;
}

}  // namespace fxlint

#include "analyzer/syntax_tree.h"

#include <array>
#include <atomic>
#include <cstring>
#include <unordered_map>

namespace fxlint {

namespace {

// One parser per thread: parsers are not thread-safe but are reusable.
TSParser* thread_parser() {
  struct Holder {
    TSParser* parser;
    Holder() : parser(ts_parser_new()) { ts_parser_set_language(parser, tree_sitter_python()); }
    ~Holder() { ts_parser_delete(parser); }
  };
  thread_local Holder holder;
  return holder.parser;
}

TSPoint point_after(TSPoint start, std::string_view text) {
  TSPoint p = start;
  for (char c : text) {
    if (c == '\n') {
      ++p.row;
      p.column = 0;
    } else {
      ++p.column;
    }
  }
  return p;
}

TSPoint point_at(std::string_view text, uint32_t offset) {
  return point_after({0, 0}, text.substr(0, offset));
}

// Bumped whenever a tree is freed or edited: memo entries of older
// generations may name addresses a new tree reuses.
std::atomic<uint64_t> tree_generation{1};

// Tree-sitter finds a field child by scanning the node's children, and the
// walker and the checks ask the same node for the same field several times (a
// call's "function" is read by the walker, split_call and most checks). A small
// direct-mapped memo per thread answers the repeats.
class FieldMemo {
 public:
  bool find(TSNode node, TSFieldId field, uint64_t generation, TSNode& child) const {
    const Entry& e = entries_[slot(node, field)];
    if (e.generation != generation || e.id != node.id || e.tree != node.tree || e.start != node.context[0] ||
        e.field != field) {
      return false;
    }
    child = e.child;
    return true;
  }
  void store(TSNode node, TSFieldId field, uint64_t generation, TSNode child) {
    entries_[slot(node, field)] = {node.id, node.tree, generation, node.context[0], field, child};
  }

 private:
  struct Entry {
    const void* id = nullptr;
    const TSTree* tree = nullptr;
    uint64_t generation = 0;
    uint32_t start = 0;
    TSFieldId field = 0;
    TSNode child{};
  };
  static size_t slot(TSNode node, TSFieldId field) {
    uint64_t h = (reinterpret_cast<uintptr_t>(node.id) ^ field) * 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(h >> 54);  // 1024 entries
  }
  std::array<Entry, 1024> entries_{};
};

struct CursorStack {
  std::vector<TSTreeCursor*> cursors;
  size_t depth = 0;
  ~CursorStack() {
    for (TSTreeCursor* c : cursors) {
      ts_tree_cursor_delete(c);
      delete c;
    }
  }
};

CursorStack& cursor_stack() {
  thread_local CursorStack stack;
  return stack;
}

}  // namespace

PooledCursor::PooledCursor(TSNode node) {
  CursorStack& s = cursor_stack();
  if (s.depth == s.cursors.size()) {
    s.cursors.push_back(new TSTreeCursor(ts_tree_cursor_new(node)));
  } else {
    ts_tree_cursor_reset(s.cursors[s.depth], node);
  }
  cursor_ = s.cursors[s.depth++];
}

PooledCursor::~PooledCursor() { --cursor_stack().depth; }

// Field names come from string literals: cache their ids by pointer so a
// lookup is not a string search over the grammar's field table every time.
Node Node::field(const char* name) const {
  thread_local std::unordered_map<const char*, TSFieldId> ids;
  auto it = ids.find(name);
  if (it == ids.end()) {
    TSFieldId id = ts_language_field_id_for_name(tree_sitter_python(), name, static_cast<uint32_t>(std::strlen(name)));
    it = ids.emplace(name, id).first;
  }
  thread_local FieldMemo memo;
  uint64_t generation = tree_generation.load(std::memory_order_relaxed);
  TSNode child;
  if (memo.find(node_, it->second, generation, child)) return Node(child);
  child = ts_node_child_by_field_id(node_, it->second);
  memo.store(node_, it->second, generation, child);
  return Node(child);
}

void SyntaxTree::TreeDeleter::operator()(TSTree* t) const {
  tree_generation.fetch_add(1, std::memory_order_relaxed);
  ts_tree_delete(t);
}

std::vector<Node> Node::children() const {
  std::vector<Node> out;
  for_each_child(*this, [&](Node c) {
    if (c.is_named() && !c.is(NodeKind::Comment)) out.push_back(c);
  });
  return out;
}

Node Node::unparenthesized() const {
  Node n = *this;
  while (n.is(NodeKind::ParenthesizedExpression) && n.named_child_count() > 0) {
    Node inner;
    for (uint32_t i = 0; i < n.named_child_count(); ++i) {
      if (!n.named_child(i).is(NodeKind::Comment)) {
        inner = n.named_child(i);
        break;
      }
    }
    if (!inner) break;
    n = inner;
  }
  return n;
}

SyntaxTree SyntaxTree::parse(std::string text) {
  TSTree* tree = ts_parser_parse_string(thread_parser(), nullptr, text.data(),
                                        static_cast<uint32_t>(text.size()));
  return SyntaxTree(std::move(text), tree);
}

Node SyntaxTree::first_error() const {
  Node found;
  if (!root().has_error()) return found;
  for_each_descendant(root(), [&](Node n) {
    if (found) return false;
    if (ts_node_is_error(n.raw()) || n.is_missing()) {
      found = n;
      return false;
    }
    return n.has_error();  // only subtrees that hold an error
  });
  return found;
}

size_t SyntaxTree::error_count() const {
  size_t count = 0;
  if (!root().has_error()) return 0;
  for_each_descendant(root(), [&](Node n) {
    if (ts_node_is_error(n.raw()) || n.is_missing()) ++count;
    return n.has_error();
  });
  return count;
}

std::vector<TextRange> SyntaxTree::edit(TextRange replaced, std::string_view replacement) {
  TSInputEdit e;
  e.start_byte = replaced.start;
  e.old_end_byte = replaced.end;
  e.new_end_byte = replaced.start + static_cast<uint32_t>(replacement.size());
  e.start_point = point_at(text_, replaced.start);
  e.old_end_point = point_at(text_, replaced.end);
  e.new_end_point = point_after(e.start_point, replacement);
  text_.replace(replaced.start, replaced.length(), replacement);
  tree_generation.fetch_add(1, std::memory_order_relaxed);
  ts_tree_edit(tree_.get(), &e);
  TSTree* fresh = ts_parser_parse_string(thread_parser(), tree_.get(), text_.data(),
                                         static_cast<uint32_t>(text_.size()));
  uint32_t count = 0;
  TSRange* ranges = ts_tree_get_changed_ranges(tree_.get(), fresh, &count);
  std::vector<TextRange> out;
  for (uint32_t i = 0; i < count; ++i) out.push_back({ranges[i].start_byte, ranges[i].end_byte});
  free(ranges);
  tree_.reset(fresh);
  return out;
}

}  // namespace fxlint

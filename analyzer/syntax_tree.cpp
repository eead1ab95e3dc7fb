#include "analyzer/syntax_tree.h"

#include <array>
#include <cstring>

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

}  // namespace

// Field names come from string literals: cache their ids by pointer so a
// lookup is not a string search over the grammar's field table every time.
Node Node::field(const char* name) const {
  // Direct-mapped by address: a few dozen literals, asked constantly.
  struct Slot {
    const char* name = nullptr;
    TSFieldId id = 0;
  };
  thread_local std::array<Slot, 256> ids{};
  Slot& slot = ids[(reinterpret_cast<uintptr_t>(name) >> 1) & 255];
  if (slot.name != name) {
    slot = {name, ts_language_field_id_for_name(tree_sitter_python(), name, static_cast<uint32_t>(std::strlen(name)))};
  }
  TSFieldId id = slot.id;
  if (id == 0) return Node();
  for (uint32_t i = 0, n = child_count(); i < n; ++i) {
    if (base_[rec().first_child + i].field == id) return child(i);
  }
  return Node();
}

uint32_t Node::named_child_count() const {
  uint32_t count = 0;
  for_each_child(*this, [&](Node c) { count += c.is_named(); });
  return count;
}

Node Node::named_child(uint32_t i) const {
  for (uint32_t k = 0, n = child_count(); k < n; ++k) {
    Node c = child(k);
    if (c.is_named() && i-- == 0) return c;
  }
  return Node();
}

std::vector<Node> Node::children() const {
  std::vector<Node> out;
  for_each_child(*this, [&](Node c) {
    if (c.is_named() && !c.is(NodeKind::Comment)) out.push_back(c);
  });
  return out;
}

Node Node::unwrap_parentheses() const {
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

Node SyntaxTree::root() const {
  std::call_once(table_->once, [this] { table_->table = NodeTable::build(ts_tree_root_node(tree_.get())); });
  return Node(table_->table.data(), 0);
}

Node SyntaxTree::first_error() const {
  Node found;
  if (!root().has_error()) return found;
  for_each_descendant(root(), [&](Node n) {
    if (found) return false;
    if (n.is_error() || n.is_missing()) {
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
    if (n.is_error() || n.is_missing()) ++count;
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
  ts_tree_edit(tree_.get(), &e);
  TSTree* fresh = ts_parser_parse_string(thread_parser(), tree_.get(), text_.data(),
                                         static_cast<uint32_t>(text_.size()));
  uint32_t count = 0;
  TSRange* ranges = ts_tree_get_changed_ranges(tree_.get(), fresh, &count);
  std::vector<TextRange> out;
  for (uint32_t i = 0; i < count; ++i) out.push_back({ranges[i].start_byte, ranges[i].end_byte});
  free(ranges);
  tree_.reset(fresh);
  table_ = std::make_unique<LazyTable>();
  return out;
}

}  // namespace fxlint

#include "analyzer/syntax_tree.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>

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

// Parses on this thread's parser. Tree-sitter keeps a stopped parse to resume
// it on the next call, whatever text that call passes: a stopped parse is
// dropped here, with its hold on `old_tree`, which stays the caller's.
TSTree* parse_on_this_thread(const TSTree* old_tree, const std::string& text, const CancelFlag* cancel) {
  TSParser* parser = thread_parser();
  ts_parser_set_cancellation_flag(parser, cancel ? cancel->word() : nullptr);
  TSTree* tree = ts_parser_parse_string(parser, old_tree, text.data(), static_cast<uint32_t>(text.size()));
  ts_parser_set_cancellation_flag(parser, nullptr);
  if (!tree) {
    ts_parser_reset(parser);
    throw_if_cancelled(cancel);
  }
  return tree;
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

namespace {

// The grammar ends lines at `\n` only; CPython also at a lone `\r` (old Mac
// files). Such a text is parsed as a copy with each lone `\r` read as `\n`:
// same length, so every offset still points into the original.
std::string with_lone_cr_as_lf(std::string_view text) {
  std::string copy(text);
  for (size_t i = 0; i < copy.size(); ++i) {
    if (copy[i] == '\r' && (i + 1 == copy.size() || copy[i + 1] != '\n')) copy[i] = '\n';
  }
  return copy;
}

bool has_lone_cr(std::string_view text) {
  for (size_t i = text.find('\r'); i != std::string_view::npos; i = text.find('\r', i + 1)) {
    if (i + 1 == text.size() || text[i + 1] != '\n') return true;
  }
  return false;
}

}  // namespace

SyntaxTree SyntaxTree::parse(std::string text, Keep keep, const CancelFlag* cancel) {
  std::string normalized;
  if (has_lone_cr(text)) normalized = with_lone_cr_as_lf(text);
  const std::string& parsed = normalized.empty() ? text : normalized;
  ParserTree tree(parse_on_this_thread(nullptr, parsed, cancel));
  return from_parser_tree(std::move(text), std::move(tree), keep, nullptr, cancel);
}

SyntaxTree SyntaxTree::from_parser_tree(std::string text, ParserTree tree, Keep keep, const NodeTable* previous,
                                        const CancelFlag* cancel) {
  if (!tree) throw std::runtime_error("the parser gave no tree");
  NodeTable table = NodeTable::build(tree.get(), previous, cancel);
  if (keep == Keep::TableOnly) tree.reset();
  return SyntaxTree(std::move(text), std::move(table), std::move(tree));
}

namespace {

// Where `offset` is in `text`, as tree-sitter counts: row, and bytes into the row.
TSPoint point_at(std::string_view text, size_t offset) {
  std::string_view before = text.substr(0, offset);
  size_t line_start = before.rfind('\n');
  auto row = static_cast<uint32_t>(std::count(before.begin(), before.end(), '\n'));
  auto column = static_cast<uint32_t>(line_start == std::string_view::npos ? offset : offset - line_start - 1);
  return {row, column};
}

}  // namespace

SyntaxTree SyntaxTree::reparse(std::string text, const CancelFlag* cancel) const {
  // A lone CR is parsed as LF, which changes bytes outside the edit when a
  // CR-LF pair is split or joined: such texts are parsed in full.
  if (!parser_tree_ || has_lone_cr(text) || has_lone_cr(text_)) return parse(std::move(text), Keep::ParserTree, cancel);
  const std::string& old = text_;
  size_t prefix = 0, limit = std::min(old.size(), text.size());
  while (prefix < limit && old[prefix] == text[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < limit - prefix && old[old.size() - 1 - suffix] == text[text.size() - 1 - suffix]) ++suffix;
  if (prefix == old.size() && prefix == text.size()) {
    ParserTree same(ts_tree_copy(parser_tree_.get()));
    return from_parser_tree(std::move(text), std::move(same), Keep::ParserTree, &table_, cancel);
  }
  TSInputEdit edit;
  edit.start_byte = static_cast<uint32_t>(prefix);
  edit.old_end_byte = static_cast<uint32_t>(old.size() - suffix);
  edit.new_end_byte = static_cast<uint32_t>(text.size() - suffix);
  edit.start_point = point_at(old, edit.start_byte);
  edit.old_end_point = point_at(old, edit.old_end_byte);
  edit.new_end_point = point_at(text, edit.new_end_byte);
  // The edit goes to a copy: this tree stays valid, also when the parse is cancelled.
  ParserTree edited(ts_tree_copy(parser_tree_.get()));
  ts_tree_edit(edited.get(), &edit);
  ParserTree tree(parse_on_this_thread(edited.get(), text, cancel));
  // This tree is alive while the new one is flattened: its reused statements are copied.
  return from_parser_tree(std::move(text), std::move(tree), Keep::ParserTree, &table_, cancel);
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

}  // namespace fxlint

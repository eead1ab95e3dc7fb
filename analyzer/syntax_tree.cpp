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

SyntaxTree SyntaxTree::parse(std::string text) {
  std::string normalized;
  if (has_lone_cr(text)) normalized = with_lone_cr_as_lf(text);
  const std::string& parsed = normalized.empty() ? text : normalized;
  TSTree* tree = ts_parser_parse_string(thread_parser(), nullptr, parsed.data(),
                                        static_cast<uint32_t>(parsed.size()));
  NodeTable table = NodeTable::build(tree);
  ts_tree_delete(tree);
  return SyntaxTree(std::move(text), std::move(table));
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

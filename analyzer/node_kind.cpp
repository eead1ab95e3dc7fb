#include "analyzer/node_kind.h"

#include <cstring>
#include <vector>

namespace fxlint {

namespace {

struct KindName {
  NodeKind kind;
  const char* name;
};

constexpr KindName kNames[] = {
#define FXLINT_X(name, str) {NodeKind::name, str},
    FXLINT_NODE_KINDS(FXLINT_X)
#undef FXLINT_X
};

// Every grammar symbol (aliases included) mapped by name, built once.
const std::vector<NodeKind>& symbol_table() {
  static const std::vector<NodeKind> table = [] {
    const TSLanguage* lang = tree_sitter_python();
    uint32_t count = ts_language_symbol_count(lang);
    std::vector<NodeKind> t(count, NodeKind::Other);
    for (uint32_t sym = 0; sym < count; ++sym) {
      const char* name = ts_language_symbol_name(lang, static_cast<TSSymbol>(sym));
      if (!name || ts_language_symbol_type(lang, static_cast<TSSymbol>(sym)) != TSSymbolTypeRegular) {
        // Anonymous tokens ("if", "+") keep Other, except the ERROR symbol.
        if (name && std::strcmp(name, "ERROR") == 0) t[sym] = NodeKind::Error;
        continue;
      }
      for (const KindName& k : kNames) {
        if (std::strcmp(k.name, name) == 0) {
          t[sym] = k.kind;
          break;
        }
      }
    }
    return t;
  }();
  return table;
}

}  // namespace

std::span<const NodeKind> symbol_kinds() { return symbol_table(); }

NodeKind node_kind(TSNode node) { return symbol_kind(ts_node_symbol(node)); }

NodeKind symbol_kind(TSSymbol sym) {
  const auto& table = symbol_table();
  if (sym == static_cast<TSSymbol>(-1)) return NodeKind::Error;  // ts_builtin_sym_error
  return sym < table.size() ? table[sym] : NodeKind::Other;
}

}  // namespace fxlint

#include "rules/top_statements.h"

#include <functional>
#include <string_view>
#include <unordered_map>

namespace fxlint {

TopStatements top_statements(const FileModel& model) {
  TopStatements out;
  out.of_function.assign(model.functions.size(), -1);
  std::string_view src = model.source;
  for (size_t f = 0; f < model.functions.size(); ++f) {
    Node n = model.functions[f].node;
    if (!n) continue;
    for (Node up = n.parent(); up && up.parent(); up = up.parent()) n = up;
    TextRange r = n.range();
    if (!out.statements.empty() && out.statements.back().range == r && out.statements.back().end == static_cast<int>(f)) {
      out.statements.back().end = static_cast<int>(f) + 1;
    } else {
      // The index of its first function too: two statements of the same text
      // (a definition repeated) are told apart.
      uint64_t h = std::hash<std::string_view>{}(src.substr(r.start, r.length()));
      out.statements.push_back({r, h * 0x100000001b3ULL + f, static_cast<int>(f), static_cast<int>(f) + 1});
    }
    out.of_function[f] = static_cast<int>(out.statements.size()) - 1;
  }
  // A statement seen again after another one: its functions are not consecutive.
  std::unordered_map<uint32_t, size_t> first_at;  // start -> first entry
  for (size_t s = 0; s < out.statements.size(); ++s) {
    auto [it, fresh] = first_at.emplace(out.statements[s].range.start, s);
    if (fresh) continue;
    for (size_t t : {it->second, s}) {
      for (int f = out.statements[t].first; f < out.statements[t].end; ++f) out.of_function[f] = -1;
    }
  }
  return out;
}

}  // namespace fxlint

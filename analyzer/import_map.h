#pragma once
// Local names bound by imports, mapped to what they mean: `import torch as T`
// binds T -> torch; `from torch.nn import functional as F` binds F ->
// torch.nn.functional. Rules ask for meanings, never spellings.
#include <string>
#include <string_view>
#include <unordered_map>

#include "analyzer/string_map.h"
#include "analyzer/syntax_tree.h"

namespace fxlint {

class ImportMap {
 public:
  void bind(std::string local, std::string qualified) { names_[std::move(local)] = std::move(qualified); }
  const std::string* find(std::string_view local) const {
    auto it = names_.find(local);
    return it == names_.end() ? nullptr : &it->second;
  }

  // A local name bound to exactly `qualified` ("torch" -> "T" after `import torch as T`).
  const std::string* local_name_for(std::string_view qualified) const {
    for (const auto& [local, q] : names_) {
      if (q == qualified) return &local;
    }
    return nullptr;
  }

  // Whether some name is bound to `root` or to something inside it ("torch.nn").
  bool imports_from(std::string_view root) const {
    for (const auto& [local, q] : names_) {
      if (q == root || (q.size() > root.size() && q.starts_with(root) && q[root.size()] == '.')) return true;
    }
    return false;
  }

  // Qualified name of a dotted expression (`F.relu`, `torch.nn.Module`,
  // `where`), or "" when its head is not an import.
  std::string qualify(Node expr, std::string_view source) const;
  // Same for a dotted string as written ("nn.Module").
  std::string qualify(std::string_view dotted) const;
  // Every binding, local name -> qualified name (in no particular order).
  const StringMap<std::string>& bindings() const { return names_; }

 private:
  StringMap<std::string> names_;
};

// "a.b.c" for an identifier/attribute chain, "" for anything else.
std::string dotted_text(Node expr, std::string_view source);

}  // namespace fxlint

#include "analyzer/reexports.h"

#include <set>
#include <string>
#include <utility>

#include "analyzer/string_map.h"

namespace fxlint {
namespace {

bool is_public(std::string_view name) { return !name.empty() && name[0] != '_'; }

// Star imports of star imports, and re-exports of re-exports, a few levels deep.
constexpr int kMaxHops = 3;

class Reexports {
 public:
  explicit Reexports(std::span<const FileModel* const> files) : files_(files) {
    for (size_t i = 0; i < files.size(); ++i) {
      if (!files[i]->module_name.empty()) by_module_.emplace(files[i]->module_name, static_cast<int>(i));
      for (const std::string& a : files[i]->module_aliases) by_module_.emplace(a, static_cast<int>(i));
    }
  }

  // The bindings `f` gains or changes; empty when none.
  std::vector<std::pair<std::string, std::string>> changes(const FileModel& f) const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [local, qualified] : f.imports.bindings()) {
      std::string outside = outside_name(qualified);
      if (!outside.empty()) out.emplace_back(local, std::move(outside));
    }
    StringMap<bool> bound;
    for (const auto& [local, q] : f.imports.bindings()) bound.emplace(local, true);
    std::set<std::string> seen;
    for (const std::string& m : f.star_imports) star(f, m, bound, seen, 0, out);
    return out;
  }

 private:
  const FileModel* module(std::string_view name) const {
    auto it = by_module_.find(name);
    return it == by_module_.end() ? nullptr : files_[static_cast<size_t>(it->second)];
  }

  // `pkg.common.nn` where pkg.common imports torch.nn as nn: "torch.nn"; "" when the
  // name is not an import of a project module.
  std::string outside_name(const std::string& qualified) const {
    std::string q = qualified;
    for (int hop = 0; hop < kMaxHops; ++hop) {
      size_t dot = q.rfind('.');
      if (dot == std::string::npos) break;
      const FileModel* m = module(std::string_view(q).substr(0, dot));
      if (!m) break;
      const std::string* re = m->imports.find(std::string_view(q).substr(dot + 1));
      if (!re || *re == q) return "";
      q = *re;
    }
    if (q == qualified || module(std::string_view(q).substr(0, q.rfind('.'))) || module(q)) return "";
    return q;
  }

  void star(const FileModel& into, const std::string& name, StringMap<bool>& bound, std::set<std::string>& seen,
            int depth, std::vector<std::pair<std::string, std::string>>& out) const {
    const FileModel* from = module(name);
    if (!from || depth >= kMaxHops || !seen.insert(name).second) return;
    for (const auto& [local, qualified] : from->imports.bindings()) {
      if (!is_public(local) || into.globals.count(local) || bound.count(local)) continue;
      std::string meaning = module(std::string_view(qualified).substr(0, qualified.rfind('.'))) || module(qualified)
                                ? outside_name(qualified)
                                : qualified;
      if (meaning.empty()) continue;
      bound.emplace(local, true);
      out.emplace_back(local, std::move(meaning));
    }
    for (const std::string& next : from->star_imports) star(into, next, bound, seen, depth + 1, out);
  }

  std::span<const FileModel* const> files_;
  StringMap<int> by_module_;
};

}  // namespace

std::vector<ImportMap> reexported_names(std::span<const FileModel* const> files) {
  std::vector<ImportMap> out(files.size());
  Reexports reexports(files);
  for (size_t i = 0; i < files.size(); ++i) {
    for (auto& [local, qualified] : reexports.changes(*files[i])) out[i].bind(std::move(local), std::move(qualified));
  }
  return out;
}

}  // namespace fxlint

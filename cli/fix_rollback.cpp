#include "cli/fix_rollback.h"

namespace fxlint::cli {

namespace {

// The files among `files` whose fixes make a target worse by themselves; when
// neither half does on its own (fixes that harm only together), those whose
// removal alone makes the rest harmless, or all of `files` if none does.
std::vector<size_t> culprit_files(const std::vector<size_t>& files, const std::vector<std::set<std::string>>& none,
                                  const RegressionTest& regresses) {
  if (files.size() <= 1) return files;
  std::vector<size_t> a(files.begin(), files.begin() + static_cast<long>(files.size() / 2));
  std::vector<size_t> b(files.begin() + static_cast<long>(files.size() / 2), files.end());
  bool bad_a = regresses(a, none);
  bool bad_b = regresses(b, none);
  if (!bad_a && !bad_b) {
    std::vector<size_t> needed;
    for (size_t f : files) {
      std::vector<size_t> rest;
      for (size_t g : files) {
        if (g != f) rest.push_back(g);
      }
      if (!regresses(rest, none)) needed.push_back(f);
    }
    return needed.empty() ? files : needed;
  }
  std::vector<size_t> out;
  if (bad_a) out = culprit_files(a, none, regresses);
  if (bad_b) {
    std::vector<size_t> more = culprit_files(b, none, regresses);
    out.insert(out.end(), more.begin(), more.end());
  }
  return out;
}

}  // namespace

std::vector<std::set<std::string>> find_rollback(const std::vector<std::set<std::string>>& applied,
                                                 const RegressionTest& regresses) {
  std::vector<std::set<std::string>> none(applied.size());
  std::vector<size_t> fixed;
  for (size_t i = 0; i < applied.size(); ++i) {
    if (!applied[i].empty()) fixed.push_back(i);
  }
  std::vector<std::set<std::string>> blocked(applied.size());
  std::vector<size_t> culprits = culprit_files(fixed, none, regresses);
  for (size_t f : culprits) {
    // One rule whose fixes, left out, make the culprits harmless; else all of the file's.
    bool found = false;
    if (applied[f].size() > 1) {
      for (const std::string& code : applied[f]) {
        std::vector<std::set<std::string>> trial = none;
        trial[f] = {code};
        if (!regresses(culprits, trial)) {
          blocked[f] = {code};
          found = true;
          break;
        }
      }
    }
    if (!found) blocked[f] = applied[f];
  }
  return blocked;
}

}  // namespace fxlint::cli

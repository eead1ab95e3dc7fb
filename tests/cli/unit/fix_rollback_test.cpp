#include "cli/fix_rollback.h"
#include "tests/support/catch.h"

#include <algorithm>

using namespace fxlint::cli;

namespace {
using Blocked = std::vector<std::set<std::string>>;

// A fake verification: fix (file, rule) pairs in `harmful` make a target worse,
// unless left out; a pair in `together` harms only with the other file's fixes.
struct Fake {
  std::set<std::pair<size_t, std::string>> harmful;
  std::vector<std::pair<size_t, std::string>> together;  // both needed
  int runs = 0;
  bool operator()(const std::vector<size_t>& files, const Blocked& blocked) {
    ++runs;
    auto on = [&](size_t f, const std::string& code) {
      bool kept = std::find(files.begin(), files.end(), f) != files.end();
      return kept && !(f < blocked.size() && blocked[f].count(code));
    };
    for (const auto& [f, code] : harmful) {
      if (on(f, code)) return true;
    }
    if (!together.empty() && std::all_of(together.begin(), together.end(), [&](auto& p) { return on(p.first, p.second); })) {
      return true;
    }
    return false;
  }
};
}  // namespace

TEST_CASE("fix --verify rolls back only the rule that harms, in the file that has it") {
  Blocked applied = {{"FX501"}, {}, {"FX103", "FX501"}, {"FX104"}, {"FX501"}, {"FX203"}, {"FX104"}, {"FX501"}};
  Fake fake{{{2, "FX103"}}, {}};
  Blocked rollback = find_rollback(applied, [&](auto& f, auto& b) { return fake(f, b); });
  for (size_t i = 0; i < applied.size(); ++i) {
    CHECK(rollback[i] == (i == 2 ? std::set<std::string>{"FX103"} : std::set<std::string>{}));
  }
  CHECK(fake.runs <= 10);  // halving: far fewer runs than one per fix
}

TEST_CASE("fix --verify: two harmful files are both found; fixes that harm only together all go") {
  Blocked applied = {{"FX501"}, {"FX103"}, {"FX104"}, {"FX203"}};
  Fake two{{{0, "FX501"}, {3, "FX203"}}, {}};
  Blocked r = find_rollback(applied, [&](auto& f, auto& b) { return two(f, b); });
  CHECK(r == Blocked{{"FX501"}, {}, {}, {"FX203"}});

  Fake pair{{}, {{1, "FX103"}, {2, "FX104"}}};
  r = find_rollback(applied, [&](auto& f, auto& b) { return pair(f, b); });
  CHECK(r == Blocked{{}, {"FX103"}, {"FX104"}, {}});
}

// Runs every rule fixture: each line ending in `# expect: FX101[, FX201]` must
// get exactly those codes; any diagnostic on an unmarked line fails.
#include "tests/support/catch.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/line_index.h"
#include "rules/checker.h"
#include "tests/support/fixture_file.h"

namespace fs = std::filesystem;
using namespace fxlint;
using namespace fxlint::test;

TEST_CASE("rule fixtures: every marked line flagged, nothing else") {
  fs::path dir = rule_fixtures_dir();
  std::vector<fs::path> fixtures;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string name = e.path().filename().string();
    if (e.path().extension() == ".py") fixtures.push_back(e.path());  // .fixed.py too: what stays unfixed is marked
  }
  std::sort(fixtures.begin(), fixtures.end());
  REQUIRE(!fixtures.empty());
  for (const fs::path& path : fixtures) {
    DYNAMIC_SECTION(path.filename().string()) {
      std::string text = read_file(path);
      Target target = fixture_target(text);
      SourceInput input{path.string(), path.stem().string(), text, default_rules(target), target};
      input.enabled.set(static_cast<size_t>(RuleId::FX901));
      std::vector<SourceInput> inputs{input};
      auto result = check_fixtures(inputs);
      LineIndex lines(text);
      std::map<uint32_t, std::multiset<std::string>> actual;
      for (const Diagnostic& d : result[0]) actual[lines.location(d.range.start).row].insert(d.code);
      auto expected = expected_codes(text);
      std::ostringstream report;
      for (const auto& [row, codes] : expected) {
        std::set<std::string> want(codes.begin(), codes.end());
        std::set<std::string> got(actual[row].begin(), actual[row].end());
        if (want != got) {
          report << path.filename().string() << ":" << row << ": expected";
          for (auto& c : want) report << " " << c;
          report << ", got";
          for (auto& c : got) report << " " << c;
          report << "\n";
        }
      }
      for (const auto& [row, codes] : actual) {
        if (expected.count(row)) continue;
        report << path.filename().string() << ":" << row << ": unexpected";
        for (auto& c : codes) report << " " << c;
        report << "\n";
      }
      INFO(report.str());
      CHECK(report.str().empty());
    }
  }
}

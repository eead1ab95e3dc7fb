// Every rule fixture with a CODE.fixed.py (or CODE_variant.fixed.py), fixed through the real rules and the
// fix loop (that rule only, unsafe fixes included), must come out as its
// .fixed.py (the fixture's `# expect:` markers aside); fixing again changes
// nothing; and what is left of the rule is exactly what had no fix.
#include "tests/support/catch.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

#include "rewriter/fix_loop.h"
#include "rules/checker.h"
#include "tests/support/fixture_file.h"

namespace fs = std::filesystem;
using namespace fxlint;
using namespace fxlint::test;

namespace {

struct OneRule {
  RuleId rule;
  Target target;
  std::string module;

  std::vector<std::vector<Diagnostic>> operator()(std::span<const std::string> texts) const {
    std::vector<SourceInput> inputs;
    for (const std::string& t : texts) {
      RuleSet only;
      only.set(static_cast<size_t>(rule));
      inputs.push_back({module + ".py", module, t, only, target});
    }
    return check_fixtures(inputs);
  }
};

FileFixResult fix_text(const std::string& text, const OneRule& lint) {
  std::vector<FileFixResult> r =
      fix_until_stable({{lint.module + ".py", text}}, lint, {FixMode::IncludeUnsafe, 10, {}});
  return r.at(0);
}

}  // namespace

TEST_CASE("rule fixtures come out as their .fixed.py", "[fixtures]") {
  fs::path dir = rule_fixtures_dir();
  std::vector<fs::path> fixed_files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().string().ends_with(".fixed.py")) fixed_files.push_back(e.path());
  }
  std::sort(fixed_files.begin(), fixed_files.end());
  REQUIRE_FALSE(fixed_files.empty());
  for (const fs::path& fixed_path : fixed_files) {
    // CODE.fixed.py or CODE_variant.fixed.py, fixed from CODE.py or CODE_variant.py.
    std::string name = fixed_path.filename().string();
    std::string stem = name.substr(0, name.size() - std::string_view(".fixed.py").size());
    std::string code = stem.substr(0, 5);
    DYNAMIC_SECTION(stem) {
      std::string original = read_file(dir / (stem + ".py"));
      std::optional<RuleId> rule = find_rule(code);
      REQUIRE(rule);
      OneRule lint{*rule, fixture_target(original), code};

      FileFixResult first = fix_text(original, lint);
      INFO(first.error);
      REQUIRE(first.status == FixStatus::Fixed);
      CHECK(without_expect_markers(first.fixed) == without_expect_markers(read_file(fixed_path)));

      FileFixResult again = fix_text(first.fixed, lint);
      CHECK(again.status == FixStatus::Unchanged);

      // What is left of the rule is what it could not rewrite: no fix, or display-only.
      for (const RemainingDiagnostic& left : first.remaining) {
        INFO(left.diagnostic.code << " at byte " << left.diagnostic.range.start << ": "
                                  << (left.not_applied ? skip_reason_text(*left.not_applied) : "no fix"));
        CHECK((!left.not_applied || *left.not_applied == SkipReason::DisplayOnly));
      }
    }
  }
}

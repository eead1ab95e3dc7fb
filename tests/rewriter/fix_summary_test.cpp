#include "tests/support/catch.h"

#include "rewriter/fix_summary.h"
#include "toy_fixes.h"

using namespace fxlint;
using namespace fxlint::test;

namespace {
RemainingDiagnostic left(const std::string& code, std::optional<SkipReason> why) {
  return {without_fix(code, {0, 1}), why};
}
}  // namespace

TEST_CASE("the summary counts what was fixed and says why the rest was not", "[summary]") {
  FileFixResult a;
  a.path = "a.py";
  a.status = FixStatus::Fixed;
  a.applied = {{"FX104", "Guard", Applicability::Safe, 1}, {"FX104", "Guard", Applicability::Safe, 1},
               {"FX501", "Guard", Applicability::Safe, 1}};
  a.remaining = {left("FX103", SkipReason::NeedsUnsafe), left("FX103", SkipReason::NeedsUnsafe),
                 left("FX301", std::nullopt)};
  FileFixResult b;
  b.path = "b.py";
  b.status = FixStatus::Reverted;
  b.error = "b.py: the fix for FX302 at 3:5 would leave the file unparsable";
  b.remaining = {left("FX302", SkipReason::Reverted), left("FX401", SkipReason::NeedsUnsafe)};
  std::vector<FileFixResult> results = {a, b};

  FixSummary s = summarize_fixes(results);
  CHECK(s.fixed == 3);
  CHECK(s.files_fixed == 1);
  CHECK(s.remaining == 5);
  REQUIRE(s.errors.size() == 1);

  CHECK(render_fix_summary(s, true) ==
        "Fixed 3 errors (FX104 \xC3\x97" "2, FX501) in 1 file.\n"
        "5 errors remain:\n"
        "  3 fixes available with --unsafe-fixes (FX103 \xC3\x97" "2, FX401)\n"
        "  FX301 has no automatic fix (1 error)\n"
        "  FX302: not applied: its file was left as it was (see the error) (1)\n");
  CHECK_THAT(render_fix_summary(s, false), Catch::StartsWith("Would fix 3 errors"));
}

TEST_CASE("nothing to fix and nothing left", "[summary]") {
  std::vector<FileFixResult> results(1);
  CHECK(render_fix_summary(summarize_fixes(results), false) == "No fixes to apply.\n");
}

TEST_CASE("many codes without a fix share one line", "[summary]") {
  FileFixResult r;
  for (const char* code : {"FX102", "FX102", "FX105", "FX201", "FX303"}) {
    r.remaining.push_back(left(code, std::nullopt));
  }
  std::vector<FileFixResult> results = {r};
  CHECK(render_fix_summary(summarize_fixes(results), true) ==
        "No fixes applied.\n5 errors remain:\n"
        "  5 errors have no automatic fix (FX102 \xC3\x97" "2, FX105, FX201, FX303)\n");
}

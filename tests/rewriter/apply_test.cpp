// Pins the overlap policy of apply_fixes with toy fixes on a short text.
#include "tests/support/catch.h"

#include "rewriter/apply.h"
#include "toy_fixes.h"

using namespace fxlint;
using namespace fxlint::test;

namespace {
//                                0123456789012345678
const std::string kText = "alpha beta gamma\n";
}  // namespace

TEST_CASE("non-overlapping fixes all apply, in any input order", "[apply]") {
  std::vector<Diagnostic> d = {with_fix("B", {edit(11, 16, "GAMMA")}),
                               with_fix("A", {edit(0, 5, "ALPHA")})};
  ApplyResult r = apply_fixes(kText, d, FixMode::SafeOnly);
  CHECK(r.text == "ALPHA beta GAMMA\n");
  CHECK(r.applied == std::vector<size_t>{1, 0});
  CHECK(r.skipped.empty());
}

TEST_CASE("applicability filters fixes", "[apply]") {
  std::vector<Diagnostic> d = {with_fix("S", {edit(0, 5, "A")}, Applicability::Safe),
                               with_fix("U", {edit(6, 10, "B")}, Applicability::Unsafe),
                               with_fix("D", {edit(11, 16, "G")}, Applicability::DisplayOnly),
                               without_fix("N", {0, 1})};
  SECTION("safe only") {
    ApplyResult r = apply_fixes(kText, d, FixMode::SafeOnly);
    CHECK(r.text == "A beta gamma\n");
    REQUIRE(r.skipped.size() == 2);
    CHECK(r.skipped[0].diagnostic == 1);
    CHECK(r.skipped[0].reason == SkipReason::NeedsUnsafe);
    CHECK(r.skipped[1].diagnostic == 2);
    CHECK(r.skipped[1].reason == SkipReason::DisplayOnly);
  }
  SECTION("unsafe included; display-only never") {
    ApplyResult r = apply_fixes(kText, d, FixMode::IncludeUnsafe);
    CHECK(r.text == "A B gamma\n");
    REQUIRE(r.skipped.size() == 1);
    CHECK(r.skipped[0].reason == SkipReason::DisplayOnly);
  }
}

TEST_CASE("a fix whose span contains another's wins over it", "[apply]") {
  // The contained fix comes first in the input; the container still wins.
  std::vector<Diagnostic> d = {with_fix("INNER", {edit(6, 10, "BETA")}),
                               with_fix("OUTER", {edit(0, 16, "whole")})};
  ApplyResult r = apply_fixes(kText, d, FixMode::SafeOnly);
  CHECK(r.text == "whole\n");
  CHECK(r.applied == std::vector<size_t>{1});
  REQUIRE(r.skipped.size() == 1);
  CHECK(r.skipped[0].diagnostic == 0);
  CHECK(r.skipped[0].reason == SkipReason::Contained);
  CHECK(r.skipped[0].winner == std::optional<size_t>(1));
}

TEST_CASE("a containing multi-edit fix wins even when it starts elsewhere", "[apply]") {
  // OUTER inserts a header at 0 and rewrites `beta`; INNER rewrites `beta` too.
  std::vector<Diagnostic> d = {with_fix("INNER", {edit(6, 10, "b")}),
                               with_fix("OUTER", {edit(0, 0, "# h\n"), edit(6, 10, "B")})};
  ApplyResult r = apply_fixes(kText, d, FixMode::SafeOnly);
  CHECK(r.text == "# h\nalpha B gamma\n");
  REQUIRE(r.skipped.size() == 1);
  CHECK(r.skipped[0].reason == SkipReason::Contained);
}

TEST_CASE("a multi-edit fix whose edits touch nothing of another does not conflict", "[apply]") {
  // OUTER's span [0,16) contains INNER's, but no edit overlaps: both apply.
  std::vector<Diagnostic> d = {with_fix("OUTER", {edit(0, 5, "A"), edit(11, 16, "G")}),
                               with_fix("INNER", {edit(6, 10, "B")})};
  ApplyResult r = apply_fixes(kText, d, FixMode::SafeOnly);
  CHECK(r.text == "A B G\n");
  CHECK(r.skipped.empty());
}

TEST_CASE("partially overlapping fixes: the later one is dropped", "[apply]") {
  std::vector<Diagnostic> d = {with_fix("LATE", {edit(3, 10, "late")}),
                               with_fix("EARLY", {edit(0, 8, "early")})};
  ApplyResult r = apply_fixes(kText, d, FixMode::SafeOnly);
  CHECK(r.text == "earlyta gamma\n");
  CHECK(r.applied == std::vector<size_t>{1});
  REQUIRE(r.skipped.size() == 1);
  CHECK(r.skipped[0].diagnostic == 0);
  CHECK(r.skipped[0].reason == SkipReason::Overlapping);
}

TEST_CASE("a multi-edit fix is all or nothing", "[apply]") {
  // BOTH's second edit overlaps FIRST, so BOTH's first edit is not applied either.
  std::vector<Diagnostic> d = {with_fix("FIRST", {edit(0, 5, "A")}),
                               with_fix("BOTH", {edit(4, 4, "!"), edit(11, 16, "G")})};
  ApplyResult r = apply_fixes(kText, d, FixMode::SafeOnly);
  CHECK(r.text == "A beta gamma\n");
  REQUIRE(r.skipped.size() == 1);
  CHECK(r.skipped[0].diagnostic == 1);
}

TEST_CASE("identical edits from two fixes are applied once", "[apply]") {
  std::vector<Diagnostic> d = {with_fix("A", {edit(0, 0, "import torch\n"), edit(0, 5, "x")}),
                               with_fix("B", {edit(0, 0, "import torch\n"), edit(6, 10, "y")})};
  ApplyResult r = apply_fixes(kText, d, FixMode::SafeOnly);
  CHECK(r.text == "import torch\nx y gamma\n");
  CHECK(r.applied.size() == 2);
  CHECK(r.skipped.empty());
}

TEST_CASE("insertions: same offset conflicts, boundaries do not", "[apply]") {
  SECTION("two different insertions at one offset: the later is dropped") {
    std::vector<Diagnostic> d = {with_fix("A", {edit(5, 5, "1")}),
                                 with_fix("B", {edit(5, 5, "2")})};
    ApplyResult r = apply_fixes(kText, d, FixMode::SafeOnly);
    CHECK(r.text == "alpha1 beta gamma\n");
    REQUIRE(r.skipped.size() == 1);
    CHECK(r.skipped[0].diagnostic == 1);
  }
  SECTION("an insertion at either end of a replacement applies with it") {
    std::vector<Diagnostic> d = {with_fix("R", {edit(6, 10, "BETA")}),
                                 with_fix("L", {edit(6, 6, "<")}),
                                 with_fix("E", {edit(10, 10, ">")})};
    ApplyResult r = apply_fixes(kText, d, FixMode::SafeOnly);
    CHECK(r.text == "alpha <BETA> gamma\n");
    CHECK(r.skipped.empty());
  }
  SECTION("an insertion strictly inside a replacement is contained") {
    std::vector<Diagnostic> d = {with_fix("R", {edit(6, 10, "BETA")}),
                                 with_fix("I", {edit(8, 8, "!")})};
    ApplyResult r = apply_fixes(kText, d, FixMode::SafeOnly);
    CHECK(r.text == "alpha BETA gamma\n");
    REQUIRE(r.skipped.size() == 1);
    CHECK(r.skipped[0].reason == SkipReason::Contained);
  }
}

TEST_CASE("malformed fixes are dropped, never half-applied", "[apply]") {
  std::vector<Diagnostic> d = {with_fix("OUT", {edit(10, 99, "x")}),
                               with_fix("UNSORTED", {edit(6, 10, "b"), edit(0, 5, "a")}),
                               with_fix("EMPTY", {})};
  ApplyResult r = apply_fixes(kText, d, FixMode::SafeOnly);
  CHECK(r.text == kText);
  REQUIRE(r.skipped.size() == 3);
  for (const SkippedFix& s : r.skipped) CHECK(s.reason == SkipReason::Malformed);
}

TEST_CASE("edit content written with \\n follows a CRLF file's endings", "[apply]") {
  const std::string crlf = "if x:\r\n    y = 1\r\n";
  std::vector<Diagnostic> d = {with_fix("W", {edit(11, 16, "(\n    1\n)")})};
  ApplyResult r = apply_fixes(crlf, d, FixMode::SafeOnly, LineEnding::CrLf);
  CHECK(r.text == "if x:\r\n    (\r\n    1\r\n)\r\n");
}

TEST_CASE("an edit that would cut a character or a CRLF in two is malformed", "[apply]") {
  const std::string text = "s = \"caf\xC3\xA9\"\r\nt = 1\r\n";
  //                        0123 4567 8  9  10 11 12
  std::vector<Diagnostic> d = {with_fix("UTF8", {edit(9, 10, "x")}),   // inside `é`
                               with_fix("CRLF", {edit(12, 12, "!")}),  // between \r and \n
                               with_fix("OK", {edit(8, 10, "e")})};    // the whole `é`
  ApplyResult r = apply_fixes(text, d, FixMode::SafeOnly, LineEnding::CrLf);
  CHECK(r.text == "s = \"cafe\"\r\nt = 1\r\n");
  REQUIRE(r.skipped.size() == 2);
  CHECK(r.skipped[0].reason == SkipReason::Malformed);
  CHECK(r.skipped[1].reason == SkipReason::Malformed);
}

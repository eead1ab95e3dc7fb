// The fixpoint loop with toy rules: convergence, the pass bound, oscillation,
// the syntax guarantee, cross-file linting and what is reported as left.
#include "tests/support/catch.h"

#include "rewriter/fix_loop.h"
#include "toy_fixes.h"

using namespace fxlint;
using namespace fxlint::test;

namespace {

// A toy rule: every occurrence of `from` is flagged, with a fix writing `to`.
std::vector<Diagnostic> replace_rule(const std::string& code, const std::string& text,
                                     const std::string& from, const std::string& to,
                                     Applicability applicability = Applicability::Safe) {
  std::vector<Diagnostic> out;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + 1)) {
    uint32_t s = static_cast<uint32_t>(at), e = static_cast<uint32_t>(at + from.size());
    out.push_back(with_fix(code, {edit(s, e, to)}, applicability));
  }
  return out;
}

LintFunction per_file(std::function<std::vector<Diagnostic>(const std::string&)> rule) {
  return [rule](std::span<const std::string> texts) {
    std::vector<std::vector<Diagnostic>> out;
    for (const std::string& t : texts) out.push_back(rule(t));
    return out;
  };
}

FileFixResult fix_one(const std::string& text, const LintFunction& lint,
                      FixLoopOptions options = {}) {
  std::vector<FileFixResult> r = fix_until_stable({{"m.py", text}}, lint, options);
  REQUIRE(r.size() == 1);
  return r[0];
}

}  // namespace

TEST_CASE("fixes that enable further fixes run to a fixpoint", "[loop]") {
  // TOY1 turns `a0` into `a1`; TOY2 flags `a1` and finishes it as `done`.
  auto lint = per_file([](const std::string& t) {
    auto d = replace_rule("TOY1", t, "a0", "a1");
    auto d2 = replace_rule("TOY2", t, "a1", "done");
    d.insert(d.end(), d2.begin(), d2.end());
    return d;
  });
  FileFixResult r = fix_one("x = a0\ny = a0\n", lint);
  CHECK(r.status == FixStatus::Fixed);
  CHECK(r.fixed == "x = done\ny = done\n");
  CHECK(r.passes == 3);  // two passes that change, one that finds nothing
  REQUIRE(r.applied.size() == 4);
  CHECK(r.applied[0].code == "TOY1");
  CHECK(r.applied[3].code == "TOY2");
  CHECK(r.applied[3].pass == 2);
  CHECK(r.remaining.empty());
}

TEST_CASE("fixing the fixed text again changes nothing", "[loop]") {
  auto lint = per_file([](const std::string& t) { return replace_rule("TOY", t, "bad", "good"); });
  FileFixResult first = fix_one("bad = 1  # bad comment\n", lint);
  REQUIRE(first.status == FixStatus::Fixed);
  FileFixResult second = fix_one(first.fixed, lint);
  CHECK(second.status == FixStatus::Unchanged);
  CHECK(second.fixed == first.fixed);
}

TEST_CASE("a loop that never settles fails loudly and leaves the file", "[loop]") {
  // TOYGROW always prepends one more `x`: the text never repeats, never settles.
  auto lint = per_file([](const std::string&) {
    return std::vector<Diagnostic>{with_fix("TOYGROW", {edit(0, 0, "x")})};
  });
  FileFixResult r = fix_one("y = 1\n", lint, {FixMode::SafeOnly, 4, {}});
  CHECK(r.status == FixStatus::NotConverged);
  CHECK(r.fixed == "y = 1\n");
  CHECK(r.applied.empty());
  CHECK_THAT(r.error, Catch::Contains("m.py") && Catch::Contains("TOYGROW") &&
                          Catch::Contains("4 passes"));
  CHECK(r.passes == 5);
}

TEST_CASE("fixes that undo each other are caught without waiting for the bound", "[loop]") {
  auto lint = per_file([](const std::string& t) {
    auto d = replace_rule("TOYP", t, "p", "q");
    auto d2 = replace_rule("TOYQ", t, "q", "p");
    d.insert(d.end(), d2.begin(), d2.end());
    return d;
  });
  FileFixResult r = fix_one("p\n", lint);
  CHECK(r.status == FixStatus::NotConverged);
  CHECK(r.fixed == "p\n");
  CHECK(r.passes == 2);
  CHECK_THAT(r.error, Catch::Contains("undo each other"));
}

TEST_CASE("a fix that breaks the syntax leaves the file as it was and is named", "[loop]") {
  auto lint = per_file([](const std::string& t) {
    auto d = replace_rule("TOYOK", t, "old", "new");
    auto d2 = replace_rule("TOYBREAK", t, "pass", "pass(");
    d.insert(d.end(), d2.begin(), d2.end());
    return d;
  });
  const std::string text = "x = old\ndef f():\n    pass\n";
  FileFixResult r = fix_one(text, lint);
  CHECK(r.status == FixStatus::Reverted);
  CHECK(r.fixed == text);
  CHECK(r.applied.empty());
  CHECK_THAT(r.error, Catch::Contains("m.py") && Catch::Contains("TOYBREAK at 3:5") &&
                          !Catch::Contains("TOYOK"));
  // Both fixes are reported as left, reverted with the file.
  REQUIRE(r.remaining.size() == 2);
  for (const RemainingDiagnostic& d : r.remaining) CHECK(d.not_applied == SkipReason::Reverted);
}

TEST_CASE("a file that does not parse is not fixed, and says why", "[loop]") {
  auto lint = per_file([](const std::string& t) { return replace_rule("TOY", t, "old", "new"); });
  FileFixResult r = fix_one("x = old\ndef (:\n", lint);
  CHECK(r.status == FixStatus::Unchanged);
  CHECK(r.fixed == "x = old\ndef (:\n");
  REQUIRE(r.remaining.size() == 1);
  CHECK(r.remaining[0].not_applied == SkipReason::SyntaxError);
}

TEST_CASE("what is left says why", "[loop]") {
  auto lint = per_file([](const std::string& t) {
    auto d = replace_rule("TOYU", t, "u", "U", Applicability::Unsafe);
    auto d2 = replace_rule("TOYD", t, "d", "D", Applicability::DisplayOnly);
    d.insert(d.end(), d2.begin(), d2.end());
    if (t.find("n") != std::string::npos) d.push_back(without_fix("TOYN", {0, 1}));
    return d;
  });
  SECTION("safe only") {
    FileFixResult r = fix_one("u, d, n\n", lint);
    CHECK(r.status == FixStatus::Unchanged);
    REQUIRE(r.remaining.size() == 3);
    CHECK(r.remaining[0].not_applied == SkipReason::NeedsUnsafe);
    CHECK(r.remaining[1].not_applied == SkipReason::DisplayOnly);
    CHECK_FALSE(r.remaining[2].not_applied.has_value());
  }
  SECTION("with unsafe fixes") {
    FileFixResult r = fix_one("u, d, n\n", lint, {FixMode::IncludeUnsafe, 10, {}});
    CHECK(r.status == FixStatus::Fixed);
    CHECK(r.fixed == "U, d, n\n");
    REQUIRE(r.applied.size() == 1);
    CHECK(r.applied[0].applicability == Applicability::Unsafe);
    CHECK(r.remaining.size() == 2);
  }
}

TEST_CASE("files are linted together so cross-file facts hold", "[loop]") {
  // TOYX fires in b.py only while a.py still says `enable`; a.py's own fix removes it.
  LintFunction lint = [](std::span<const std::string> texts) {
    std::vector<std::vector<Diagnostic>> out(texts.size());
    out[0] = replace_rule("TOYA", texts[0], "enable", "off");
    if (texts[0].find("enable\n") != std::string::npos) {
      out[1] = replace_rule("TOYX", texts[1], "x", "y");
    }
    return out;
  };
  std::vector<FileFixResult> r =
      fix_until_stable({{"a.py", "enable\n"}, {"b.py", "x\n"}}, lint, {});
  REQUIRE(r.size() == 2);
  CHECK(r[0].fixed == "off\n");
  CHECK(r[1].fixed == "y\n");  // fixed in the same first pass, when the fact held
}

TEST_CASE("fixes keep a CRLF file CRLF", "[loop]") {
  // TOY wraps the statement in a block, once (its output is not flagged again).
  auto lint = per_file([](const std::string& t) {
    if (t.find("if True") != std::string::npos) return std::vector<Diagnostic>{};
    return replace_rule("TOY", t, "y = 1", "if True:\n        y = 1");
  });
  FileFixResult r = fix_one("def f():\r\n    y = 1\r\n", lint);
  CHECK(r.status == FixStatus::Fixed);
  CHECK(r.fixed == "def f():\r\n    if True:\r\n        y = 1\r\n");
}

TEST_CASE("a fix that drops a comment is refused; one about that comment is not", "[loop]") {
  // TOYDROP rewrites `x = 1  # note` without its comment.
  auto drop = per_file([](const std::string& t) {
    return replace_rule("TOYDROP", t, "x = 1  # note", "x = 2");
  });
  FileFixResult r = fix_one("x = 1  # note\n", drop);
  CHECK(r.status == FixStatus::Reverted);
  CHECK(r.fixed == "x = 1  # note\n");
  CHECK_THAT(r.error, Catch::Contains("TOYDROP at 1:1") && Catch::Contains("drop the comment `# note`"));

  // TOYNOQA flags the suppression comment itself and removes it: allowed.
  auto noqa = per_file([](const std::string& t) {
    std::vector<Diagnostic> out;
    size_t at = t.find("  # noqa: FX101");
    if (at == std::string::npos) return out;
    uint32_t s = static_cast<uint32_t>(at);
    Diagnostic d = with_fix("TOYNOQA", {edit(s, s + 15, "")});
    d.range = {s + 10, s + 15};  // the unused code inside the comment
    out.push_back(d);
    return out;
  });
  FileFixResult ok = fix_one("x = 1  # noqa: FX101\n# kept\n", noqa);
  CHECK(ok.status == FixStatus::Fixed);
  CHECK(ok.fixed == "x = 1\n# kept\n");
}

TEST_CASE("a comment moved to another line is kept", "[loop]") {
  auto hoist = per_file([](const std::string& t) {
    return replace_rule("TOYHOIST", t, "y = a  # why", "# why\ny = a");
  });
  FileFixResult r = fix_one("y = a  # why\n", hoist);
  CHECK(r.status == FixStatus::Fixed);
  CHECK(r.fixed == "# why\ny = a\n");
}

TEST_CASE("a fix that never settles is left out and the file's other fixes are kept", "[loop]") {
  // TOYGROW prepends one more `x` each pass; TOYOK's replacement settles at once.
  auto lint = per_file([](const std::string& t) {
    auto d = replace_rule("TOYOK", t, "old", "new");
    d.push_back(with_fix("TOYGROW", {edit(0, 0, "x")}));
    return d;
  });
  FileFixResult r = fix_one("y = old\n", lint, {FixMode::SafeOnly, 4, {}});
  CHECK(r.status == FixStatus::Fixed);
  CHECK(r.fixed == "y = new\n");
  REQUIRE(r.applied.size() == 1);
  CHECK(r.applied[0].code == "TOYOK");
  CHECK_THAT(r.error, Catch::Contains("m.py: the fix for TOYGROW at 1:1 did not converge after 4 passes") &&
                          Catch::Contains("other fixes applied"));
}

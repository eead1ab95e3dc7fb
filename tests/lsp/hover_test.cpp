#include "tests/support/catch.h"

#include <string>
#include <vector>

#include "lsp/hover.h"

using namespace fxlint;
using namespace fxlint::lsp;

namespace {

const std::string kText =
    "y = x.item()  # noqa: FX101, FX104\n"
    "z = 'FX101'  # see tensor-item\n";

std::vector<Diagnostic> diagnostics() {
  return {{"FX101", "`.item()`", {4, 12}, Severity::Error, std::nullopt},
          {"FX102", "float()", {4, 12}, Severity::Error, std::nullopt},
          {"FX101", "`.item()` again", {4, 12}, Severity::Error, std::nullopt}};
}

}  // namespace

TEST_CASE("hover over a diagnostic shows each of its rules once") {
  std::optional<Hover> h = rule_hover(kText, diagnostics(), {0, 6});
  REQUIRE(h);
  CHECK(h->markdown.starts_with("# FX101 tensor-item"));
  CHECK(h->markdown.find("\n---\n\n# FX102 tensor-to-python") != std::string::npos);
  CHECK(h->markdown.find("# FX101", 1) == std::string::npos);
  CHECK(h->range == Range{{0, 4}, {0, 12}});
  // The end of the range still counts (a cursor right after `.item()`).
  CHECK(rule_hover(kText, diagnostics(), {0, 12}));
}

TEST_CASE("hover over a code in a comment shows that rule") {
  std::optional<Hover> h = rule_hover(kText, {}, {0, 31});
  REQUIRE(h);
  CHECK(h->markdown.starts_with("# FX104 tensor-assert"));
  CHECK(h->range == Range{{0, 29}, {0, 34}});
}

TEST_CASE("hover finds nothing in code, in strings or on rule names") {
  CHECK_FALSE(rule_hover(kText, diagnostics(), {0, 1}));  // `y`
  CHECK_FALSE(rule_hover(kText, {}, {1, 7}));              // 'FX101' in a string, no `#` before it
  CHECK_FALSE(rule_hover(kText, {}, {1, 26}));             // a rule name, not a code
  CHECK_FALSE(rule_hover(kText, {}, {7, 0}));              // past the end
}

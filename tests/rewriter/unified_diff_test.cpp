#include "tests/support/catch.h"

#include <cstdio>
#include <random>

#include "rewriter/unified_diff.h"

using namespace fxlint;

namespace {
std::string numbered(int from, int to) {
  std::string s;
  for (int i = from; i <= to; ++i) s += "l" + std::to_string(i) + "\n";
  return s;
}
}  // namespace

TEST_CASE("equal texts give no diff", "[diff]") { CHECK(unified_diff("a\n", "a\n", "f.py").empty()); }

TEST_CASE("one changed line with three lines of context", "[diff]") {
  std::string before = numbered(1, 10);
  std::string after = before;
  after.replace(after.find("l5\n"), 3, "L5\n");
  CHECK(unified_diff(before, after, "pkg/m.py") ==
        "--- a/pkg/m.py\n"
        "+++ b/pkg/m.py\n"
        "@@ -2,7 +2,7 @@\n"
        " l2\n l3\n l4\n"
        "-l5\n"
        "+L5\n"
        " l6\n l7\n l8\n");
}

TEST_CASE("changes far apart make two hunks; near ones merge", "[diff]") {
  std::string before = numbered(1, 20);
  std::string far = before;
  far.replace(far.find("l2\n"), 3, "");
  far.replace(far.find("l19\n"), 4, "x\ny\n");
  std::string d = unified_diff(before, far, "m.py");
  CHECK_THAT(d, Catch::Contains("@@ -1,5 +1,4 @@\n l1\n-l2\n l3\n l4\n l5\n"));
  CHECK_THAT(d, Catch::Contains("@@ -16,5 +15,6 @@\n l16\n l17\n l18\n-l19\n+x\n+y\n l20\n"));

  std::string near = before;
  near.replace(near.find("l5\n"), 3, "");
  near.replace(near.find("l10\n"), 4, "");
  std::string n = unified_diff(before, near, "m.py");
  CHECK_THAT(n, Catch::Contains("@@ -2,12 +2,10 @@\n"));
}

TEST_CASE("insertions at the top and a missing final newline", "[diff]") {
  CHECK(unified_diff("a\n", "import torch\na\n", "m.py") ==
        "--- a/m.py\n+++ b/m.py\n@@ -1 +1,2 @@\n+import torch\n a\n");
  CHECK(unified_diff("a", "b", "m.py") ==
        "--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n"
        "\\ No newline at end of file\n");
}

TEST_CASE("CRLF lines keep their carriage return", "[diff]") {
  CHECK(unified_diff("a\r\n", "b\r\n", "m.py") == "--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-a\r\n+b\r\n");
}

TEST_CASE("color only when asked", "[diff]") {
  std::string d = unified_diff("a\n", "b\n", "m.py", {3, true});
  CHECK_THAT(d, Catch::Contains("\x1b[31m-a\x1b[0m\n"));
  CHECK_THAT(d, Catch::Contains("\x1b[32m+b\x1b[0m\n"));
}

namespace {

// Applies a unified diff of one file to `before`, checking every context and
// deleted line and every hunk count on the way; "" when anything disagrees.
std::string apply_diff(const std::string& before, const std::string& diff) {
  std::vector<std::string> in;  // lines of `before`, with their terminators
  for (size_t pos = 0; pos < before.size();) {
    size_t nl = before.find('\n', pos);
    size_t end = nl == std::string::npos ? before.size() : nl + 1;
    in.push_back(before.substr(pos, end - pos));
    pos = end;
  }
  std::vector<std::string> lines;
  for (size_t pos = 0; pos < diff.size();) {
    size_t nl = diff.find('\n', pos);
    lines.push_back(diff.substr(pos, nl - pos));
    pos = nl + 1;
  }
  std::string out;
  size_t next = 0;  // next line of `in` to copy
  for (size_t i = 2; i < lines.size();) {
    unsigned a = 0, b = 0, c = 0, d = 0;
    const std::string& h = lines[i];
    if (std::sscanf(h.c_str(), "@@ -%u,%u +%u,%u @@", &a, &b, &c, &d) != 4) {
      if (std::sscanf(h.c_str(), "@@ -%u +%u,%u @@", &a, &c, &d) == 3) {
        b = 1;
      } else if (std::sscanf(h.c_str(), "@@ -%u,%u +%u @@", &a, &b, &c) == 3) {
        d = 1;
      } else if (std::sscanf(h.c_str(), "@@ -%u +%u @@", &a, &c) == 2) {
        b = d = 1;
      } else {
        return "";
      }
    }
    size_t first = b == 0 ? a : a - 1;  // 0-based index of the hunk's first old line
    if (first < next || first > in.size()) return "";
    while (next < first) out += in[next++];
    unsigned old_seen = 0, new_seen = 0;
    char last = ' ';
    for (++i; i < lines.size() && !lines[i].starts_with("@@"); ++i) {
      const std::string& l = lines[i];
      if (l.starts_with("\\")) {  // the previous line has no newline
        if (last == '-') continue;
        if (out.empty() || out.back() != '\n') return "";
        out.pop_back();
        continue;
      }
      last = l[0];
      std::string body = l.substr(1) + "\n";
      if (l[0] == ' ' || l[0] == '-') {
        if (next >= in.size()) return "";
        std::string have = in[next];
        if (!have.ends_with('\n')) have += '\n';
        if (have != body) return "";
        ++next;
        ++old_seen;
        if (l[0] == ' ') out += body, ++new_seen;
      } else if (l[0] == '+') {
        out += body;
        ++new_seen;
      } else {
        return "";
      }
    }
    if (old_seen != b || new_seen != d) return "";
  }
  while (next < in.size()) out += in[next++];
  return out;
}

std::string random_text(std::mt19937& rng, int lines, int alphabet) {
  std::string s;
  for (int i = 0; i < lines; ++i) s += "l" + std::to_string(rng() % alphabet) + "\n";
  if (rng() % 4 == 0 && !s.empty()) s.pop_back();  // no final newline
  return s;
}

}  // namespace

TEST_CASE("random diffs apply back to the text they were made from", "[diff]") {
  std::mt19937 rng(7);
  for (int round = 0; round < 400; ++round) {
    int alphabet = round % 2 ? 4 : 1000;  // many repeats (Myers) or unique lines (anchors)
    std::string before = random_text(rng, static_cast<int>(rng() % 40), alphabet);
    std::string after = before;
    // A few random line-level edits.
    for (int e = static_cast<int>(rng() % 4); e >= 0; --e) {
      std::string insert = random_text(rng, static_cast<int>(rng() % 3), alphabet);
      size_t at = after.empty() ? 0 : rng() % after.size();
      at = after.rfind('\n', at) == std::string::npos ? 0 : after.rfind('\n', at) + 1;
      size_t end = std::min(after.size(), at + rng() % 12);
      end = after.find('\n', end) == std::string::npos ? after.size() : after.find('\n', end) + 1;
      after.replace(at, end - at, insert);
    }
    std::string diff = unified_diff(before, after, "r.py");
    if (before == after) {
      CHECK(diff.empty());
      continue;
    }
    INFO("before:\n" << before << "\nafter:\n" << after << "\ndiff:\n" << diff);
    REQUIRE(apply_diff(before, diff) == after);
  }
}

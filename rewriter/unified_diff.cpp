#include "rewriter/unified_diff.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace fxlint {

namespace {

enum class Op { Equal, Delete, Insert };

struct Step {
  Op op;
  size_t a;  // index in `before` lines (Equal, Delete)
  size_t b;  // index in `after` lines (Equal, Insert)
};

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    lines.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  return lines;
}

// Beyond this many differing lines the shortest script is not searched for:
// the differing middle is shown as one replaced block.
constexpr long kMaxEditDistance = 4000;

// Myers' O((N+M)D) shortest edit script between a[lo_a, hi_a) and b[lo_b, hi_b).
void myers(const std::vector<std::string_view>& a, size_t lo_a, size_t hi_a,
           const std::vector<std::string_view>& b, size_t lo_b, size_t hi_b,
           std::vector<Step>& out) {
  long n = static_cast<long>(hi_a - lo_a), m = static_cast<long>(hi_b - lo_b);
  long max = std::min(n + m, kMaxEditDistance);
  std::vector<long> v(2 * max + 3, 0);
  auto at = [&](long k) -> long& { return v[static_cast<size_t>(k + max + 1)]; };
  std::vector<std::vector<long>> trace;  // trace[d][k + d] = furthest x on diagonal k
  long found = -1;
  for (long d = 0; d <= max && found < 0; ++d) {
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? at(k + 1) : at(k - 1) + 1;
      long y = x - k;
      while (x < n && y < m && a[lo_a + x] == b[lo_b + y]) ++x, ++y;
      at(k) = x;
      if (x >= n && y >= m) found = d;
    }
    std::vector<long> snapshot(static_cast<size_t>(2 * d + 1));
    for (long k = -d; k <= d; ++k) snapshot[static_cast<size_t>(k + d)] = at(k);
    trace.push_back(std::move(snapshot));
  }
  std::vector<Step> rev;
  if (found < 0) {  // too different: replace the whole middle
    for (long y = m - 1; y >= 0; --y) rev.push_back({Op::Insert, 0, lo_b + y});
    for (long x = n - 1; x >= 0; --x) rev.push_back({Op::Delete, lo_a + x, 0});
  } else {
    long x = n, y = m;
    for (long d = found; d > 0; --d) {
      const std::vector<long>& prev = trace[static_cast<size_t>(d - 1)];
      auto prev_at = [&](long k) { return prev[static_cast<size_t>(k + d - 1)]; };
      long k = x - y;
      long prev_k = (k == -d || (k != d && prev_at(k - 1) < prev_at(k + 1))) ? k + 1 : k - 1;
      long prev_x = prev_at(prev_k), prev_y = prev_x - prev_k;
      while (x > prev_x && y > prev_y) {
        --x, --y;
        rev.push_back({Op::Equal, lo_a + x, lo_b + y});
      }
      if (x == prev_x) {
        rev.push_back({Op::Insert, 0, lo_b + --y});
      } else {
        rev.push_back({Op::Delete, lo_a + --x, 0});
      }
    }
    while (x > 0 && y > 0) {
      --x, --y;
      rev.push_back({Op::Equal, lo_a + x, lo_b + y});
    }
  }
  out.insert(out.end(), rev.rbegin(), rev.rend());
}

// Patience diff: lines that occur exactly once on each side and in the same
// order anchor the script; the stretches between anchors are diffed the same
// way, and by Myers when they hold no anchor. Keeps memory small on long files
// with many scattered fixes, and aligns code on its distinctive lines.
void patience(const std::vector<std::string_view>& a, size_t lo_a, size_t hi_a,
              const std::vector<std::string_view>& b, size_t lo_b, size_t hi_b,
              std::vector<Step>& out) {
  while (lo_a < hi_a && lo_b < hi_b && a[lo_a] == b[lo_b]) out.push_back({Op::Equal, lo_a++, lo_b++});
  size_t suffix = 0;
  while (lo_a + suffix < hi_a && lo_b + suffix < hi_b && a[hi_a - 1 - suffix] == b[hi_b - 1 - suffix]) {
    ++suffix;
  }
  hi_a -= suffix;
  hi_b -= suffix;

  struct Seen {
    size_t in_a = 0, in_b = 0;
    size_t at_a = 0, at_b = 0;
  };
  std::unordered_map<std::string_view, Seen> seen;
  for (size_t i = lo_a; i < hi_a; ++i) {
    Seen& s = seen[a[i]];
    ++s.in_a;
    s.at_a = i;
  }
  for (size_t j = lo_b; j < hi_b; ++j) {
    auto it = seen.find(b[j]);
    if (it == seen.end()) continue;
    ++it->second.in_b;
    it->second.at_b = j;
  }
  std::vector<std::pair<size_t, size_t>> unique;  // (index in a, index in b), by a
  for (size_t i = lo_a; i < hi_a; ++i) {
    const Seen& s = seen[a[i]];
    if (s.in_a == 1 && s.in_b == 1) unique.push_back({i, s.at_b});
  }

  // Longest run of unique pairs increasing in b (patience sorting).
  std::vector<size_t> tails, prev(unique.size(), SIZE_MAX);
  for (size_t k = 0; k < unique.size(); ++k) {
    auto pos = std::lower_bound(tails.begin(), tails.end(), unique[k].second,
                                [&](size_t t, size_t bj) { return unique[t].second < bj; });
    if (pos != tails.begin()) prev[k] = *(pos - 1);
    if (pos == tails.end()) {
      tails.push_back(k);
    } else {
      *pos = k;
    }
  }
  std::vector<std::pair<size_t, size_t>> anchors;
  for (size_t k = tails.empty() ? SIZE_MAX : tails.back(); k != SIZE_MAX; k = prev[k]) {
    anchors.push_back(unique[k]);
  }
  std::reverse(anchors.begin(), anchors.end());

  if (anchors.empty()) {
    myers(a, lo_a, hi_a, b, lo_b, hi_b, out);
  } else {
    for (const auto& [ia, ib] : anchors) {
      patience(a, lo_a, ia, b, lo_b, ib, out);
      out.push_back({Op::Equal, ia, ib});
      lo_a = ia + 1;
      lo_b = ib + 1;
    }
    patience(a, lo_a, hi_a, b, lo_b, hi_b, out);
  }
  for (size_t i = 0; i < suffix; ++i) out.push_back({Op::Equal, hi_a + i, hi_b + i});
}

std::vector<Step> edit_script(const std::vector<std::string_view>& a,
                              const std::vector<std::string_view>& b) {
  std::vector<Step> steps;
  patience(a, 0, a.size(), b, 0, b.size(), steps);
  return steps;
}

struct Colors {
  const char* header = "";
  const char* hunk = "";
  const char* del = "";
  const char* ins = "";
  const char* reset = "";
};

void append_line(std::string& out, char sign, std::string_view line, const char* color,
                 const char* reset) {
  out += color;
  out += sign;
  bool terminated = line.ends_with('\n');
  out += terminated ? line.substr(0, line.size() - 1) : line;
  out += reset;
  out += '\n';
  if (!terminated) out += "\\ No newline at end of file\n";
}

std::string range_text(size_t start, size_t count) {
  // A hunk with no line on one side names the line before it (0 at the top).
  size_t first = count == 0 ? start : start + 1;
  return std::to_string(first) + (count == 1 ? "" : "," + std::to_string(count));
}

}  // namespace

std::string unified_diff(std::string_view before, std::string_view after, std::string_view path,
                         const DiffOptions& options) {
  if (before == after) return {};
  std::vector<std::string_view> a = split_lines(before), b = split_lines(after);
  std::vector<Step> steps = edit_script(a, b);
  Colors c;
  if (options.color) c = {"\x1b[1m", "\x1b[36m", "\x1b[31m", "\x1b[32m", "\x1b[0m"};

  std::string out;
  out += c.header;
  out += "--- a/" + std::string(path);
  out += c.reset;
  out += "\n";
  out += c.header;
  out += "+++ b/" + std::string(path);
  out += c.reset;
  out += "\n";

  const size_t ctx = options.context;
  size_t i = 0;
  while (i < steps.size()) {
    if (steps[i].op == Op::Equal) {
      ++i;
      continue;
    }
    // A hunk: from `ctx` lines before this change to `ctx` lines after the
    // last change that is no more than 2*ctx equal lines from the previous one.
    size_t begin = i >= ctx ? i - ctx : 0;  // past the previous hunk: see the merge rule
    size_t last_change = i;
    for (size_t j = i; j < steps.size(); ++j) {
      if (steps[j].op != Op::Equal) {
        last_change = j;
      } else if (j - last_change > 2 * ctx) {
        break;
      }
    }
    size_t end = std::min(steps.size(), last_change + 1 + ctx);

    size_t a_start = 0, b_start = 0, a_count = 0, b_count = 0;
    bool a_set = false, b_set = false;
    for (size_t j = begin; j < end; ++j) {
      const Step& s = steps[j];
      if (s.op != Op::Insert) {
        if (!a_set) a_start = s.a, a_set = true;
        ++a_count;
      }
      if (s.op != Op::Delete) {
        if (!b_set) b_start = s.b, b_set = true;
        ++b_count;
      }
    }
    // An empty side starts after the lines that precede the hunk.
    if (!a_set) {
      a_start = 0;
      for (size_t j = 0; j < begin; ++j) a_start += steps[j].op != Op::Insert;
    }
    if (!b_set) {
      b_start = 0;
      for (size_t j = 0; j < begin; ++j) b_start += steps[j].op != Op::Delete;
    }
    out += c.hunk;
    out += "@@ -" + range_text(a_start, a_count) + " +" + range_text(b_start, b_count) + " @@";
    out += c.reset;
    out += "\n";
    for (size_t j = begin; j < end; ++j) {
      const Step& s = steps[j];
      switch (s.op) {
        case Op::Equal: append_line(out, ' ', a[s.a], "", ""); break;
        case Op::Delete: append_line(out, '-', a[s.a], c.del, c.reset); break;
        case Op::Insert: append_line(out, '+', b[s.b], c.ins, c.reset); break;
      }
    }
    i = end;
  }
  return out;
}

}  // namespace fxlint

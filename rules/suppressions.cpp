#include "rules/suppressions.h"

#include <algorithm>
#include <cctype>

namespace fxlint {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Codes in "FX101, FX102 other text": stops at the first non-code word.
std::vector<std::string> read_codes(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == ',' || s[i] == '\t')) ++i;
    size_t j = i;
    while (j < s.size() && std::isalnum(static_cast<unsigned char>(s[j]))) ++j;
    if (j == i) break;
    std::string_view word = s.substr(i, j - i);
    bool code = word.size() >= 2 && std::isalpha(static_cast<unsigned char>(word[0])) &&
                std::isdigit(static_cast<unsigned char>(word.back()));
    if (!code) break;
    out.emplace_back(word);
    i = j;
  }
  return out;
}

// `# flake8: noqa`, `# ruff: noqa`: another tool's file-level directive, not ours.
bool other_tool_directive(std::string_view comment, size_t noqa_at) {
  size_t end = comment.find_last_not_of(' ', noqa_at == 0 ? std::string_view::npos : noqa_at - 1);
  if (noqa_at == 0 || end == std::string_view::npos || comment[end] != ':') return false;
  size_t start = end;
  while (start > 0 && (std::isalnum(static_cast<unsigned char>(comment[start - 1])) || comment[start - 1] == '-' ||
                       comment[start - 1] == '_')) {
    --start;
  }
  std::string_view tool = comment.substr(start, end - start);
  return !tool.empty() && tool != "fxlint";
}

}  // namespace

SuppressionSet parse_suppressions(std::string_view source, const std::vector<TextRange>& comments) {
  SuppressionSet set;
  for (const TextRange& r : comments) {
    std::string_view text = source.substr(r.start, r.length());
    std::string low = lower(text);
    if (low.find("fxlint: skip-file") != std::string::npos) {
      set.skip_file = true;
      continue;
    }
    Suppression s;
    s.range = r;
    if (auto p = low.find("fxlint: ignore["); p != std::string::npos) {
      auto close = text.find(']', p);
      if (close == std::string_view::npos) continue;
      size_t start = p + std::string_view("fxlint: ignore[").size();
      s.codes = read_codes(text.substr(start, close - start));
    } else if (auto q = low.find("noqa"); q != std::string::npos && (q == 0 || low[q - 1] == '#' || low[q - 1] == ' ') &&
                                          !other_tool_directive(low, q)) {
      size_t after = q + 4;
      while (after < text.size() && text[after] == ' ') ++after;
      if (after < text.size() && text[after] == ':') {
        std::string_view rest = text.substr(after + 1);
        s.codes = read_codes(rest);
        // `# noqa: 401` names another tool's codes: not a blanket suppression.
        if (s.codes.empty() && rest.find_first_not_of(" \t") == std::string_view::npos) s.all = true;
        if (s.codes.empty() && !s.all) continue;
      } else {
        s.all = true;
      }
    } else {
      continue;
    }
    s.used.assign(s.codes.size(), false);
    set.items.push_back(std::move(s));
  }
  return set;
}

void apply_suppressions(std::vector<Diagnostic>& diagnostics, SuppressionSet& set, const LineIndex& lines) {
  if (set.skip_file) {
    diagnostics.clear();
    return;
  }
  auto suppressed = [&](const Diagnostic& d) {
    uint32_t first = lines.line_of(d.range.start);
    uint32_t last = lines.line_of(d.range.end > d.range.start ? d.range.end - 1 : d.range.end);
    bool hit = false;
    for (Suppression& s : set.items) {
      uint32_t line = lines.line_of(s.range.start);
      if (line != first && line != last) continue;
      if (s.all) hit = true;
      for (size_t i = 0; i < s.codes.size(); ++i) {
        if (s.codes[i] == d.code) {
          s.used[i] = true;
          hit = true;
        }
      }
    }
    return hit;
  };
  diagnostics.erase(std::remove_if(diagnostics.begin(), diagnostics.end(), suppressed), diagnostics.end());
}

}  // namespace fxlint

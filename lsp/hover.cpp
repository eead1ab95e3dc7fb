#include "lsp/hover.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "core/line_index.h"
#include "lsp/conversion.h"
#include "rules/registry.h"
#include "rules/rule_page.h"

namespace fxlint::lsp {

namespace {

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// A rule code in a comment (after `#` on the same line) that holds `offset`.
std::optional<std::pair<RuleId, TextRange>> code_in_comment(std::string_view text, uint32_t offset) {
  uint32_t start = offset, end = offset;
  while (start > 0 && is_word(text[start - 1])) --start;
  while (end < text.size() && is_word(text[end])) ++end;
  if (start == end) return std::nullopt;
  std::optional<RuleId> id = find_rule(text.substr(start, end - start));
  if (!id || rule_info(*id).code != text.substr(start, end - start)) return std::nullopt;  // codes, not names
  size_t line_start = text.rfind('\n', start == 0 ? 0 : start - 1);
  line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
  if (text.substr(line_start, start - line_start).find('#') == std::string_view::npos) return std::nullopt;
  return std::make_pair(*id, TextRange{start, end});
}

}  // namespace

void to_json(json& j, const Hover& h) {
  j = {{"contents", {{"kind", "markdown"}, {"value", h.markdown}}}, {"range", h.range}};
}

std::optional<Hover> rule_hover(std::string_view text, std::span<const Diagnostic> diagnostics, Position position) {
  LineIndex index(text);
  uint32_t offset = index.offset_of_utf16(position.line, position.character);
  if (auto code = code_in_comment(text, offset)) {
    return Hover{rule_page(rule_info(code->first)), to_range(index, code->second)};
  }
  std::vector<RuleId> shown;
  std::optional<TextRange> about;
  std::string markdown;
  for (const Diagnostic& d : diagnostics) {
    if (offset < d.range.start || offset > d.range.end) continue;
    std::optional<RuleId> id = find_rule(d.code);
    if (!id || std::find(shown.begin(), shown.end(), *id) != shown.end()) continue;
    shown.push_back(*id);
    if (!about) about = d.range;
    if (!markdown.empty()) markdown += "\n\n---\n\n";
    markdown += rule_page(rule_info(*id));
  }
  if (!about) return std::nullopt;
  return Hover{markdown, to_range(index, *about)};
}

}  // namespace fxlint::lsp

#include "lsp/conversion.h"

#include <algorithm>

#include "rules/registry.h"

namespace fxlint::lsp {

namespace {

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

DiagnosticSeverity to_lsp_severity(Severity s) {
  return s == Severity::Error ? DiagnosticSeverity::Error : DiagnosticSeverity::Warning;
}

}  // namespace

Position to_position(const LineIndex& index, uint32_t offset) {
  return {index.line_of(offset), index.utf16_column(offset)};
}

Range to_range(const LineIndex& index, TextRange range) {
  return {to_position(index, range.start), to_position(index, range.end)};
}

std::vector<TextEdit> to_text_edits(const LineIndex& index, const Fix& fix, LineEnding ending) {
  std::vector<TextEdit> edits;
  for (const Edit& e : fix.edits) edits.push_back({to_range(index, e.range), convert_line_endings(e.content, ending)});
  return edits;
}

LspDiagnostic to_lsp_diagnostic(const LineIndex& index, const Diagnostic& diagnostic, LineEnding ending) {
  LspDiagnostic d;
  d.range = to_range(index, diagnostic.range);
  d.severity = to_lsp_severity(diagnostic.severity);
  d.code = diagnostic.code;
  d.message = diagnostic.message;
  if (diagnostic.fix && diagnostic.fix->applicability != Applicability::DisplayOnly) {
    d.data = {{"title", diagnostic.fix->title},
              {"applicability", applicability_name(diagnostic.fix->applicability)},
              {"edits", to_text_edits(index, *diagnostic.fix, ending)}};
  }
  return d;
}

TextEdit replacement_edit(std::string_view before, std::string_view after) {
  size_t prefix = 0;
  size_t limit = std::min(before.size(), after.size());
  while (prefix < limit && before[prefix] == after[prefix]) ++prefix;
  while (prefix > 0 && prefix < before.size() && is_continuation(before[prefix])) --prefix;
  size_t suffix = 0;
  limit -= prefix;
  while (suffix < limit && before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix]) ++suffix;
  while (suffix > 0 && is_continuation(before[before.size() - suffix])) --suffix;
  LineIndex index(before);
  TextRange replaced{static_cast<uint32_t>(prefix), static_cast<uint32_t>(before.size() - suffix)};
  return {to_range(index, replaced), std::string(after.substr(prefix, after.size() - suffix - prefix))};
}

bool ranges_touch(const Range& a, const Range& b) { return !(a.end < b.start) && !(b.end < a.start); }

}  // namespace fxlint::lsp

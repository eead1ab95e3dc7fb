#pragma once
// Between the core's byte ranges and LSP positions (0-based line, UTF-16
// column): diagnostics, fixes as text edits, and a rewritten text as one edit.
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "core/line_index.h"
#include "lsp/protocol.h"
#include "rewriter/text_style.h"

namespace fxlint::lsp {

Position to_position(const LineIndex& index, uint32_t offset);
Range to_range(const LineIndex& index, TextRange range);

// Fix edits are written with `\n`; `ending` is the document's own.
std::vector<TextEdit> to_text_edits(const LineIndex& index, const Fix& fix, LineEnding ending);

// Severity, code, and the fix (when it has one) in
// `data` as {title, applicability, edits}.
LspDiagnostic to_lsp_diagnostic(const LineIndex& index, const Diagnostic& diagnostic, LineEnding ending);

// The single edit that turns `before` into `after`: the differing middle, cut
// at UTF-8 character boundaries so positions stay valid.
TextEdit replacement_edit(std::string_view before, std::string_view after);

// Whether two ranges share a position (touching ends count, so a cursor at
// either end of a diagnostic finds it).
bool ranges_touch(const Range& a, const Range& b);

}  // namespace fxlint::lsp

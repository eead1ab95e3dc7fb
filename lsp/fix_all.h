#pragma once
// "Fix all" for one open document, as `fxlint fix` does it: safe fixes applied
// with the rewriter's overlap policy, relinted and applied again until nothing
// changes, and dropped entirely if they would break the syntax or lose a
// comment. The other open documents and the workspace are linted alongside
// (unchanged) so that cross-file compile regions stay what the diagnostics showed.
#include <optional>
#include <span>
#include <string>

#include "lsp/document_store.h"
#include "lsp/document_linter.h"
#include "lsp/workspace.h"

namespace fxlint::lsp {

// The fixed text, or nullopt when there is nothing safe to fix (or the fixes
// were refused by the loop's checks). Uses `linter` (and its parsed files):
// no lint may run meanwhile.
std::optional<std::string> fix_all_safe(const Document& document, std::span<const Document* const> open,
                                        DocumentLinter& linter, const Workspace& workspace);

}  // namespace fxlint::lsp

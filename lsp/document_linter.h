#pragma once
// Lints the open documents with check_sources, together so that compile
// regions reach across them (a model in one file calling a helper in another).
// No JSON here: byte ranges in, core Diagnostics out.
#include <span>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "lsp/document_store.h"
#include "lsp/file_settings.h"

namespace fxlint::lsp {

struct LintedDocument {
  const Document* document = nullptr;
  std::vector<Diagnostic> diagnostics;  // sorted by position, then code
};

struct LintRun {
  std::vector<LintedDocument> documents;  // in the order given
  std::vector<std::string> settings_errors;  // settings that failed, "path: message"
};

// Documents whose settings share the CheckOptions are linted in one call;
// documents without a path get the default settings.
LintRun lint_documents(std::span<const Document* const> documents, const FileSettingsProvider& settings);

}  // namespace fxlint::lsp

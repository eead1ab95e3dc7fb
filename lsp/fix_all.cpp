#include "lsp/fix_all.h"

#include "rewriter/fix_loop.h"

namespace fxlint::lsp {

std::optional<std::string> fix_all_safe(const Document& document, std::span<const Document* const> open,
                                        DocumentLinter& linter, const Workspace& workspace) {
  LintFunction lint = [&](std::span<const std::string> texts) {
    Document candidate = document;
    candidate.text = texts.empty() ? document.text : texts[0];
    std::vector<const Document*> documents = {&candidate};
    for (const Document* d : open) {
      if (d->uri != document.uri) documents.push_back(d);
    }
    LintRun run = linter.lint(documents, workspace);
    return std::vector<std::vector<Diagnostic>>{std::move(run.documents.front().diagnostics)};
  };
  FixLoopOptions options;
  options.mode = FixMode::SafeOnly;
  std::vector<FileFixResult> results =
      fix_until_stable({{document.path.value_or(document.uri), document.text}}, lint, options);
  if (results.empty() || results[0].status != FixStatus::Fixed) return std::nullopt;
  return std::move(results[0].fixed);
}

}  // namespace fxlint::lsp

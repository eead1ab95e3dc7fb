#pragma once
// Lints the open documents together with the workspace's files on disk, so
// that compile regions reach across them (a model in one file calling a
// helper in another, open or not). Keeps a CheckSession: unchanged files are
// not parsed again, and an edited document is reparsed incrementally. Only
// the open documents get diagnostics.
// No JSON here: byte ranges in, core Diagnostics out.
#include <map>
#include <span>
#include <string>
#include <vector>

#include "core/cancel.h"
#include "core/diagnostic.h"
#include "lsp/document_store.h"
#include "lsp/file_settings.h"
#include "lsp/workspace.h"
#include "rules/check_session.h"

namespace fxlint::lsp {

struct LintedDocument {
  const Document* document = nullptr;
  std::vector<Diagnostic> diagnostics;  // sorted by position, then code
};

struct LintRun {
  std::vector<LintedDocument> documents;  // in the order given
  std::vector<std::string> settings_errors;  // settings that failed, "path: message"
  size_t files_analysed = 0;  // open documents and workspace files together
  size_t files_parsed = 0;    // of those, parsed (in full or incrementally) by this run
};

class DocumentLinter {
 public:
  explicit DocumentLinter(FileSettingsProvider settings) : settings_(std::move(settings)) {}

  // An open document's settings are resolved on every lint (an edited config
  // applies at once); a workspace file's are kept until forget_settings().
  // `cancel`, when set by another thread meanwhile, stops the lint with CheckCancelled.
  LintRun lint(std::span<const Document* const> documents, const Workspace& workspace,
               const CancelFlag* cancel = nullptr);
  void forget_settings() { workspace_.clear(); }

 private:
  struct Resolved {
    FileSettingsForLsp settings;
    std::string error;  // why the defaults are used, "" when they are not
  };
  Resolved resolve(const std::string& path) const;

  // A workspace file as the sessions take it, kept between lints so that its
  // text is not copied again while it is unchanged.
  struct WorkspaceInput {
    Resolved resolved;
    SourceInput source;
    uint64_t revision = 0;
  };

  FileSettingsProvider settings_;
  std::map<std::string, WorkspaceInput> workspace_;  // by path
  CheckSession session_;
};

}  // namespace fxlint::lsp

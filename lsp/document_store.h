#pragma once
// The documents the editor has open: their text as the editor holds it (not
// as on disk) and version. Changes arrive either as the full new text or as
// range replacements in LSP positions (0-based line, UTF-16 column).
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lsp/protocol.h"

namespace fxlint::lsp {

struct Document {
  std::string uri;
  std::optional<std::string> path;  // for file:// URIs
  int version = 0;
  std::string text;
  uint64_t revision = 0;  // grows with every change of the text, versioned or not
};

// Applies one change to `text`: a full replacement, or a range replacement whose
// positions are resolved against the text as it is before this change.
// Throws LspError(InvalidParams) when the range ends before it starts.
void apply_content_change(std::string& text, const TextDocumentContentChangeEvent& change);
// Applies `changes` in order, each against the text the previous one left; the
// same text as apply_content_change one by one, in one pass over a large text
// for a run of edits close together. Throws, leaving `text` as it was, when a
// range ends before it starts.
void apply_content_changes(std::string& text, std::span<const TextDocumentContentChangeEvent> changes);

class DocumentStore {
 public:
  // Opening an already open URI replaces it, as a client that lost track would expect.
  const Document& open(const std::string& uri, int version, std::string text);
  // Applies `changes` in order. Throws LspError(InvalidParams) for an unknown
  // URI or a bad range; the document is then left unchanged. The version is
  // taken at once; the text is brought up to date when the document is read
  // next (find, all), so a burst of keystrokes handled before the next lint
  // costs one pass over the text, not one per keystroke.
  void change(const std::string& uri, std::optional<int> version,
              std::span<const TextDocumentContentChangeEvent> changes);
  // Replaces the text (didSave with includeText). Throws for an unknown URI.
  const Document& set_text(const std::string& uri, std::string text);
  // False when the URI was not open.
  bool close(const std::string& uri);

  const Document* find(const std::string& uri) const;
  // Every open document, in URI order.
  std::vector<const Document*> all() const;

 private:
  struct Entry {
    Document document;
    std::vector<TextDocumentContentChangeEvent> unapplied;  // to apply to document.text, in order
  };
  const Document& up_to_date(Entry& entry) const;

  // Mutable: reading applies the changes not applied yet, which a reader cannot tell.
  mutable std::map<std::string, Entry> documents_;
  uint64_t revisions_ = 0;
};

}  // namespace fxlint::lsp

#include "lsp/document_store.h"

#include "core/line_index.h"
#include "lsp/lsp_error.h"
#include "lsp/uri.h"

namespace fxlint::lsp {

void apply_content_change(std::string& text, const TextDocumentContentChangeEvent& change) {
  if (!change.range) {
    text = change.text;
    return;
  }
  const Range& r = *change.range;
  if (r.end < r.start) throw LspError(ErrorCode::InvalidParams, "change range ends before it starts");
  LineIndex index(text);
  uint32_t start = index.offset_of_utf16(r.start.line, r.start.character);
  uint32_t end = index.offset_of_utf16(r.end.line, r.end.character);
  text.replace(start, end - start, change.text);
}

const Document& DocumentStore::open(const std::string& uri, int version, std::string text) {
  Document& d = documents_[uri];
  d.uri = uri;
  d.path = uri_to_path(uri);
  d.version = version;
  d.text = std::move(text);
  d.revision = ++revisions_;
  return d;
}

const Document& DocumentStore::change(const std::string& uri, std::optional<int> version,
                                      std::span<const TextDocumentContentChangeEvent> changes) {
  auto it = documents_.find(uri);
  if (it == documents_.end()) throw LspError(ErrorCode::InvalidParams, "document is not open: " + uri);
  std::string text = it->second.text;  // all changes or none
  for (const TextDocumentContentChangeEvent& c : changes) apply_content_change(text, c);
  it->second.text = std::move(text);
  if (version) it->second.version = *version;
  it->second.revision = ++revisions_;
  return it->second;
}

const Document& DocumentStore::set_text(const std::string& uri, std::string text) {
  auto it = documents_.find(uri);
  if (it == documents_.end()) throw LspError(ErrorCode::InvalidParams, "document is not open: " + uri);
  it->second.text = std::move(text);
  it->second.revision = ++revisions_;
  return it->second;
}

bool DocumentStore::close(const std::string& uri) { return documents_.erase(uri) > 0; }

const Document* DocumentStore::find(const std::string& uri) const {
  auto it = documents_.find(uri);
  return it == documents_.end() ? nullptr : &it->second;
}

std::vector<const Document*> DocumentStore::all() const {
  std::vector<const Document*> out;
  for (const auto& [uri, d] : documents_) out.push_back(&d);
  return out;
}

}  // namespace fxlint::lsp

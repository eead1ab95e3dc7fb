#include "lsp/document_store.h"

#include <cstring>
#include <utility>

#include "core/line_index.h"
#include "lsp/lsp_error.h"
#include "lsp/uri.h"

namespace fxlint::lsp {

namespace {

// Byte offsets of LSP positions. A keystroke in a large file must not cost a
// line index of the whole text: without CR line breaks (almost every file) the
// lines are found with memchr up to the position; otherwise a LineIndex.
std::pair<uint32_t, uint32_t> offsets_of(std::string_view text, const Range& r) {
  if (text.find('\r') != std::string_view::npos) {
    LineIndex index(text);
    return {index.offset_of_utf16(r.start.line, r.start.character), index.offset_of_utf16(r.end.line, r.end.character)};
  }
  // The start of the line `lines` below the one starting at `at` (npos past the end).
  auto skip_lines = [&](size_t at, uint32_t lines) -> size_t {
    for (uint32_t l = 0; l < lines && at != std::string_view::npos; ++l) {
      const void* nl = std::memchr(text.data() + at, '\n', text.size() - at);
      at = nl ? static_cast<size_t>(static_cast<const char*>(nl) - text.data()) + 1 : std::string_view::npos;
    }
    return at;
  };
  auto offset = [&](size_t start, uint32_t column) -> uint32_t {
    if (start == std::string_view::npos) return static_cast<uint32_t>(text.size());
    LineIndex line(text.substr(start, text.find('\n', start) - start));  // one line: cheap
    return static_cast<uint32_t>(start + line.offset_of_utf16(0, column));
  };
  size_t start_line = skip_lines(0, r.start.line);
  size_t end_line = skip_lines(start_line, r.end.line - r.start.line);  // usually the same line
  uint32_t start = offset(start_line, r.start.character);
  return {start, offset(end_line, r.end.character)};
}

}  // namespace

void apply_content_change(std::string& text, const TextDocumentContentChangeEvent& change) {
  if (!change.range) {
    text = change.text;
    return;
  }
  const Range& r = *change.range;
  if (r.end < r.start) throw LspError(ErrorCode::InvalidParams, "change range ends before it starts");
  auto [start, end] = offsets_of(text, r);
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
  if (changes.size() == 1) {
    apply_content_change(it->second.text, changes[0]);  // throws before changing anything
  } else {
    std::string text = it->second.text;  // all changes or none
    for (const TextDocumentContentChangeEvent& c : changes) apply_content_change(text, c);
    it->second.text = std::move(text);
  }
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

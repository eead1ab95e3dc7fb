#include "lsp/document_store.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "core/line_index.h"
#include "lsp/lsp_error.h"
#include "lsp/uri.h"

namespace fxlint::lsp {

namespace {

constexpr size_t npos = std::string_view::npos;

// The start of the line `lines` below the one holding offset `at` (npos past the end).
template <typename Text>
size_t skip_lines(const Text& text, size_t at, uint32_t lines) {
  for (uint32_t l = 0; l < lines && at != npos; ++l) {
    size_t nl = text.find_newline(at);
    at = nl == npos ? npos : nl + 1;
  }
  return at;
}

// A text read as lf_offsets reads it: where a line starts, where the next
// '\n' is, and one line.
struct FlatText {
  std::string_view text;
  size_t size() const { return text.size(); }
  size_t find_newline(size_t from) const {
    const void* nl = std::memchr(text.data() + from, '\n', text.size() - from);
    return nl ? static_cast<size_t>(static_cast<const char*>(nl) - text.data()) : npos;
  }
  size_t line_start(uint32_t line) const { return skip_lines(*this, 0, line); }
  std::string_view line(size_t start, size_t end) const { return text.substr(start, end - start); }
};

// A text with a gap where it was last edited (a gap buffer): an edit next to
// the previous one moves only the bytes between the two, where
// std::string::replace moves every byte after the edit, which for a
// keystroke near the top of a large file is the whole file. The line of the
// gap is kept, so that finding the line of the next edit starts there.
class GapText {
 public:
  explicit GapText(std::string text) : buf_(std::move(text)) {}

  size_t size() const { return buf_.size() - gap(); }
  size_t find_newline(size_t from) const {
    if (from < gap_start_) {
      if (const void* nl = std::memchr(buf_.data() + from, '\n', gap_start_ - from)) {
        return static_cast<size_t>(static_cast<const char*>(nl) - buf_.data());
      }
      from = gap_start_;
    }
    size_t at = from + gap();
    const void* nl = std::memchr(buf_.data() + at, '\n', buf_.size() - at);
    return nl ? static_cast<size_t>(static_cast<const char*>(nl) - buf_.data()) - gap() : npos;
  }
  size_t line_start(uint32_t line) const {
    if (line > gap_line_) return skip_lines(*this, gap_start_, line - gap_line_);
    // Back from the gap, past one more line break than lines to go back.
    size_t breaks = gap_line_ - line + 1;
    for (size_t i = gap_start_; i-- > 0;) {
      if (buf_[i] == '\n' && --breaks == 0) return i + 1;
    }
    return 0;
  }
  std::string line(size_t start, size_t end) const {
    end = std::min(end, size());
    std::string out;
    if (start < gap_start_) out.append(buf_, start, std::min(end, gap_start_) - start);
    if (end > gap_start_) {
      size_t from = std::max(start, gap_start_);
      out.append(buf_, from + gap(), end - from);
    }
    return out;
  }

  void replace(size_t start, size_t end, std::string_view with) {
    move_gap(end);
    gap_line_ -= line_breaks(buf_.data() + start, end - start);
    gap_start_ = start;  // the replaced bytes join the gap
    if (gap() < with.size()) {
      // Room for this and many more keystrokes: the bytes after the gap move once.
      size_t grow = with.size() + std::max<size_t>(4096, size() / 16);
      buf_.insert(gap_end_, grow, '\0');
      gap_end_ += grow;
    }
    std::memcpy(buf_.data() + gap_start_, with.data(), with.size());
    gap_start_ += with.size();
    gap_line_ += line_breaks(with.data(), with.size());
  }
  std::string take() && {
    buf_.erase(gap_start_, gap());
    return std::move(buf_);
  }

 private:
  static size_t line_breaks(const char* p, size_t n) { return static_cast<size_t>(std::count(p, p + n, '\n')); }
  size_t gap() const { return gap_end_ - gap_start_; }
  void move_gap(size_t to) {
    if (to < gap_start_) {
      size_t n = gap_start_ - to;
      gap_line_ -= line_breaks(buf_.data() + to, n);
      std::memmove(buf_.data() + gap_end_ - n, buf_.data() + to, n);
      gap_start_ -= n;
      gap_end_ -= n;
    } else if (to > gap_start_) {
      size_t n = to - gap_start_;
      gap_line_ += line_breaks(buf_.data() + gap_end_, n);
      std::memmove(buf_.data() + gap_start_, buf_.data() + gap_end_, n);
      gap_start_ += n;
      gap_end_ += n;
    }
  }

  std::string buf_;
  size_t gap_start_ = 0;  // the gap starts empty, at the top
  size_t gap_end_ = 0;
  size_t gap_line_ = 0;  // line breaks before the gap
};

// Byte offsets of LSP positions in a text without CR line breaks. A keystroke
// in a large file must not cost a line index of the whole text: the lines are
// found with memchr up to the position.
template <typename Text>
std::pair<uint32_t, uint32_t> lf_offsets(const Text& text, const Range& r) {
  auto offset = [&](size_t start, uint32_t column) -> uint32_t {
    if (start == npos) return static_cast<uint32_t>(text.size());
    auto line = text.line(start, text.find_newline(start));  // one line: cheap to index
    return static_cast<uint32_t>(start + LineIndex(line).offset_of_utf16(0, column));
  };
  size_t start_line = text.line_start(r.start.line);
  size_t end_line = skip_lines(text, start_line, r.end.line - r.start.line);  // usually the same line
  uint32_t start = offset(start_line, r.start.character);
  return {start, std::max(start, offset(end_line, r.end.character))};
}

std::pair<uint32_t, uint32_t> offsets_of(std::string_view text, const Range& r) {
  if (text.find('\r') != npos) {
    LineIndex index(text);
    return {index.offset_of_utf16(r.start.line, r.start.character), index.offset_of_utf16(r.end.line, r.end.character)};
  }
  return lf_offsets(FlatText{text}, r);
}

void check_ranges(std::span<const TextDocumentContentChangeEvent> changes) {
  for (const TextDocumentContentChangeEvent& c : changes) {
    if (c.range && c.range->end < c.range->start) {
      throw LspError(ErrorCode::InvalidParams, "change range ends before it starts");
    }
  }
}

}  // namespace

void apply_content_change(std::string& text, const TextDocumentContentChangeEvent& change) {
  if (!change.range) {
    text = change.text;
    return;
  }
  check_ranges({&change, 1});
  auto [start, end] = offsets_of(text, *change.range);
  text.replace(start, end - start, change.text);
}

void apply_content_changes(std::string& text, std::span<const TextDocumentContentChangeEvent> changes) {
  check_ranges(changes);
  // CR line breaks need a line index per change, which costs more than moving the text.
  bool cr = text.find('\r') != npos || std::any_of(changes.begin(), changes.end(), [](const auto& c) {
              return c.text.find('\r') != npos;
            });
  if (changes.size() < 2 || cr) {
    for (const TextDocumentContentChangeEvent& c : changes) apply_content_change(text, c);
    return;
  }
  GapText edited(std::move(text));
  for (const TextDocumentContentChangeEvent& c : changes) {
    if (!c.range) {
      edited = GapText(c.text);
      continue;
    }
    auto [start, end] = lf_offsets(edited, *c.range);
    edited.replace(start, end, c.text);
  }
  text = std::move(edited).take();
}

const Document& DocumentStore::open(const std::string& uri, int version, std::string text) {
  Entry& e = documents_[uri];
  e.unapplied.clear();
  Document& d = e.document;
  d.uri = uri;
  d.path = uri_to_path(uri);
  d.version = version;
  d.text = std::move(text);
  d.revision = ++revisions_;
  return d;
}

void DocumentStore::change(const std::string& uri, std::optional<int> version,
                           std::span<const TextDocumentContentChangeEvent> changes) {
  auto it = documents_.find(uri);
  if (it == documents_.end()) throw LspError(ErrorCode::InvalidParams, "document is not open: " + uri);
  check_ranges(changes);  // all changes or none
  Entry& e = it->second;
  for (const TextDocumentContentChangeEvent& c : changes) {
    if (!c.range) e.unapplied.clear();  // a full text makes the earlier changes moot
    e.unapplied.push_back(c);
  }
  if (version) e.document.version = *version;
  e.document.revision = ++revisions_;
}

const Document& DocumentStore::set_text(const std::string& uri, std::string text) {
  auto it = documents_.find(uri);
  if (it == documents_.end()) throw LspError(ErrorCode::InvalidParams, "document is not open: " + uri);
  it->second.unapplied.clear();
  it->second.document.text = std::move(text);
  it->second.document.revision = ++revisions_;
  return it->second.document;
}

bool DocumentStore::close(const std::string& uri) { return documents_.erase(uri) > 0; }

const Document& DocumentStore::up_to_date(Entry& entry) const {
  if (!entry.unapplied.empty()) {
    apply_content_changes(entry.document.text, entry.unapplied);
    entry.unapplied.clear();
  }
  return entry.document;
}

const Document* DocumentStore::find(const std::string& uri) const {
  auto it = documents_.find(uri);
  return it == documents_.end() ? nullptr : &up_to_date(it->second);
}

std::vector<const Document*> DocumentStore::all() const {
  std::vector<const Document*> out;
  for (auto& [uri, e] : documents_) out.push_back(&up_to_date(e));
  return out;
}

}  // namespace fxlint::lsp

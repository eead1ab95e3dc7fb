#include "core/line_index.h"

#include <algorithm>

namespace fxlint {

namespace {
bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }
}  // namespace

LineIndex::LineIndex(std::string_view text) : text_(text) {
  starts_.push_back(0);
  for (uint32_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      starts_.push_back(i + 1);
    } else if (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n')) {
      starts_.push_back(i + 1);  // a lone CR ends a line too, as in Python
    }
  }
}

uint32_t LineIndex::line_of(uint32_t offset) const {
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  return static_cast<uint32_t>(it - starts_.begin()) - 1;
}

uint32_t LineIndex::line_start(uint32_t line) const {
  if (line >= starts_.size()) return static_cast<uint32_t>(text_.size());
  return starts_[line];
}

uint32_t LineIndex::line_end(uint32_t line) const {
  uint32_t end = line + 1 < starts_.size() ? starts_[line + 1] : static_cast<uint32_t>(text_.size());
  while (end > line_start(line) && (text_[end - 1] == '\n' || text_[end - 1] == '\r')) --end;
  return end;
}

SourceLocation LineIndex::location(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  uint32_t line = line_of(offset);
  uint32_t column = 1;
  for (uint32_t i = starts_[line]; i < offset; ++i) {
    if (!is_continuation(static_cast<unsigned char>(text_[i]))) ++column;
  }
  return {line + 1, column};
}

uint32_t LineIndex::utf16_column(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  uint32_t line = line_of(offset);
  uint32_t units = 0;
  for (uint32_t i = starts_[line]; i < offset; ++i) {
    unsigned char c = static_cast<unsigned char>(text_[i]);
    if (is_continuation(c)) continue;
    units += (c >= 0xF0) ? 2 : 1;  // 4-byte sequences are surrogate pairs
  }
  return units;
}

uint32_t LineIndex::offset_of_utf16(uint32_t line, uint32_t utf16_column) const {
  if (line >= starts_.size()) return static_cast<uint32_t>(text_.size());
  uint32_t i = starts_[line];
  uint32_t end = line_end(line);
  uint32_t units = 0;
  while (i < end && units < utf16_column) {
    unsigned char c = static_cast<unsigned char>(text_[i]);
    units += (c >= 0xF0) ? 2 : 1;
    ++i;
    while (i < end && is_continuation(static_cast<unsigned char>(text_[i]))) ++i;
  }
  return i;
}

std::string_view LineIndex::line_text(uint32_t line) const {
  uint32_t s = line_start(line);
  return text_.substr(s, line_end(line) - s);
}

}  // namespace fxlint

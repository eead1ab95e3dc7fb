#pragma once
// Maps byte offsets to 1-based rows and columns (in characters, or in UTF-16
// units for LSP) and back. Built once per text; O(log lines) per lookup.
#include <cstdint>
#include <string_view>
#include <vector>

namespace fxlint {

struct SourceLocation {
  uint32_t row = 1;     // 1-based
  uint32_t column = 1;  // 1-based, in Unicode code points
};

class LineIndex {
 public:
  explicit LineIndex(std::string_view text);

  // 0-based line containing `offset`.
  uint32_t line_of(uint32_t offset) const;
  // Byte offset where 0-based `line` starts.
  uint32_t line_start(uint32_t line) const;
  // Byte offset one past the last character of `line`, before its newline.
  uint32_t line_end(uint32_t line) const;
  uint32_t line_count() const { return static_cast<uint32_t>(starts_.size()); }

  SourceLocation location(uint32_t offset) const;
  // 0-based UTF-16 column of `offset` within its line (LSP positions).
  uint32_t utf16_column(uint32_t offset) const;
  // Byte offset of a 0-based line and UTF-16 column, clamped to the line.
  uint32_t offset_of_utf16(uint32_t line, uint32_t utf16_column) const;
  std::string_view line_text(uint32_t line) const;

 private:
  std::string_view text_;
  std::vector<uint32_t> starts_;
};

}  // namespace fxlint

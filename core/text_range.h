#pragma once
// Half-open byte range [start, end) into a file's UTF-8 text. Lines, columns and
// UTF-16 units exist only at the output edges (see line_index.h).
#include <cstdint>

namespace fxlint {

struct TextRange {
  uint32_t start = 0;
  uint32_t end = 0;

  uint32_t length() const { return end - start; }
  bool empty() const { return start == end; }
  bool contains(const TextRange& other) const { return start <= other.start && other.end <= end; }
  bool overlaps(const TextRange& other) const { return start < other.end && other.start < end; }
  friend bool operator==(const TextRange&, const TextRange&) = default;
};

}  // namespace fxlint

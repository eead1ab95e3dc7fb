#pragma once
// Where a diagnostic starts and ends, in rows and character columns.
#include "core/diagnostic.h"
#include "core/line_index.h"

namespace fxlint::cli {

struct Span {
  SourceLocation start;
  SourceLocation end;
};

inline Span span_of(const LineIndex& lines, TextRange range) {
  return {lines.location(range.start), lines.location(range.end)};
}

}  // namespace fxlint::cli

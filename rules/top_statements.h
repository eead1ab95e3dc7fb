#pragma once
// The top-level statement that holds each function of a file. A function's
// analysis reads the text of its own top-level statement (its decorators,
// enclosing class and functions included) and, beyond it, only what the file's
// interface holds (analyzer/file_interface.h): so, while the project's
// interfaces stay the same, a function whose top-level statement is unchanged
// walks and finds the same as before, and a session keeps its results between
// edits.
#include <cstdint>
#include <vector>

#include "analyzer/file_model.h"
#include "core/text_range.h"

namespace fxlint {

struct TopStatement {
  TextRange range;
  uint64_t text_hash = 0;  // of its text and the index of its first function
  int first = 0, end = 0;  // its functions: indices [first, end)
};

struct TopStatements {
  std::vector<TopStatement> statements;
  // Function index -> its statement, or -1 when that statement's functions do
  // not have consecutive indices (they are then analysed afresh every time).
  std::vector<int> of_function;
};

TopStatements top_statements(const FileModel& model);

}  // namespace fxlint

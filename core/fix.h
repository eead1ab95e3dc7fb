#pragma once
// A fix is a set of byte-range edits applied together (all or nothing), with an
// applicability that says when it may be applied without asking.
#include <string>
#include <vector>

#include "core/text_range.h"

namespace fxlint {

struct Edit {
  TextRange range;      // text replaced; empty for an insertion
  std::string content;  // replacement; empty for a deletion
  friend bool operator==(const Edit&, const Edit&) = default;
};

enum class Applicability {
  DisplayOnly,  // shown, never applied
  Unsafe,       // applied only with --unsafe-fixes: may change behavior
  Safe,         // same results for every input
};

struct Fix {
  std::string title;  // imperative, e.g. "Replace `if` with `torch.where`"
  Applicability applicability = Applicability::Safe;
  std::vector<Edit> edits;  // sorted by range.start, non-overlapping

  // The smallest range covering every edit.
  TextRange span() const {
    if (edits.empty()) return {};
    TextRange r = edits.front().range;
    for (const Edit& e : edits) {
      if (e.range.start < r.start) r.start = e.range.start;
      if (e.range.end > r.end) r.end = e.range.end;
    }
    return r;
  }
};

inline const char* applicability_name(Applicability a) {
  switch (a) {
    case Applicability::DisplayOnly: return "display-only";
    case Applicability::Unsafe: return "unsafe";
    case Applicability::Safe: return "safe";
  }
  return "safe";
}

}  // namespace fxlint

#pragma once
// Builders for toy diagnostics with fixes, so tests state edits by offsets.
#include <string>
#include <vector>

#include "core/diagnostic.h"

namespace fxlint::test {

inline Edit edit(uint32_t start, uint32_t end, std::string content) {
  return Edit{{start, end}, std::move(content)};
}

inline Diagnostic with_fix(std::string code, std::vector<Edit> edits,
                           Applicability applicability = Applicability::Safe) {
  Diagnostic d;
  d.code = std::move(code);
  d.message = "toy";
  d.range = edits.empty() ? TextRange{} : edits.front().range;
  d.fix = Fix{"toy fix " + d.code, applicability, std::move(edits)};
  return d;
}

inline Diagnostic without_fix(std::string code, TextRange range) {
  Diagnostic d;
  d.code = std::move(code);
  d.message = "toy";
  d.range = range;
  return d;
}

}  // namespace fxlint::test

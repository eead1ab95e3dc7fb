#pragma once
// One finding in one file. Codes are the catalog's ("FX101"); severity is the
// one the active target gives the rule.
#include <optional>
#include <string>

#include "core/fix.h"
#include "core/text_range.h"

namespace fxlint {

enum class Severity { Off, Warning, Error };

inline const char* severity_name(Severity s) {
  switch (s) {
    case Severity::Off: return "off";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

struct Diagnostic {
  std::string code;     // "FX101"
  std::string message;  // one sentence, no trailing period
  TextRange range;
  Severity severity = Severity::Error;
  std::optional<Fix> fix;
};

}  // namespace fxlint

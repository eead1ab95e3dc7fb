// The closing line of the human-readable formats.
#include <ostream>

#include "cli/output/output_format.h"

namespace fxlint::cli {

void write_summary(std::span<const FileResult> files, std::ostream& out) {
  size_t total = 0, warnings = 0, safe = 0, unsafe = 0;
  for (const FileResult& f : files) {
    for (const Diagnostic& d : f.diagnostics) {
      ++total;
      if (d.severity == Severity::Warning) ++warnings;
      if (!d.fix) continue;
      if (d.fix->applicability == Applicability::Safe) ++safe;
      if (d.fix->applicability == Applicability::Unsafe) ++unsafe;
    }
  }
  if (total == 0) {
    out << "All checks passed!\n";
    return;
  }
  // "N errors" as ruff says it, naming the warnings where there are some.
  size_t errors = total - warnings;
  out << "Found ";
  if (errors > 0 || warnings == 0) out << errors << (errors == 1 ? " error" : " errors");
  if (errors > 0 && warnings > 0) out << " and ";
  if (warnings > 0) out << warnings << (warnings == 1 ? " warning" : " warnings");
  if (safe > 0 && unsafe > 0) {
    out << " (" << safe << " fixable with `fxlint fix --apply`, " << unsafe
        << " more with `--unsafe-fixes`)";
  } else if (safe > 0) {
    out << " (" << safe << " fixable with `fxlint fix --apply`)";
  } else if (unsafe > 0) {
    out << " (" << unsafe << " fixable with `fxlint fix --apply --unsafe-fixes`)";
  }
  out << ".\n";
}

}  // namespace fxlint::cli

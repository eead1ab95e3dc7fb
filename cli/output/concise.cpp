// `path:row:col: CODE [*] message`, one line per diagnostic ([*] when a safe fix exists).
#include <ostream>

#include "cli/output/output_format.h"
#include "cli/output/diagnostic_header.h"
#include "cli/output/position.h"
#include "cli/output/style.h"

namespace fxlint::cli {

void write_concise(std::span<const FileResult> files, const OutputOptions& options, std::ostream& out) {
  Style style(options.color);
  for (const FileResult& f : files) {
    if (f.diagnostics.empty()) continue;  // spare indexing the lines of a clean file
    LineIndex lines(f.text);
    for (const Diagnostic& d : f.diagnostics) write_diagnostic_header(f, lines, d, style, out);
  }
}

void write_diagnostic_header(const FileResult& file, const LineIndex& lines, const Diagnostic& d,
                             const Style& style, std::ostream& out) {
  SourceLocation at = lines.location(d.range.start);
  out << style.path(file.display_path) << ':' << at.row << ':' << at.column << ": "
      << style.severity(d.severity, d.code) << ' ';
  if (d.fix && d.fix->applicability == Applicability::Safe) out << style.fixable("[*]") << ' ';
  out << d.message << '\n';
}

}  // namespace fxlint::cli

// GitHub Actions workflow commands, one per diagnostic:
//   ::error file=PATH,line=R,col=C,endLine=R,endColumn=C,title=CODE::message
#include <ostream>

#include "cli/output/output_format.h"
#include "cli/output/position.h"

namespace fxlint::cli {

namespace {

// Escaping from the workflow-command spec: data escapes %, CR, LF; properties also : and ,.
std::string escape(std::string_view s, bool property) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      case ':': out += property ? "%3A" : ":"; break;
      case ',': out += property ? "%2C" : ","; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

void write_github(std::span<const FileResult> files, std::ostream& out) {
  for (const FileResult& f : files) {
    if (f.diagnostics.empty()) continue;  // spare indexing the lines of a clean file
    LineIndex lines(f.text);
    for (const Diagnostic& d : f.diagnostics) {
      Span s = span_of(lines, d.range);
      out << "::" << (d.severity == Severity::Warning ? "warning" : "error")
          << " file=" << escape(f.display_path, true) << ",line=" << s.start.row
          << ",col=" << s.start.column << ",endLine=" << s.end.row << ",endColumn=" << s.end.column
          << ",title=" << escape(d.code, true) << "::" << escape(d.message, false) << '\n';
    }
  }
}

}  // namespace fxlint::cli

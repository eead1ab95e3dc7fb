// A JSON array with ruff's field names (plus `severity`), so tools that read
// `ruff check --output-format json` read this too.
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/output/output_format.h"
#include "cli/output/position.h"

namespace fxlint::cli {

namespace {

nlohmann::json location_json(SourceLocation l) { return {{"row", l.row}, {"column", l.column}}; }

nlohmann::json fix_json(const LineIndex& lines, const Fix& fix) {
  nlohmann::json edits = nlohmann::json::array();
  for (const Edit& e : fix.edits) {
    Span s = span_of(lines, e.range);
    edits.push_back({{"content", e.content},
                     {"location", location_json(s.start)},
                     {"end_location", location_json(s.end)}});
  }
  nlohmann::json message = fix.title.empty() ? nlohmann::json(nullptr) : nlohmann::json(fix.title);
  return {{"applicability", applicability_name(fix.applicability)}, {"message", message}, {"edits", edits}};
}

}  // namespace

void write_json(std::span<const FileResult> files, std::ostream& out) {
  nlohmann::json all = nlohmann::json::array();
  for (const FileResult& f : files) {
    if (f.diagnostics.empty()) continue;  // spare indexing the lines of a clean file
    LineIndex lines(f.text);
    for (const Diagnostic& d : f.diagnostics) {
      Span s = span_of(lines, d.range);
      all.push_back({
          {"cell", nullptr},
          {"code", d.code},
          {"message", d.message},
          {"severity", severity_name(d.severity)},
          {"filename", f.path.string()},
          {"location", location_json(s.start)},
          {"end_location", location_json(s.end)},
          {"fix", d.fix ? fix_json(lines, *d.fix) : nlohmann::json(nullptr)},
          {"url", nullptr},
          {"noqa_row", s.start.row},
      });
    }
  }
  // Invalid UTF-8 (in a path, say) is replaced rather than aborting the output.
  out << all.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace fxlint::cli

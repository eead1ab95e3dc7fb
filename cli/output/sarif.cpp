// SARIF 2.1.0: one run whose driver lists every rule with its docs; results
// carry level (error / warning), region in character columns, and fixes.
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/output/file_uri.h"
#include "cli/output/output_format.h"
#include "cli/output/position.h"
#include "cli/version.h"

namespace fxlint::cli {

namespace {

nlohmann::json region_json(Span s) {
  return {{"startLine", s.start.row},
          {"startColumn", s.start.column},
          {"endLine", s.end.row},
          {"endColumn", s.end.column}};
}

nlohmann::json rules_json() {
  nlohmann::json rules = nlohmann::json::array();
  for (const RuleInfo& r : all_rules()) {
    nlohmann::json severities = nlohmann::json::object();
    for (Target t : {Target::Fx2Onnx, Target::Dynamo, Target::Export}) {
      severities[target_name(t)] = severity_name(r.severity_for(t));
    }
    std::string doc(r.doc.empty() ? r.summary : r.doc);
    rules.push_back({
        {"id", r.code},
        {"name", r.name},
        {"shortDescription", {{"text", r.summary}}},
        {"fullDescription", {{"text", doc}}},
        {"help", {{"text", doc}, {"markdown", doc}}},
        {"properties", {{"severity", severities}}},
    });
  }
  return rules;
}

nlohmann::json fix_json(const FileResult& f, const LineIndex& lines, const Fix& fix) {
  nlohmann::json replacements = nlohmann::json::array();
  for (const Edit& e : fix.edits) {
    replacements.push_back({{"deletedRegion", region_json(span_of(lines, e.range))},
                            {"insertedContent", {{"text", e.content}}}});
  }
  return {{"description", {{"text", fix.title}}},
          {"artifactChanges",
           {{{"artifactLocation", {{"uri", file_uri(f.path)}}}, {"replacements", replacements}}}}};
}

}  // namespace

void write_sarif(std::span<const FileResult> files, std::ostream& out) {
  nlohmann::json results = nlohmann::json::array();
  for (const FileResult& f : files) {
    if (f.diagnostics.empty()) continue;  // spare indexing the lines of a clean file
    LineIndex lines(f.text);
    for (const Diagnostic& d : f.diagnostics) {
      nlohmann::json result = {
          {"ruleId", d.code},
          {"level", d.severity == Severity::Warning ? "warning" : "error"},
          {"message", {{"text", d.message}}},
          {"locations",
           {{{"physicalLocation",
              {{"artifactLocation", {{"uri", file_uri(f.path)}}},
               {"region", region_json(span_of(lines, d.range))}}}}}},
      };
      if (std::optional<RuleId> id = find_rule(d.code)) result["ruleIndex"] = static_cast<int>(*id);
      if (d.fix && !d.fix->edits.empty()) result["fixes"] = {fix_json(f, lines, *d.fix)};
      results.push_back(std::move(result));
    }
  }
  nlohmann::json sarif = {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       {{{"tool",
          {{"driver",
            {{"name", "fxlint"},
             {"version", kVersion},
             {"rules", rules_json()}}}}},
         {"columnKind", "unicodeCodePoints"},
         {"results", results}}}},
  };
  out << sarif.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace fxlint::cli

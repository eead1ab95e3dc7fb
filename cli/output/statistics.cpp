// --statistics: how many diagnostics each rule produced, most frequent first.
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/output/output_format.h"

namespace fxlint::cli {

namespace {

struct Count {
  std::string code;
  std::string name;
  size_t count = 0;
  bool fixable = false;  // some diagnostic of this code has a safe fix
  bool errors = false;   // severities among its diagnostics: a target gives a
  bool warnings = false; // rule one, a per-file setting may give another
};

// "error", "warning", or "mixed" when a code has both.
std::string severity_of(const Count& c) {
  if (c.errors && c.warnings) return "mixed";
  return c.errors ? "error" : "warning";
}

std::vector<Count> count_by_code(std::span<const FileResult> files) {
  std::map<std::string, Count> by_code;
  for (const FileResult& f : files) {
    for (const Diagnostic& d : f.diagnostics) {
      Count& c = by_code[d.code];
      c.code = d.code;
      if (std::optional<RuleId> id = find_rule(d.code)) c.name = rule_info(*id).name;
      ++c.count;
      (d.severity == Severity::Error ? c.errors : c.warnings) = true;
      c.fixable = c.fixable || (d.fix && d.fix->applicability == Applicability::Safe);
    }
  }
  std::vector<Count> out;
  for (auto& [code, c] : by_code) out.push_back(c);
  std::stable_sort(out.begin(), out.end(), [](const Count& a, const Count& b) { return a.count > b.count; });
  return out;
}

}  // namespace

void write_statistics(OutputFormat format, std::span<const FileResult> files, std::ostream& out) {
  std::vector<Count> counts = count_by_code(files);
  if (format == OutputFormat::Json) {
    nlohmann::json all = nlohmann::json::array();
    for (const Count& c : counts) {
      all.push_back({{"code", c.code}, {"name", c.name}, {"count", c.count}, {"severity", severity_of(c)},
                     {"fixable", c.fixable}});
    }
    out << all.dump(2) << '\n';
    return;
  }
  size_t width = 0;
  bool any_fixable = false;
  for (const Count& c : counts) {
    width = std::max(width, std::to_string(c.count).size());
    any_fixable = any_fixable || c.fixable;
  }
  for (const Count& c : counts) {
    std::string n = std::to_string(c.count);
    out << std::string(width - n.size(), ' ') << n << '\t' << c.code << '\t' << severity_of(c) << '\t';
    if (any_fixable) out << (c.fixable ? "[*] " : "[ ] ");
    out << c.name << '\n';
  }
  write_summary(files, out);
}

}  // namespace fxlint::cli

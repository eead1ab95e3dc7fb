#include "rules/rule_page.h"

namespace fxlint {

std::string rule_page(const RuleInfo& r) {
  std::string out;
  std::string_view doc = r.doc;
  // The doc's own title stays first; the per-target severities follow it.
  if (doc.starts_with("# ")) {
    size_t nl = doc.find('\n');
    out += std::string(doc.substr(0, nl)) + "\n\n";
    doc = nl == std::string_view::npos ? "" : doc.substr(nl + 1);
    while (doc.starts_with("\n")) doc.remove_prefix(1);
  } else {
    out += "# " + std::string(r.code) + " " + std::string(r.name) + "\n\n";
  }
  out += "Severity:";
  for (Target t : kTargets) {
    out += std::string(t == Target::Fx2Onnx ? " " : ", ") + target_name(t) + " " + severity_name(r.severity_for(t));
  }
  out += "\n\n";
  if (doc.empty()) doc = r.summary;
  out += doc;
  if (!doc.ends_with('\n')) out += '\n';
  return out;
}

}  // namespace fxlint

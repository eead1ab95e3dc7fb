// The checks that run on compiled code, generated from rule_table.def's check
// column so that a rule's row is the only place that says which check reports
// it: one entry per check, in the order of the first row naming it, holding
// every rule that names it.
#include <algorithm>

#include "rules/check.h"

#include "analyzer/semantic_model.h"

namespace fxlint {

// make_<stem>() of each checks/<stem>.cpp (declared once per row naming it).
#define CHECKED_BY(stem) std::unique_ptr<Check> make_##stem(DiagnosticSink&, const CheckSettings&);
#define NO_CHECK
#define RULE(code, name, a, b, c, fix, check, summary) check
#include "rules/rule_table.def"
#undef CHECKED_BY
#undef NO_CHECK

namespace {

struct RuleCheck {
  RuleId rule;
  CheckFactory make;  // null for the rules the checker reports itself
};

constexpr RuleCheck kRuleChecks[] = {
#define CHECKED_BY(stem) make_##stem
#define NO_CHECK nullptr
#define RULE(code, name, a, b, c, fix, check, summary) {RuleId::code, check},
#include "rules/rule_table.def"
#undef CHECKED_BY
#undef NO_CHECK
};

}  // namespace

const std::vector<CheckEntry>& check_factories() {
  static const std::vector<CheckEntry> entries = [] {
    std::vector<CheckEntry> out;
    for (const RuleCheck& rc : kRuleChecks) {
      if (rc.make == nullptr) continue;
      auto it = std::find_if(out.begin(), out.end(), [&](const CheckEntry& e) { return e.make == rc.make; });
      if (it == out.end()) {
        out.push_back({{rc.rule}, rc.make});
      } else {
        it->rules.push_back(rc.rule);
      }
    }
    return out;
  }();
  return entries;
}

void DiagnosticSink::report(RuleId rule, TextRange range, std::string message, std::optional<Fix> fix) {
  const RuleInfo& info = rule_info(rule);
  if (!seen_.insert({rule, range}).second) return;
  if (fix && model_ && model_->made_traced_arrays()) fix.reset();
  diagnostics_.push_back({std::string(info.code), std::move(message), range, Severity::Error, std::move(fix)});
}

void DiagnosticSink::replay(Diagnostic d) {
  std::optional<RuleId> rule = find_rule(d.code);
  if (!rule || !seen_.insert({*rule, d.range}).second) return;
  diagnostics_.push_back(std::move(d));
}

}  // namespace fxlint

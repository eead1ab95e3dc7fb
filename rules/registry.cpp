#include "rules/registry.h"

#include <array>

namespace fxlint {

namespace detail {
extern const std::string_view kRuleDocs[];
}

namespace {

constexpr Severity E = Severity::Error;
constexpr Severity W = Severity::Warning;
constexpr Severity O = Severity::Off;

const std::array<RuleInfo, kRuleCount>& table() {
  static const std::array<RuleInfo, kRuleCount> rules = [] {
    std::array<RuleInfo, kRuleCount> r{{
#define CHECKED_BY(stem) #stem
#define NO_CHECK ""
#define RULE(code, name, a, b, c, fix, check, summary) \
  {RuleId::code, #code, name, summary, {a, b, c}, FixAvailability::fix, check, {}},
#include "rules/rule_table.def"
#undef CHECKED_BY
#undef NO_CHECK
    }};
    for (size_t i = 0; i < kRuleCount; ++i) r[i].doc = detail::kRuleDocs[i];
    return r;
  }();
  return rules;
}

}  // namespace

const char* fix_availability_name(FixAvailability f) {
  switch (f) {
    case FixAvailability::None: return "none";
    case FixAvailability::DisplayOnly: return "display-only";
    case FixAvailability::Safe: return "safe";
    case FixAvailability::Unsafe: return "unsafe";
    case FixAvailability::SafeOrUnsafe: return "safe / unsafe";
  }
  return "none";
}

std::span<const RuleInfo> all_rules() { return table(); }

const RuleInfo& rule_info(RuleId id) { return table()[static_cast<size_t>(id)]; }

std::optional<RuleId> find_rule(std::string_view code_or_name) {
  for (const RuleInfo& r : table()) {
    if (r.code == code_or_name || r.name == code_or_name) return r.id;
  }
  return std::nullopt;
}

std::optional<RuleSet> rules_matching(std::string_view selector) {
  RuleSet set;
  if (selector == "ALL") {
    set.set();
    return set;
  }
  for (const RuleInfo& r : table()) {
    if (r.code.starts_with(selector) || r.name == selector) set.set(static_cast<size_t>(r.id));
  }
  if (set.none()) return std::nullopt;
  return set;
}

RuleSet default_rules(Target target) {
  RuleSet set;
  for (const RuleInfo& r : table()) {
    if (r.severity_for(target) != Severity::Off) set.set(static_cast<size_t>(r.id));
  }
  return set;
}

std::optional<Target> parse_target(std::string_view name) {
  if (name == "fx2onnx") return Target::Fx2Onnx;
  if (name == "dynamo") return Target::Dynamo;
  if (name == "export") return Target::Export;
  return std::nullopt;
}

const char* target_name(Target t) {
  switch (t) {
    case Target::Fx2Onnx: return "fx2onnx";
    case Target::Dynamo: return "dynamo";
    case Target::Export: return "export";
  }
  return "fx2onnx";
}

}  // namespace fxlint

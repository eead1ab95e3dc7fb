#pragma once
// The rule catalog as data: codes, names, per-target severities and docs, all
// generated from rule_table.def.
#include <bitset>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/diagnostic.h"

namespace fxlint {

enum class Target { Fx2Onnx, Dynamo, Export };
inline constexpr Target kTargets[] = {Target::Fx2Onnx, Target::Dynamo, Target::Export};

enum class RuleId : uint8_t {
#define RULE(code, name, a, b, c, fix, check, summary) code,
#include "rules/rule_table.def"
  Count
};
constexpr size_t kRuleCount = static_cast<size_t>(RuleId::Count);

// What `fxlint fix` offers for a rule's findings (the fix column of
// rule_table.def). Safe, Unsafe and SafeOrUnsafe rules rewrite code;
// SafeOrUnsafe decides the applicability per finding.
enum class FixAvailability : uint8_t { None, DisplayOnly, Safe, Unsafe, SafeOrUnsafe };

// As docs/rules.md's catalog writes it: "none", "display-only", "safe",
// "unsafe", "safe / unsafe".
const char* fix_availability_name(FixAvailability f);

struct RuleInfo {
  RuleId id;
  std::string_view code;     // "FX101"
  std::string_view name;     // "tensor-item"
  std::string_view summary;  // one line
  Severity severity[3];      // indexed by Target
  FixAvailability fix;
  std::string_view check;    // stem of the check in rules/checks/; empty when the checker reports the rule
  std::string_view doc;      // Markdown, embedded from rules/docs/CODE.md

  Severity severity_for(Target t) const { return severity[static_cast<int>(t)]; }
};

std::span<const RuleInfo> all_rules();
const RuleInfo& rule_info(RuleId id);
// By code ("FX101") or name ("tensor-item"); nullopt when unknown.
std::optional<RuleId> find_rule(std::string_view code_or_name);

// A set of enabled rules.
using RuleSet = std::bitset<kRuleCount>;

// Rules matched by a selector: "ALL", "FX", a code prefix ("FX1", "FX10") or a
// full code. nullopt when the selector matches no rule.
std::optional<RuleSet> rules_matching(std::string_view selector);

// The rules a target turns on by default (those not `off` for it).
RuleSet default_rules(Target target);

std::optional<Target> parse_target(std::string_view name);
const char* target_name(Target t);

}  // namespace fxlint

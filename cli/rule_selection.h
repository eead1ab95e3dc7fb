#pragma once
// Which rules are on: the target's defaults, then each layer of
// select / extend-select / ignore (config first, then the command line), then
// per-file-ignores. Within a layer the more specific selector wins (`FX101`
// beats `FX1`), and on a tie `ignore` wins, as in ruff.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rules/registry.h"

namespace fxlint::cli {

struct RuleSelection {
  std::optional<std::vector<std::string>> select;  // replaces what earlier layers chose
  std::vector<std::string> extend_select;
  std::vector<std::string> ignore;
};

// "ALL", a code prefix starting "FX" that matches a rule, a full code, or a rule name.
bool is_valid_selector(std::string_view selector);

// Rules a selector turns on for `target`. "ALL" and prefixes skip rules that are
// off for the target; a full code or name turns its rule on regardless.
RuleSet selected_rules(std::string_view selector, Target target);

RuleSet resolve_rules(Target target, std::span<const RuleSelection> layers);

// `enabled` minus every rule matched by `selectors` (per-file-ignores).
RuleSet without_rules(RuleSet enabled, std::span<const std::string> selectors);

}  // namespace fxlint::cli

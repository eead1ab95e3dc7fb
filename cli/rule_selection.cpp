#include "cli/rule_selection.h"

namespace fxlint::cli {

namespace {

// How specific a selector is: "ALL" < "FX" < "FX1" < "FX10" < "FX101" == name.
int specificity(std::string_view selector) {
  if (selector == "ALL") return 0;
  if (find_rule(selector)) return 100;
  return static_cast<int>(selector.size());
}

bool names_one_rule(std::string_view selector) { return find_rule(selector).has_value(); }

}  // namespace

bool is_valid_selector(std::string_view selector) {
  if (selector == "ALL" || names_one_rule(selector)) return true;
  return selector.starts_with("FX") && rules_matching(selector).has_value();
}

RuleSet selected_rules(std::string_view selector, Target target) {
  if (auto id = find_rule(selector)) {
    RuleSet one;
    one.set(static_cast<size_t>(*id));
    return one;
  }
  std::optional<RuleSet> matched = rules_matching(selector);
  if (!matched) return {};
  return *matched & default_rules(target);
}

RuleSet resolve_rules(Target target, std::span<const RuleSelection> layers) {
  RuleSet enabled = default_rules(target);
  for (const RuleSelection& layer : layers) {
    RuleSet next;
    for (size_t i = 0; i < kRuleCount; ++i) {
      int best_on = -1;
      int best_off = -1;
      auto consider = [&](const std::vector<std::string>& selectors, int& best) {
        for (const std::string& s : selectors) {
          if (selected_rules(s, target).test(i)) best = std::max(best, specificity(s));
        }
      };
      if (layer.select) consider(*layer.select, best_on);
      consider(layer.extend_select, best_on);
      // An ignore matches a rule even where the target has it off.
      for (const std::string& s : layer.ignore) {
        std::optional<RuleSet> m = rules_matching(s);
        if (auto id = find_rule(s)) {
          m = RuleSet{};
          m->set(static_cast<size_t>(*id));
        }
        if (m && m->test(i)) best_off = std::max(best_off, specificity(s));
      }
      bool on;
      if (best_on < 0 && best_off < 0) {
        on = layer.select ? false : enabled.test(i);
      } else {
        on = best_on > best_off;
      }
      next.set(i, on);
    }
    enabled = next;
  }
  return enabled;
}

RuleSet without_rules(RuleSet enabled, std::span<const std::string> selectors) {
  for (const std::string& s : selectors) {
    if (auto id = find_rule(s)) {
      enabled.reset(static_cast<size_t>(*id));
    } else if (std::optional<RuleSet> m = rules_matching(s)) {
      enabled &= ~*m;
    }
  }
  return enabled;
}

}  // namespace fxlint::cli

#pragma once
// Toy rules under real codes, standing in for check_sources in the fix command
// tests (so selection options apply to them and every path can be reached):
//   FX104  `old`     -> `new`          safe
//   FX103  `risky`   -> `where`        unsafe
//   FX301  `mask`                      no fix
//   FX502  `breakme` -> `breakme(`     safe, but breaks the syntax
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "rules/checker.h"

namespace fxlint::test {

inline std::vector<Diagnostic> toy_rules(const SourceInput& input) {
  struct ToyRule {
    const char* code;
    const char* from;
    const char* to;  // nullptr: no fix
    Applicability applicability;
  };
  static const ToyRule rules[] = {{"FX104", "old", "new", Applicability::Safe},
                                  {"FX103", "risky", "where", Applicability::Unsafe},
                                  {"FX301", "mask", nullptr, Applicability::Safe},
                                  {"FX502", "breakme", "breakme(", Applicability::Safe}};
  std::vector<Diagnostic> out;
  for (const ToyRule& rule : rules) {
    if (!input.enabled.test(static_cast<size_t>(*find_rule(rule.code)))) continue;
    const std::string& t = input.text;
    for (size_t at = t.find(rule.from); at != std::string::npos; at = t.find(rule.from, at + 1)) {
      // Whole words only, so that `breakme(` is not flagged again.
      size_t end = at + std::string_view(rule.from).size();
      if (end < t.size() && (std::isalnum(static_cast<unsigned char>(t[end])) || t[end] == '(')) continue;
      Diagnostic d;
      d.code = rule.code;
      d.message = "toy";
      d.range = {static_cast<uint32_t>(at), static_cast<uint32_t>(end)};
      if (rule.to) d.fix = Fix{std::string("Toy fix ") + rule.code, rule.applicability, {{d.range, rule.to}}};
      out.push_back(std::move(d));
    }
  }
  return out;
}

inline std::vector<std::vector<Diagnostic>> toy_check(std::span<const SourceInput> inputs,
                                                      const CheckOptions&) {
  std::vector<std::vector<Diagnostic>> found;
  for (const SourceInput& input : inputs) found.push_back(toy_rules(input));
  return found;
}

}  // namespace fxlint::test

#pragma once
// A rule's documentation as `fxlint rule CODE` prints it and editors show it on
// hover: the doc's title, the severity per target, then the doc.
#include <string>

#include "rules/registry.h"

namespace fxlint {

std::string rule_page(const RuleInfo& rule);

}  // namespace fxlint

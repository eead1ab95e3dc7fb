// The checks that run on compiled code, in catalog order. Adding a rule means
// a row in rule_table.def, a file in checks/, and a line here.
#include "rules/check.h"

namespace fxlint {

#define FXLINT_CHECK(fn) std::unique_ptr<Check> fn(DiagnosticSink&, const CheckSettings&);
FXLINT_CHECK(make_tensor_item)
FXLINT_CHECK(make_tensor_to_python)
FXLINT_CHECK(make_tensor_condition)
FXLINT_CHECK(make_tensor_assert)
FXLINT_CHECK(make_data_dependent_loop)
FXLINT_CHECK(make_global_read)
FXLINT_CHECK(make_python_state_mutation)
FXLINT_CHECK(make_outer_container_mutation)
FXLINT_CHECK(make_boolean_mask_index)
FXLINT_CHECK(make_boolean_mask_assign)
FXLINT_CHECK(make_dynamic_shape_op)
FXLINT_CHECK(make_data_dependent_size)
FXLINT_CHECK(make_outer_tensor_assign)
FXLINT_CHECK(make_attribute_tensor_assign)
FXLINT_CHECK(make_print_or_log)
FXLINT_CHECK(make_untraceable_call)
FXLINT_CHECK(make_host_sync)
FXLINT_CHECK(make_untraceable_construct)
#undef FXLINT_CHECK

const std::vector<CheckEntry>& check_factories() {
  static const std::vector<CheckEntry> entries = {
      {{RuleId::FX101}, make_tensor_item},
      {{RuleId::FX102}, make_tensor_to_python},
      {{RuleId::FX103}, make_tensor_condition},
      {{RuleId::FX104}, make_tensor_assert},
      {{RuleId::FX105}, make_data_dependent_loop},
      {{RuleId::FX201, RuleId::FX202}, make_global_read},
      {{RuleId::FX203}, make_python_state_mutation},
      {{RuleId::FX204, RuleId::FX404}, make_outer_container_mutation},
      {{RuleId::FX301}, make_boolean_mask_index},
      {{RuleId::FX302}, make_boolean_mask_assign},
      {{RuleId::FX303}, make_dynamic_shape_op},
      {{RuleId::FX304}, make_data_dependent_size},
      {{RuleId::FX401, RuleId::FX402}, make_outer_tensor_assign},
      {{RuleId::FX403}, make_attribute_tensor_assign},
      {{RuleId::FX501}, make_print_or_log},
      {{RuleId::FX502}, make_untraceable_call},
      {{RuleId::FX503}, make_host_sync},
      {{RuleId::FX504}, make_untraceable_construct},
  };
  return entries;
}

void DiagnosticSink::report(RuleId rule, TextRange range, std::string message, std::optional<Fix> fix) {
  const RuleInfo& info = rule_info(rule);
  if (!seen_.insert({rule, range}).second) return;
  diagnostics_.push_back({std::string(info.code), std::move(message), range, Severity::Error, std::move(fix)});
}

}  // namespace fxlint

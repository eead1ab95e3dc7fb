// FX103: a tensor as the condition of if/elif/while, a conditional expression,
// an operand of and/or/not, or a comprehension filter.
#include "rules/check.h"
#include "rules/check_support.h"
#include "rules/fix_builders.h"

namespace fxlint {
namespace {

const char* where(ConditionKind k) {
  switch (k) {
    case ConditionKind::If: return "`if` on a tensor";
    case ConditionKind::While: return "`while` on a tensor";
    case ConditionKind::Ternary: return "conditional expression on a tensor";
    case ConditionKind::BoolOperand: return "`and`/`or` on a tensor";
    case ConditionKind::NotOperand: return "`not` on a tensor";
    case ConditionKind::ComprehensionFilter: return "comprehension filter on a tensor";
    case ConditionKind::Assert: return "";
  }
  return "";
}

class TensorCondition final : public Check {
 public:
  using Check::Check;
  void on_condition(Node test, ConditionKind kind, Node owner, const WalkContext& ctx) override {
    if (kind == ConditionKind::Assert || !ctx.value_of(test).is_tensor()) return;
    std::optional<Fix> fix;
    if (kind == ConditionKind::If && owner.is(NodeKind::IfStatement)) fix = fixes::if_to_where(owner, ctx);
    if (kind == ConditionKind::Ternary) fix = fixes::ternary_to_where(owner, ctx);
    sink_.report(RuleId::FX103, test.range(),
                 std::string(where(kind)) + " needs its value at trace time; the branch is data-dependent",
                 std::move(fix));
  }
};

}  // namespace
std::unique_ptr<Check> make_tensor_condition(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<TensorCondition>(s, c);
}
}  // namespace fxlint

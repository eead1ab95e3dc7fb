// FX302: `z[mask] = value` with a boolean mask.
#include "rules/check.h"
#include "rules/check_support.h"
#include "rules/fix_builders.h"

namespace fxlint {
namespace {

class BooleanMaskAssign final : public Check {
 public:
  using Check::Check;
  void on_store(Node target, Node value, Node stmt, const WalkContext& ctx) override {
    if (!target.is(NodeKind::Subscript)) return;
    if (!ctx.value_of(target.field("value")).is_tensor()) return;
    auto indices = support::subscript_indices(target);
    if (indices.size() != 1 || !ctx.value_of(indices[0]).is_bool_tensor()) return;
    sink_.report(RuleId::FX302, stmt.range(), "assignment through a boolean mask has a data-dependent shape",
                 fixes::mask_assignment(target, indices[0], value, stmt, ctx));
  }
};

}  // namespace
std::unique_ptr<Check> make_boolean_mask_assign(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<BooleanMaskAssign>(s, c);
}
}  // namespace fxlint

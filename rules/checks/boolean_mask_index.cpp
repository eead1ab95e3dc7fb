// FX301: reading `x[mask]` with a boolean mask: the result's size depends on data.
#include "rules/check.h"
#include "rules/check_support.h"
#include "rules/fix_builders.h"

namespace fxlint {
namespace {

class BooleanMaskIndex final : public Check {
 public:
  using Check::Check;
  void on_subscript_load(Node sub, const WalkContext& ctx) override {
    Value base = ctx.value_of(sub.field("value"));
    if (!base.is_tensor()) return;
    for (Node index : support::subscript_indices(sub)) {
      if (ctx.value_of(index).is_bool_tensor()) {
        sink_.report(RuleId::FX301, sub.range(),
                     "boolean mask index: the result's shape depends on the mask's values",
                     fixes::masked_reduction(sub, index, ctx));
        return;
      }
    }
  }
};

}  // namespace
std::unique_ptr<Check> make_boolean_mask_index(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<BooleanMaskIndex>(s, c);
}
}  // namespace fxlint

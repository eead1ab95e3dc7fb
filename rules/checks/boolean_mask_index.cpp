// FX301: reading `x[mask]` with a boolean mask, also by `x[mask] += v`: the
// result's size depends on data.
#include "rules/check.h"
#include "rules/check_support.h"
#include "rules/fix_support.h"
#include "rules/mask_shape.h"

namespace fxlint {
namespace {

using namespace fixes;

// `x[m].sum()` -> `torch.where(m, x, 0).sum()`.
std::optional<Fix> masked_reduction(Node subscript, Node mask, const SemanticModel& ctx) {
  std::string_view src = ctx.source();
  Node attr = subscript.parent();
  if (!attr || !attr.is(NodeKind::Attribute) || !(attr.field("object") == subscript)) return std::nullopt;
  Node call = attr.parent();
  if (!call || !call.is(NodeKind::Call) || !(call.field("function") == attr)) return std::nullopt;
  // With any argument (dim=, keepdim=, dtype=) the reduction is over another shape.
  Node arguments = call.field("arguments");
  if (!arguments || arguments.named_child_count() != 0) return std::nullopt;
  std::string_view method = attr.field("attribute").text(src);
  const char* identity = method == "sum" ? "0" : method == "prod" ? "1" : method == "any" ? "False"
                         : method == "all" ? "True" : nullptr;
  if (!identity || support::subscript_indices(subscript).size() != 1) return std::nullopt;
  Node x = subscript.field("value");
  if (!ctx.value_of(x).is_tensor()) return std::nullopt;  // torch.where needs a tensor there
  std::optional<TorchRef> torch = torch_ref(subscript, ctx);
  if (!torch) return std::nullopt;
  std::string text = torch->spell("torch.where") + "(" + std::string(mask.text(src)) + ", " +
                     as_operand(x, src) + ", " + identity + ")";
  Applicability a = mask_applicability(mask, x, ctx);
  // A floating sum or product over the whole tensor adds in another order than over
  // the selected elements: the last bits of the result may differ.
  bool exact = method == "any" || method == "all" || ctx.value_of(x).dtype == TensorDtype::Integer ||
               ctx.value_of(x).dtype == TensorDtype::Bool;
  if (!exact) {
    return Fix{"Reduce over an elementwise select instead of a masked index; a floating result may differ in its "
               "last bits (another order of summation)",
               Applicability::Unsafe, torch->with_import({Edit{subscript.range(), std::move(text)}})};
  }
  return Fix{"Reduce over an elementwise select instead of a masked index", a,
             torch->with_import({Edit{subscript.range(), std::move(text)}})};
}


class BooleanMaskIndex final : public Check {
 public:
  using Check::Check;
  void on_subscript_load(Node sub, const SemanticModel& ctx) override {
    if (Node mask = boolean_mask(sub, ctx)) {
      sink_.report(RuleId::FX301, sub.range(), "boolean mask index: the result's shape depends on the mask's values",
                   masked_reduction(sub, mask, ctx));
    }
  }
  // `x[mask] += v` reads `x[mask]` before it stores the sum back.
  void on_augmented(Node stmt, const SemanticModel& ctx) override {
    Node left = stmt.field("left").unparenthesized();
    if (left.is(NodeKind::Subscript) && boolean_mask(left, ctx)) {
      sink_.report(RuleId::FX301, left.range(),
                   "augmented assignment through a boolean mask reads the masked elements first; their shape depends on the "
                   "mask's values");
    }
  }

 private:
  static Node boolean_mask(Node sub, const SemanticModel& ctx) {
    // Only a tensor (or an array) takes a mask of many elements, so an unknown base holds one.
    ValueKind base = ctx.value_of(sub.field("value")).kind;
    if (base != ValueKind::Tensor && base != ValueKind::Unknown) return Node();
    for (Node index : support::subscript_indices(sub)) {
      if (ctx.value_of(index).is_bool_tensor()) return index;
    }
    return Node();
  }
};

}  // namespace
std::unique_ptr<Check> make_boolean_mask_index(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<BooleanMaskIndex>(s, c);
}
}  // namespace fxlint

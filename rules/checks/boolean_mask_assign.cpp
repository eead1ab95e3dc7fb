// FX302: `z[mask] = value` with a boolean mask.
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "rules/check.h"
#include "rules/check_support.h"
#include "rules/fix_support.h"
#include "rules/mask_shape.h"

namespace fxlint {
namespace {

using namespace fixes;

// A number literal whose magnitude every floating dtype holds (float16's largest
// finite value is 65504): masked_fill_ takes it whatever z's dtype.
bool fits_every_dtype(Node literal, std::string_view src) {
  Node n = literal.unparenthesized();
  if (n.is(NodeKind::True) || n.is(NodeKind::False)) return true;
  if (n.is(NodeKind::UnaryOperator)) n = n.field("argument").unparenthesized();
  std::string text;
  for (char c : n.text(src)) {
    if (c != '_') text += c;
  }
  if (text.empty() || text.find_first_of("jJ") != std::string::npos) return false;
  char* end = nullptr;
  double value = n.is(NodeKind::Integer) && text.size() > 2 && text[0] == '0' && std::isalpha(static_cast<unsigned char>(text[1]))
                     ? static_cast<double>(std::strtoull(text.c_str(), &end, 0))
                     : std::strtod(text.c_str(), &end);
  return end && *end == '\0' && std::isfinite(value) && std::fabs(value) <= 65504.0;
}

// `z[m] = v[m]` -> torch.where; `z[m] = s` -> masked_fill_.
std::optional<Fix> mask_assignment(Node target, Node mask, Node value, Node statement, const SemanticModel& ctx) {
  std::string_view src = ctx.source();
  Node z = target.field("value").unparenthesized();
  Node assignment = target.parent();
  bool z_is_name = z.is(NodeKind::Identifier);
  bool z_is_attribute = z.is(NodeKind::Attribute) && z.field("object").unparenthesized().is(NodeKind::Identifier);
  if (!(z_is_name || z_is_attribute) || !value || !assignment || !assignment.is(NodeKind::Assignment) ||
      !statement.is(NodeKind::ExpressionStatement) || statement.named_child_count() != 1) {
    return std::nullopt;
  }
  std::string zt(z.text(src));
  std::string mt(mask.text(src));
  Node v = value.unparenthesized();
  // `z[m]` applies a mask to z's leading dimensions; masked_fill_ and where
  // broadcast it against the trailing ones. Only a mask of z's own shape means
  // the same to both.
  if (mask_applicability(mask, z, ctx) != Applicability::Safe) return std::nullopt;
  // Both rewrites update `z` in place, as the masked assignment does, so views
  // of it and names bound to it see the change.
  if (v.is(NodeKind::True) || v.is(NodeKind::False) || is_number_literal(v)) {
    std::string text = zt + ".masked_fill_(" + mt + ", " + std::string(v.text(src)) + ")";
    // The store rounds a number z's dtype cannot hold (-1e9 into float16 gives -inf);
    // masked_fill_ raises instead, even when the mask selects nothing.
    if (!fits_every_dtype(v, src)) {
      return Fix{"Replace the masked assignment with `masked_fill_`; `" + std::string(v.text(src)) +
                     "` must fit the dtype of `" + zt + "` (float16 holds at most 65504)",
                 Applicability::Unsafe, {Edit{assignment.range(), std::move(text)}}};
    }
    return Fix{"Replace the masked assignment with `masked_fill_`", Applicability::Safe,
               {Edit{assignment.range(), std::move(text)}}};
  }
  if (!v.is(NodeKind::Subscript)) return std::nullopt;
  auto idx = support::subscript_indices(v);
  if (idx.size() != 1 || idx[0].text(src) != mask.text(src)) return std::nullopt;
  std::optional<TorchRef> torch = torch_ref(statement, ctx);
  if (!torch) return std::nullopt;
  std::string vt(v.field("value").text(src));
  std::string text = zt + ".copy_(" + torch->spell("torch.where") + "(" + mt + ", " + vt + ", " + zt + "))";
  // `z[m] = v[m]` raises when v's dtype or shape differs from z's; the select
  // would promote or broadcast instead, and nothing here knows them.
  return Fix{"Replace the masked assignment with an in-place elementwise select; `" + vt +
                 "` must have the dtype and shape of `" + zt + "`",
             Applicability::Unsafe, torch->with_import({Edit{assignment.range(), std::move(text)}})};
}


class BooleanMaskAssign final : public Check {
 public:
  using Check::Check;
  void on_store(Node target, Node value, Node stmt, const SemanticModel& ctx) override {
    if (!target.is(NodeKind::Subscript)) return;
    if (!ctx.value_of(target.field("value")).is_tensor()) return;
    auto indices = support::subscript_indices(target);
    if (indices.size() != 1 || !ctx.value_of(indices[0]).is_bool_tensor()) return;
    sink_.report(RuleId::FX302, stmt.range(), "assignment through a boolean mask has a data-dependent shape",
                 mask_assignment(target, indices[0], value, stmt, ctx));
  }
};

}  // namespace
std::unique_ptr<Check> make_boolean_mask_assign(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<BooleanMaskAssign>(s, c);
}
}  // namespace fxlint

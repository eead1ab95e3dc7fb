// FX403: `self.x = <tensor>` (or another outer object's attribute) in compiled code.
#include "rules/check.h"
#include "rules/check_support.h"

namespace fxlint {
namespace {

class AttributeTensorAssign final : public Check {
 public:
  using Check::Check;
  void on_store(Node target, Node value, Node stmt, const SemanticModel& ctx) override {
    if (!target.is(NodeKind::Attribute) || !value || !ctx.value_of(value).is_tensor()) return;
    if (ctx.function().is_constructor()) return;
    Node object = target.field("object").unparenthesized();
    bool outer = support::is_outer_object(object, ctx) ||
                 (object.is(NodeKind::Identifier) && object.text(ctx.source()) == ctx.self_name() &&
                  !ctx.self_name().empty());
    if (!outer) return;
    // Non-strict torch.export records a tensor assigned to a registered buffer as the
    // buffer's update: the exported module's buffer holds it after the call.
    if (settings_.target == Target::Export && object.text(ctx.source()) == ctx.self_name() &&
        ctx.self_buffer(target.field("attribute").text(ctx.source()))) {
      return;
    }
    sink_.report(RuleId::FX403, stmt.range(),
                 "stores a tensor on `" + std::string(object.text(ctx.source())) +
                     "`, which outlives the call; the graph cannot hold it");
  }
};

}  // namespace
std::unique_ptr<Check> make_attribute_tensor_assign(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<AttributeTensorAssign>(s, c);
}
}  // namespace fxlint

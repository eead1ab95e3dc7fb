// FX203: compiled code rebinds or augments Python state that outlives the call:
// `global a; a += 1`, `nonlocal n; n += 1`, `self.steps += 1`.
#include "rules/check.h"
#include "rules/check_support.h"
#include "rules/fix_builders.h"

namespace fxlint {
namespace {

class PythonStateMutation final : public Check {
 public:
  using Check::Check;

  void on_augmented(Node stmt, const WalkContext& ctx) override {
    Node left = stmt.field("left").unparenthesized();
    std::string_view src = ctx.source();
    if (left.is(NodeKind::Identifier)) {
      std::string_view name = left.text(src);
      if (ctx.declared_global(name)) {
        const GlobalFacts* g = ctx.global_facts(name);
        if (g && g->value.is_tensor()) return;  // in-place on a tensor
        sink_.report(RuleId::FX203, stmt.range(),
                     "updates global `" + std::string(name) + "`; the trace runs it once and never again",
                     fixes::global_scalar_to_tensor(stmt, ctx));
      } else if (ctx.declared_nonlocal(name)) {
        sink_.report(RuleId::FX203, stmt.range(),
                     "updates closure variable `" + std::string(name) + "`; the trace runs it once and never again");
      }
      return;
    }
    if (left.is(NodeKind::Attribute) && support::is_outer_object(left, ctx)) {
      Node attr = left.field("attribute");
      Value v = ctx.self_attribute(attr.text(src));
      if (v.kind != ValueKind::Static) return;  // tensors update in place; unknowns are not flagged
      sink_.report(RuleId::FX203, stmt.range(),
                   "updates Python attribute `" + std::string(left.text(src)) + "`; the trace runs it once and never again",
                   fixes::attribute_scalar_to_buffer(stmt, ctx));
    }
  }

  void on_store(Node target, Node value, Node stmt, const WalkContext& ctx) override {
    if (target.is(NodeKind::Attribute) && value && !ctx.function().is_constructor() &&
        support::is_outer_object(target, ctx) && ctx.value_of(value).kind == ValueKind::Static) {
      sink_.report(RuleId::FX203, stmt.range(),
                   "rebinds Python attribute `" + std::string(target.text(ctx.source())) +
                       "`; the trace runs it once and never again");
      return;
    }
    if (!target.is(NodeKind::Identifier) || !value) return;
    std::string_view name = target.text(ctx.source());
    bool global = ctx.declared_global(name);
    if (!global && !ctx.declared_nonlocal(name)) return;
    if (ctx.value_of(value).is_tensor()) return;  // FX401 / FX402
    sink_.report(RuleId::FX203, stmt.range(),
                 std::string(global ? "rebinds global `" : "rebinds closure variable `") + std::string(name) +
                     "`; the trace runs it once and never again");
  }
};

}  // namespace
std::unique_ptr<Check> make_python_state_mutation(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<PythonStateMutation>(s, c);
}
}  // namespace fxlint

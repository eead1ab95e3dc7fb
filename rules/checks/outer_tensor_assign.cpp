// FX401 / FX402: `global a; a = <tensor>` and `nonlocal a; a = <tensor>`.
#include "rules/check.h"
#include "rules/check_support.h"

namespace fxlint {
namespace {

// `global a; a = t` -> `a.copy_(t)` when `a` is a module-level tensor (unsafe).
std::optional<Fix> outer_tensor_copy(Node target, Node value, Node statement, const SemanticModel& ctx) {
  std::string_view src = ctx.source();
  std::string_view name = target.text(src);
  bool outer_is_tensor = false;
  if (ctx.declared_global(name)) {
    const GlobalFacts* g = ctx.global_facts(name);
    outer_is_tensor = g && g->value.is_tensor();
  } else if (ctx.declared_nonlocal(name) && !ctx.closure_in_traced_call(name)) {
    outer_is_tensor = ctx.enclosing_value(name).is_tensor();
  }
  Node assignment = target.parent();
  if (!outer_is_tensor || !assignment || !assignment.is(NodeKind::Assignment) ||
      !statement.is(NodeKind::ExpressionStatement) || statement.named_child_count() != 1) {
    return std::nullopt;
  }
  std::string text = std::string(target.text(src)) + ".copy_(" + std::string(value.text(src)) + ")";
  return Fix{"Copy into the existing tensor in place", Applicability::Unsafe, {Edit{assignment.range(), std::move(text)}}};
}


class OuterTensorAssign final : public Check {
 public:
  using Check::Check;
  // For export, `G.mul_(2)` (or `global G; G *= 2`) of a module-level tensor
  // (support::number_update_target): non-strict torch.export updates it once more while
  // tracing, and the program, which keeps it as a constant, starts one update ahead.
  void on_call(Node call, const SemanticModel& ctx) override { global_number_update(call, ctx); }
  void on_augmented(Node stmt, const SemanticModel& ctx) override { global_number_update(stmt, ctx); }
  void on_store(Node target, Node value, Node stmt, const SemanticModel& ctx) override {
    if (!target.is(NodeKind::Identifier) || !value || !ctx.value_of(value).is_tensor()) return;
    std::string name(target.text(ctx.source()));
    if (ctx.declared_global(name)) {
      sink_.report(RuleId::FX401, stmt.range(),
                   "assigns a tensor to global `" + name + "`; the graph cannot rebind it",
                   outer_tensor_copy(target, value, stmt, ctx));
    } else if (ctx.declared_nonlocal(name) && !ctx.closure_in_traced_call(name)) {
      sink_.report(RuleId::FX402, stmt.range(),
                   "assigns a tensor to closure variable `" + name + "`; the graph cannot rebind it",
                   outer_tensor_copy(target, value, stmt, ctx));
    }
  }

 private:
  void global_number_update(Node n, const SemanticModel& ctx) {
    if (settings_.target != Target::Export) return;
    Node t = support::number_update_target(n, ctx);
    if (!t || !t.is(NodeKind::Identifier)) return;
    std::string name(t.text(ctx.source()));
    if (ctx.scope_of(name) != NameScope::Global) return;
    const GlobalFacts* g = ctx.global_facts(name);
    if (!g || !g->value.is_tensor()) return;
    sink_.report(RuleId::FX401, n.range(),
                 "updates global tensor `" + name + "` by a number: non-strict torch.export runs it once while "
                 "tracing, so the exported program starts one update ahead; keep it in a module buffer");
  }
};

}  // namespace
std::unique_ptr<Check> make_outer_tensor_assign(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<OuterTensorAssign>(s, c);
}
}  // namespace fxlint

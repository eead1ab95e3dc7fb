// FX401 / FX402: `global a; a = <tensor>` and `nonlocal a; a = <tensor>`.
#include "rules/check.h"
#include "rules/check_support.h"
#include "rules/fix_builders.h"

namespace fxlint {
namespace {

class OuterTensorAssign final : public Check {
 public:
  using Check::Check;
  void on_store(Node target, Node value, Node stmt, const WalkContext& ctx) override {
    if (!target.is(NodeKind::Identifier) || !value || !ctx.value_of(value).is_tensor()) return;
    std::string name(target.text(ctx.source()));
    if (ctx.declared_global(name)) {
      sink_.report(RuleId::FX401, stmt.range(),
                   "assigns a tensor to global `" + name + "`; the graph cannot rebind it",
                   fixes::outer_tensor_copy(target, value, stmt, ctx));
    } else if (ctx.declared_nonlocal(name)) {
      sink_.report(RuleId::FX402, stmt.range(),
                   "assigns a tensor to closure variable `" + name + "`; the graph cannot rebind it",
                   fixes::outer_tensor_copy(target, value, stmt, ctx));
    }
  }
};

}  // namespace
std::unique_ptr<Check> make_outer_tensor_assign(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<OuterTensorAssign>(s, c);
}
}  // namespace fxlint

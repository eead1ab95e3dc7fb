// FX201 / FX202: compiled code reads a mutable module-level value; in a branch
// condition (FX202) the branch taken at trace time is frozen.
#include "rules/check.h"
#include "rules/check_support.h"

namespace fxlint {
namespace {

bool is_mutation_receiver(Node id) {
  Node parent = id.parent();
  if (!parent) return false;
  // NAME[k] = v / del NAME[k]: a write, reported by FX204/FX404.
  if (parent.is(NodeKind::Subscript) && parent.field("value") == id) {
    Node up = parent.parent();
    if (up && (up.is(NodeKind::Assignment) || up.is(NodeKind::AugmentedAssignment)) && up.field("left") == parent) return true;
    if (up && up.is(NodeKind::DeleteStatement)) return true;
  }
  // NAME.append(...): likewise.
  if (parent.is(NodeKind::Attribute) && parent.field("object") == id) {
    Node call = parent.parent();
    if (call && call.is(NodeKind::Call) && call.field("function") == parent) return true;
  }
  return false;
}

class GlobalRead final : public Check {
 public:
  using Check::Check;
  void on_name_load(Node id, const WalkContext& ctx) override {
    std::string_view name = id.text(ctx.source());
    if (ctx.scope_of(name) != NameScope::Global || ctx.declared_global(name)) return;
    if (!ctx.is_mutable_global(name) || is_mutation_receiver(id)) return;
    if (ctx.in_condition()) {
      sink_.report(RuleId::FX202, id.range(),
                   "branch depends on mutable global `" + std::string(name) + "`; the branch taken at trace time is frozen");
    } else {
      sink_.report(RuleId::FX201, id.range(),
                   "reads mutable global `" + std::string(name) + "`; the trace freezes its current value");
    }
  }
};

}  // namespace
std::unique_ptr<Check> make_global_read(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<GlobalRead>(s, c);
}
}  // namespace fxlint

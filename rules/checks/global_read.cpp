// FX201 / FX202: compiled code reads a mutable module-level value; in a branch
// condition (FX202) the branch taken at trace time is frozen (TorchDynamo
// guards on the value instead).
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
  void on_name_load(Node id, const SemanticModel& ctx) override {
    std::string_view name = id.text(ctx.source());
    // Most names are locals or constants: answer that before walking up the tree.
    if (ctx.scope_of(name) != NameScope::Global || ctx.declared_global(name)) return;
    if (const std::string* imported = ctx.file().imports.find(name)) {
      if (!ctx.is_project_module(*imported)) return;
      Node parent = id.parent();
      if (parent && parent.is(NodeKind::Attribute) && parent.field("object") == id &&
          ctx.is_mutable_module_attribute(parent) && !is_mutation_receiver(parent)) {
        report(parent, parent.text(ctx.source()), ctx);
      }
      return;
    }
    if (!ctx.is_mutable_global(name) || is_mutation_receiver(id)) return;
    report(id, name, ctx);
  }

 private:
  void report(Node where, std::string_view name, const SemanticModel& ctx) {
    bool branch = ctx.in_condition();
    sink_.report(branch ? RuleId::FX202 : RuleId::FX201, where.range(),
                 (branch ? "branch depends on mutable global `" : "reads mutable global `") + std::string(name) + "`" +
                     support::frozen_or_guarded(settings_.target, branch));
  }
};

}  // namespace
std::unique_ptr<Check> make_global_read(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<GlobalRead>(s, c);
}
}  // namespace fxlint

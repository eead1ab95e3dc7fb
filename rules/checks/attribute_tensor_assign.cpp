// FX403: `self.x = <tensor>` (or another outer object's attribute) in compiled code;
// for export, also what non-strict torch.export cannot do to the module it traces.
#include "analyzer/torch_api.h"
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
    if (support::exported_cache_fill(target, stmt, ctx, settings_.target)) return;
    // A scratch attribute: a method that `forward` calls stores the tensor, and `forward`
    // takes it and sets it back to None, so nothing outlives the call.
    if (object.text(ctx.source()) == ctx.self_name() && ctx.function().name != "forward" &&
        ctx.self_taken(target.field("attribute").text(ctx.source()))) {
      return;
    }
    sink_.report(RuleId::FX403, stmt.range(),
                 "stores a tensor on `" + std::string(object.text(ctx.source())) +
                     "`, which outlives the call; the graph cannot hold it");
  }
  // `self.t.mul_(2)` on a plain tensor attribute (support::number_update_target): the
  // module, and the program that aliases it, start one update ahead; a buffer is traced right.
  void on_augmented(Node stmt, const SemanticModel& ctx) override {
    if (settings_.target != Target::Export || ctx.function().is_constructor()) return;
    if (Node t = support::number_update_target(stmt, ctx); t && plain_tensor_attribute(t, ctx)) report_update(stmt, t, ctx);
  }
  // Non-strict torch.export runs compiled code on the real module: a buffer or parameter
  // registered while tracing keeps the trace's fake tensor after the export, and a module
  // with parameters moved or cast while tracing cannot swap them for fake ones, which
  // fails (its buffers it swaps).
  void on_call(Node call, const SemanticModel& ctx) override {
    if (settings_.target != Target::Export || ctx.function().is_constructor()) return;
    if (Node t = support::number_update_target(call, ctx); t && plain_tensor_attribute(t, ctx)) {
      report_update(call, t, ctx);
      return;
    }
    Node callee = call.field("function").unparenthesized();
    if (!callee.is(NodeKind::Attribute) || !is_module(callee.field("object"), ctx)) return;
    std::string_view m = callee.field("attribute").text(ctx.source());
    if (m == "register_buffer" || m == "register_parameter") {
      sink_.report(RuleId::FX403, call.range(),
                   "`" + std::string(m) + "` in compiled code: non-strict torch.export leaves the trace's fake "
                   "tensor in the module; register it in `__init__`");
    } else if (torch_api::is_module_move_or_cast(m) && ctx.holds_parameters(callee.field("object"))) {
      sink_.report(RuleId::FX403, call.range(),
                   "moving or casting a module in compiled code swaps its parameters: non-strict torch.export "
                   "fails; do it before exporting");
    }
  }

 private:
  // `self.<attr>` of a module holding a tensor that is neither a registered buffer nor a
  // parameter: torch.export keeps it as a constant, not as module state.
  static bool plain_tensor_attribute(Node n, const SemanticModel& ctx) {
    n = n.unparenthesized();
    if (!n.is(NodeKind::Attribute) || !ctx.in_module_class()) return false;
    Node object = n.field("object").unparenthesized();
    if (!object.is(NodeKind::Identifier) || ctx.self_name().empty() || object.text(ctx.source()) != ctx.self_name()) {
      return false;
    }
    std::string_view attr = n.field("attribute").text(ctx.source());
    if (!ctx.self_attribute(attr).is_tensor() || ctx.self_buffer(attr)) return false;
    for (const std::string& c : ctx.self_attribute_constructors(attr)) {
      if (torch_api::registers_module_state(c)) return false;
    }
    return true;
  }
  void report_update(Node where, Node attribute, const SemanticModel& ctx) {
    sink_.report(RuleId::FX403, where.range(),
                 "updates tensor attribute `" + std::string(attribute.text(ctx.source())) +
                     "` by a number: non-strict torch.export runs it once while tracing, so the module and the "
                     "exported program start one update ahead; register it as a buffer");
  }
  static bool is_module(Node object, const SemanticModel& ctx) {
    object = object.unparenthesized();
    if (object.is(NodeKind::Identifier) && object.text(ctx.source()) == ctx.self_name() && !ctx.self_name().empty()) {
      return ctx.in_module_class();
    }
    return ctx.value_of(object).kind == ValueKind::Module;
  }
};

}  // namespace
std::unique_ptr<Check> make_attribute_tensor_assign(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<AttributeTensorAssign>(s, c);
}
}  // namespace fxlint

// FX504: constructs a tracer cannot capture: yield, eval/exec, class
// definitions inside compiled code, globals()/locals().
#include "rules/check.h"
#include "rules/check_support.h"

namespace fxlint {
namespace {

class UntraceableConstruct final : public Check {
 public:
  using Check::Check;
  // Only the function handed to the compiler must not be a generator: tracers
  // follow generators that compiled code calls (`@contextmanager` helpers, say).
  void on_yield(Node y, const SemanticModel& ctx) override {
    // A generator annotated to return a tensor (`def __iter__(self) -> Tensor`)
    // is an iterator, not a graph by intent: compiled code that loops over it
    // is traced through it.
    if (!ctx.is_compile_entry() || ctx.function().seed == SeedReason::TensorAnnotation) return;
    sink_.report(RuleId::FX504, y.range(), "`yield` makes a generator; compiled functions cannot be generators");
  }
  void on_call(Node call, const SemanticModel& ctx) override {
    std::string q = ctx.resolve(call.field("function"));
    if (q == "builtins.eval" || q == "builtins.exec" || q == "builtins.globals" || q == "builtins.locals") {
      sink_.report(RuleId::FX504, call.range(), "`" + q.substr(9) + "()` cannot be traced");
    }
  }
  void on_statement(Node stmt, const SemanticModel&) override {
    Node def = stmt.is(NodeKind::DecoratedDefinition) ? stmt.field("definition") : stmt;
    if (def.is(NodeKind::ClassDefinition)) {
      Node name = def.field("name");
      sink_.report(RuleId::FX504, name ? name.range() : def.range(), "class defined inside compiled code");
    }
  }
};

}  // namespace
std::unique_ptr<Check> make_untraceable_construct(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<UntraceableConstruct>(s, c);
}
}  // namespace fxlint

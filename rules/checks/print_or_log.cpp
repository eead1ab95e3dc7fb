// FX501: print, logging and warnings in compiled code (for Dynamo, the
// warning filters too).
#include "rules/check.h"
#include "rules/check_support.h"
#include "rules/fix_support.h"

namespace fxlint {
namespace {

using namespace fixes;

// The compile guard around a statement that is just this call.
std::optional<Fix> guard_call_statement(Node call, const SemanticModel& ctx, std::string_view guard_function) {
  Node parent = call.parent();
  if (!parent || !parent.is(NodeKind::ExpressionStatement) || parent.named_child_count() != 1) return std::nullopt;
  return guard_statement(parent, ctx, guard_function, "Run it only outside compilation");
}


bool is_logging_call(std::string_view q) {
  // `warning_once`/`info_once`: transformers' and diffusers' additions to Logger, which TorchDynamo
  // refuses like the others.
  static constexpr std::string_view methods[] = {"debug", "info", "warning", "warn", "error", "exception",
                                                 "critical", "log", "warning_once", "info_once"};
  auto dot = q.rfind('.');
  if (dot == std::string_view::npos) return false;
  std::string_view last = q.substr(dot + 1);
  bool method = false;
  for (auto m : methods) method |= last == m;
  if (!method) return false;
  return q.starts_with("logging.");  // logging.info, logging.getLogger().info
}

class PrintOrLog final : public Check {
 public:
  using Check::Check;
  void on_call(Node call, const SemanticModel& ctx) override {
    std::string q = ctx.resolve(call.field("function"));
    // TorchDynamo skips the warning filters' functions; the other tracers run them once.
    bool filter = settings_.target == Target::Dynamo &&
                  (q == "warnings.simplefilter" || q == "warnings.filterwarnings" || q == "warnings.resetwarnings");
    std::string what;
    if (q == "builtins.print") what = "`print`";
    else if (q == "warnings.warn" || filter) what = "`" + q + "`";
    else if (is_logging_call(q)) what = "logging";
    if (what.empty()) return;
    std::optional<Fix> fix =
        guard_call_statement(call, ctx, support::compile_guard_function(settings_.torch_version, settings_.target));
    // A filter is state that outlives the call: compiled runs would no longer install it, so
    // the warnings it silences come back there. Eager runs are unchanged.
    if (fix && filter) fix->applicability = Applicability::Unsafe;
    sink_.report(RuleId::FX501, call.range(), what + " in compiled code breaks the graph", std::move(fix));
  }
};

}  // namespace
std::unique_ptr<Check> make_print_or_log(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<PrintOrLog>(s, c);
}
}  // namespace fxlint

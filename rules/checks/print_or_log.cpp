// FX501: print, logging and warnings in compiled code.
#include "rules/check.h"
#include "rules/check_support.h"
#include "rules/fix_builders.h"

namespace fxlint {
namespace {

bool is_logging_call(std::string_view q) {
  static constexpr std::string_view methods[] = {"debug", "info", "warning", "warn", "error",
                                                 "exception", "critical", "log"};
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
  void on_call(Node call, const WalkContext& ctx) override {
    std::string q = ctx.resolve(call.field("function"));
    const char* what = nullptr;
    if (q == "builtins.print") what = "`print`";
    else if (q == "warnings.warn") what = "`warnings.warn`";
    else if (is_logging_call(q)) what = "logging";
    if (!what) return;
    sink_.report(RuleId::FX501, call.range(), std::string(what) + " in compiled code breaks the graph",
                 fixes::guard_call_statement(
                     call, ctx, support::compile_guard_function(settings_.torch_version, settings_.target)));
  }
};

}  // namespace
std::unique_ptr<Check> make_print_or_log(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<PrintOrLog>(s, c);
}
}  // namespace fxlint

// FX503: tensor copied to the host or the device synchronized.
#include "rules/check.h"
#include "rules/check_support.h"

namespace fxlint {
namespace {

bool names_cpu(Node arg, const SemanticModel& ctx) {
  Node a = arg.unparenthesized();
  std::string_view t = a.text(ctx.source());
  if (a.is(NodeKind::String)) return t == "\"cpu\"" || t == "'cpu'";
  if (a.is(NodeKind::Call) && ctx.resolve(a.field("function")) == "torch.device") {
    auto args = support::positional_args(a);
    return !args.empty() && names_cpu(args[0], ctx);
  }
  return false;
}

class HostSync final : public Check {
 public:
  using Check::Check;
  void on_call(Node call, const SemanticModel& ctx) override {
    std::string_view src = ctx.source();
    std::string q = ctx.resolve(call.field("function"));
    // TorchDynamo traces copies to the host and synchronizations into the graph (a copy, a
    // synchronization op); only `data_ptr()` stops it, when its value is computed with.
    bool dynamo = settings_.target == Target::Dynamo;
    if (q == "torch.cuda.synchronize" || q == "torch.cuda.current_stream().synchronize") {
      if (dynamo) return;
      sink_.report(RuleId::FX503, call.range(), "device synchronization in compiled code breaks the graph");
      return;
    }
    std::string_view m = support::method_name(call, ctx);
    if (m.empty() || !support::receiver_is_tensor(call, ctx)) return;
    bool to_cpu = m == "cpu" || m == "data_ptr";
    if (m == "to") {
      for (Node a : support::positional_args(call, ctx)) to_cpu |= names_cpu(a, ctx);
      if (Node d = support::keyword_arg(call, "device", src)) to_cpu |= names_cpu(d, ctx);
    }
    if (!to_cpu) return;
    if (m == "data_ptr") {
      sink_.report(RuleId::FX503, call.range(),
                   dynamo ? "`.data_ptr()` has no value for a traced tensor: TorchDynamo cannot compute with it and "
                            "runs the whole function eagerly"
                          : "`.data_ptr()` has no value for a traced tensor");
      return;
    }
    // torch.export records the copy as an op of its program too.
    if (dynamo || settings_.target == Target::Export) return;
    sink_.report(RuleId::FX503, call.range(),
                 "`." + std::string(m) + "()` moves data to the host and waits for the device");
  }
};

}  // namespace
std::unique_ptr<Check> make_host_sync(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<HostSync>(s, c);
}
}  // namespace fxlint

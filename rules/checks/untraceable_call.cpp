// FX502: calls into libraries the tracer cannot follow: numpy or math on
// tensor data, random, time, copy.deepcopy; for Dynamo, recurrent modules.
#include "rules/check.h"
#include "rules/check_support.h"

namespace fxlint {
namespace {

class UntraceableCall final : public Check {
 public:
  using Check::Check;
  void on_call(Node call, const SemanticModel& ctx) override {
    if (settings_.target == Target::Dynamo) report_recurrent_module(call, ctx);
    std::string q = ctx.resolve(call.field("function"));
    if (q.empty()) return;
    std::string module = q.substr(0, q.find('.'));
    // Dynamo traces NumPy (numpy.random included) through torch._numpy.
    if (module == "numpy" && support::dynamo_traces_numpy(settings_.torch_version, settings_.target)) return;
    bool always = module == "random" || module == "time" || q == "copy.deepcopy" || q == "copy.copy" ||
                  q.starts_with("numpy.random.");
    bool on_data = module == "numpy" || module == "math" || module == "scipy" || module == "cv2" ||
                   module == "PIL" || module == "pandas";
    if (!always && !(on_data && has_tensor_argument(call, ctx))) return;
    sink_.report(RuleId::FX502, call.range(), "`" + q + "` is not a torch operation; the tracer cannot follow it");
  }

 private:
  // `self.rnn(x)` where `self.rnn` is an nn.LSTM, GRU or RNN, here or in a
  // subclass that sets it: TorchDynamo runs those eagerly (GB0014, unless
  // torch._dynamo.config.allow_rnn); torch.export and the FX tracer take them.
  void report_recurrent_module(Node call, const SemanticModel& ctx) {
    Node callee = call.field("function").unparenthesized();
    if (!callee.is(NodeKind::Attribute) || ctx.self_name().empty()) return;
    Node object = callee.field("object").unparenthesized();
    Node attr = callee.field("attribute");
    if (!object.is(NodeKind::Identifier) || object.text(ctx.source()) != ctx.self_name() || !attr) return;
    for (const std::string& cls : ctx.self_attribute_constructors(attr.text(ctx.source()))) {
      std::string_view name = std::string_view(cls).substr(cls.rfind('.') + 1);
      bool torch_nn = cls.starts_with("torch.nn.");
      if (torch_nn && (name == "LSTM" || name == "GRU" || name == "RNN")) {
        sink_.report(RuleId::FX502, call.range(),
                     "`" + cls + "` is run eagerly by TorchDynamo (unless torch._dynamo.config.allow_rnn): "
                     "the graph breaks around it");
        return;
      }
    }
  }

  // A tensor (or a list of them) handed over. A Python number already read out
  // of a tensor (`.item()`, `float(t)`) is not: that read is the pitfall, and
  // FX101/FX102 report it where it happens.
  static bool has_tensor_argument(Node call, const SemanticModel& ctx) {
    Node args = call.field("arguments");
    if (!args) return false;
    for (Node a : args.children()) {
      Node v = a.is(NodeKind::KeywordArgument) ? a.field("value") : a;
      if (!v) continue;
      ValueKind kind = ctx.value_of(v).kind;
      if (kind == ValueKind::Tensor || kind == ValueKind::TensorSequence) return true;
    }
    return false;
  }
};

}  // namespace
std::unique_ptr<Check> make_untraceable_call(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<UntraceableCall>(s, c);
}
}  // namespace fxlint

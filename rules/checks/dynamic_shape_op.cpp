// FX303: operations whose output shape depends on tensor values.
#include "analyzer/torch_api.h"
#include "rules/check.h"
#include "rules/check_support.h"

namespace fxlint {
namespace {

class DynamicShapeOp final : public Check {
 public:
  using Check::Check;
  void on_call(Node call, const SemanticModel& ctx) override {
    std::string_view src = ctx.source();
    std::string q = support::qualified_callee(call, ctx);
    auto args = support::positional_args(call, ctx);
    std::string what;  // the code, quoted in the message
    std::string how;   // what makes it dynamic here, after it
    bool sized = ctx.output_size_given(call);
    if (torch_api::is_dynamic_shape_function(q)) {
      what = q;
    } else if (q == "torch.where" && args.size() == 1 && !support::keyword_arg(call, "input", src)) {
      what = "torch.where";
      how = " with one argument";
    } else if (q == "torch.repeat_interleave" && args.size() >= 2 && ctx.value_of(args[1]).is_tensor() &&
               !sized) {
      what = "torch.repeat_interleave";
      how = " with tensor repeats";
    } else if (q == "torch.nn.functional.one_hot" && args.size() < 2 && !support::keyword_arg(call, "num_classes", src)) {
      what = "one_hot";
      how = " without `num_classes`";
    } else {
      std::string_view m = support::method_name(call, ctx);
      if (m.empty() || !support::receiver_is_tensor(call, ctx)) return;
      if (torch_api::is_dynamic_shape_method(m)) {
        what = "." + std::string(m) + "()";
      } else if (m == "repeat_interleave" && !args.empty() && ctx.value_of(args[0]).is_tensor() && !sized) {
        what = ".repeat_interleave()";
        how = " with tensor repeats";
      } else {
        return;
      }
    }
    sink_.report(RuleId::FX303, call.range(), "`" + what + "`" + how + " returns a tensor whose shape depends on its input's values");
  }
};

}  // namespace
std::unique_ptr<Check> make_dynamic_shape_op(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<DynamicShapeOp>(s, c);
}
}  // namespace fxlint

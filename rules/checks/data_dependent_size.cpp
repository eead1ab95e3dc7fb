// FX304: a size argument (`zeros(n)`, `view(n, -1)`, `x[:n]`) computed from tensor values.
#include <unordered_set>

#include "rules/check.h"
#include "rules/check_support.h"

namespace fxlint {
namespace {

bool size_function(std::string_view q) {
  static const std::unordered_set<std::string_view> s = {
      "torch.zeros", "torch.ones", "torch.empty", "torch.full", "torch.rand", "torch.randn",
      "torch.arange", "torch.linspace", "torch.logspace", "torch.eye", "torch.randperm",
      "torch.randint", "torch.tril_indices", "torch.triu_indices"};
  return s.count(q) > 0;
}

bool size_method(std::string_view m) {
  static const std::unordered_set<std::string_view> s = {
      "view", "reshape", "expand", "repeat", "narrow", "new_zeros", "new_ones", "new_empty",
      "new_full", "tile", "unflatten", "resize_", "split", "topk"};
  return s.count(m) > 0;
}

class DataDependentSize final : public Check {
 public:
  using Check::Check;

  void on_call(Node call, const WalkContext& ctx) override {
    std::string_view src = ctx.source();
    bool sized = size_function(ctx.resolve(call.field("function")));
    if (!sized) {
      std::string_view m = support::method_name(call, src);
      sized = !m.empty() && size_method(m) && ctx.value_of(support::receiver(call)).is_tensor();
    }
    if (!sized) return;
    for (Node a : support::positional_args(call)) {
      if (data_dependent(a, ctx)) {
        sink_.report(RuleId::FX304, a.range(), "size argument computed from tensor values gives a data-dependent shape");
        return;
      }
    }
  }

  void on_subscript_load(Node sub, const WalkContext& ctx) override {
    if (!ctx.value_of(sub.field("value")).is_tensor()) return;
    for (Node index : support::subscript_indices(sub)) {
      if (!index.is(NodeKind::Slice)) continue;
      for (Node bound : index.children()) {
        if (ctx.value_of(bound).is_tensor_data()) {
          sink_.report(RuleId::FX304, bound.range(), "slice bound computed from tensor values gives a data-dependent shape");
          return;
        }
      }
    }
  }

 private:
  // Python values drawn from tensor data; a tuple/list of sizes counts if any element is.
  static bool data_dependent(Node a, const WalkContext& ctx) {
    Node u = a.unparenthesized();
    if (u.is(NodeKind::Tuple) || u.is(NodeKind::List)) {
      for (Node c : u.children()) {
        if (ctx.value_of(c).is_tensor_data()) return true;
      }
      return false;
    }
    return ctx.value_of(a).is_tensor_data();
  }
};

}  // namespace
std::unique_ptr<Check> make_data_dependent_size(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<DataDependentSize>(s, c);
}
}  // namespace fxlint

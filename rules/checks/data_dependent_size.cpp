// FX304: a size argument (`zeros(n)`, `view(n, -1)`, `x[:n]`) computed from tensor values.
#include <unordered_map>
#include <vector>

#include "rules/check.h"
#include "rules/check_support.h"

namespace fxlint {
namespace {

constexpr int kAll = -1;   // every positional argument is a size
constexpr int kLast = -2;  // the last positional argument
constexpr int kKeyword = -3;  // only the `size=` keyword (every sized call takes it too)

// Which positional argument of each call gives a size.
const std::unordered_map<std::string_view, int>& size_functions() {
  static const std::unordered_map<std::string_view, int> m = {
      {"torch.zeros", kAll}, {"torch.ones", kAll}, {"torch.empty", kAll}, {"torch.rand", kAll},
      {"torch.randn", kAll}, {"torch.eye", kAll}, {"torch.randperm", kAll}, {"torch.arange", kAll},
      {"torch.full", 0}, {"torch.linspace", 2}, {"torch.logspace", 2}, {"torch.randint", kLast},
      {"torch.tril_indices", kAll}, {"torch.triu_indices", kAll}, {"torch.normal", kKeyword},
      {"torch.empty_strided", 0},
      // The output size of a resize or an adaptive pool, and the amounts of a pad
      // (SAM's ONNX wrapper resizes masks to sizes read from an input tensor).
      {"torch.nn.functional.interpolate", 1}, {"torch.nn.functional.upsample", 1},
      {"torch.nn.functional.pad", 1}, {"torch.nn.functional.adaptive_avg_pool1d", 1},
      {"torch.nn.functional.adaptive_avg_pool2d", 1}, {"torch.nn.functional.adaptive_avg_pool3d", 1},
      {"torch.nn.functional.adaptive_max_pool1d", 1}, {"torch.nn.functional.adaptive_max_pool2d", 1},
      {"torch.nn.functional.adaptive_max_pool3d", 1}};
  return m;
}

// The keyword that gives the size where it is not `size=`.
std::string_view size_keyword(std::string_view q) {
  if (q == "torch.nn.functional.pad") return "pad";
  if (q.starts_with("torch.nn.functional.adaptive_")) return "output_size";
  return "size";
}

const std::unordered_map<std::string_view, int>& size_methods() {
  static const std::unordered_map<std::string_view, int> m = {
      {"view", kAll}, {"reshape", kAll}, {"expand", kAll}, {"repeat", kAll}, {"tile", kAll},
      {"new_zeros", kAll}, {"new_ones", kAll}, {"new_empty", kAll}, {"new_full", 0},
      {"narrow", 2}, {"split", 0}, {"topk", 0}, {"unflatten", 1}, {"resize_", kAll}};
  return m;
}

class DataDependentSize final : public Check {
 public:
  using Check::Check;

  void on_call(Node call, const SemanticModel& ctx) override {
    std::string q = ctx.resolve(call.field("function"));
    int which = 0;
    bool sized = false;
    if (auto it = size_functions().find(q); it != size_functions().end()) {
      // torch.export fails on the number of points (FX102's); the other sizes it carries.
      if (settings_.target == Target::Export && (q == "torch.linspace" || q == "torch.logspace")) return;
      sized = true;
      which = it->second;
    } else {
      std::string_view m = support::method_name(call, ctx);
      auto mt = size_methods().find(m);
      if (mt != size_methods().end() && support::receiver_is_tensor(call, ctx)) {
        sized = true;
        which = mt->second;
      }
    }
    if (!sized) return;
    const std::vector<Node>& args = support::positional_args(call, ctx);
    for (size_t i = 0; i < args.size(); ++i) {
      bool is_size = which == kAll || (which == kLast && i + 1 == args.size()) || static_cast<int>(i) == which;
      if (is_size && data_dependent(args[i], ctx, settings_.target)) {
        sink_.report(RuleId::FX304, args[i].range(), "size argument computed from tensor values gives a data-dependent shape");
        return;
      }
    }
    // `torch.randint(0, 5, size=(n,))`, `torch.normal(0., 1., size=(n,))`.
    Node arguments = call.field("arguments");
    if (!arguments) return;
    std::string_view keyword = size_keyword(q);
    for (Node a : NamedChildren(arguments)) {
      if (!a.is(NodeKind::KeywordArgument)) continue;
      Node name = a.field("name");
      Node value = a.field("value");
      if (name && value && name.text(ctx.source()) == keyword && data_dependent(value, ctx, settings_.target)) {
        sink_.report(RuleId::FX304, value.range(), "size argument computed from tensor values gives a data-dependent shape");
        return;
      }
    }
  }

  void on_subscript_load(Node sub, const SemanticModel& ctx) override {
    if (!ctx.value_of(sub.field("value")).is_tensor()) return;
    for (Node index : support::subscript_indices(sub)) {
      if (!index.is(NodeKind::Slice)) continue;
      for (Node bound : index.children()) {
        // A tensor bound is FX102's, but for torch.export, which reads it into a symbol; a
        // number read from one breaks Dynamo where it is read.
        Value b = ctx.value_of(bound);
        bool tensor_bound = settings_.target == Target::Export && b.is_tensor() && !b.static_data;
        if ((settings_.target != Target::Dynamo && b.is_tensor_data()) || tensor_bound) {
          sink_.report(RuleId::FX304, bound.range(), "slice bound computed from tensor values gives a data-dependent shape");
          return;
        }
      }
    }
  }

 private:
  // Tensor data as a size; a tuple/list of sizes counts if any element is,
  // and so does a list of tensors (`[h * w for h, w in shapes]` over a tensor).
  static bool data_dependent(Node a, const SemanticModel& ctx, Target target) {
    Node u = a.unparenthesized();
    if (u.is(NodeKind::Tuple) || u.is(NodeKind::List)) {
      for (Node c : u.children()) {
        if (from_data(ctx.value_of(c), target)) return true;
      }
      return false;
    }
    Value v = ctx.value_of(a);
    return from_data(v, target) || (v.kind == ValueKind::TensorSequence && !v.static_data);
  }

  // A tensor as a size. For the tracers that carry data-dependent values as
  // symbols, a Python number read from one too; TorchDynamo broke the graph
  // where it was read (FX101, FX102), and the resumed frame has a plain number.
  // TorchDynamo and torch.export take an input of the compiled frame as a size.
  // Not a value only presumed a tensor (a module's unannotated `size_list=None`, which its
  // caller fills with shapes).
  static bool from_data(const Value& v, Target target) {
    if (v.is_tensor()) return !v.static_data && !v.presumed && !(v.frame_input && target != Target::Fx2Onnx);
    return target != Target::Dynamo && v.is_tensor_data();
  }
};

}  // namespace
std::unique_ptr<Check> make_data_dependent_size(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<DataDependentSize>(s, c);
}
}  // namespace fxlint

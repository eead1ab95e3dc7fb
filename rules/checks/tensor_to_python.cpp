// FX102: a tensor converted to a Python value: tolist(), numpy(), int(t),
// all(t), a tensor as a slice bound or as an index into a Python sequence; for
// export, the number of points of linspace read from data.
#include "rules/check.h"
#include "rules/check_support.h"

namespace fxlint {
namespace {

class TensorToPython final : public Check {
 public:
  using Check::Check;

  void on_call(Node call, const SemanticModel& ctx) override {
    std::string_view method = support::method_name(call, ctx);
    if (method == "tolist" || method == "numpy") {
      // Dynamo takes `t.numpy()` as an array view inside the graph; reading a
      // Python number out of the array is what breaks there.
      if (method == "numpy" && support::dynamo_traces_numpy(settings_.torch_version, settings_.target)) return;
      Value v = ctx.value_of(support::receiver(call, ctx));
      // Non-strict torch.export reads the elements as data-dependent symbols, integers and
      // floats alike; a branch on one fails, and FX106 reports it there. A list whose length
      // depends on data needs that length. (Strict export refuses a float list, as
      // TorchDynamo does: `--target dynamo` reports it.)
      if (settings_.target == Target::Export && method == "tolist" && !v.data_dependent) return;
      if (support::receiver_is_tensor(call, ctx)) {
        sink_.report(RuleId::FX102, call.range(),
                     "`." + std::string(method) + "()` copies tensor data into Python; the tracer cannot follow it");
      }
      return;
    }
    std::string callee = ctx.resolve(call.field("function"));
    report_tensor_of_tensors(call, callee, ctx);
    // `torch.equal(a, b)`, `a.equal(b)`: a Python bool from both tensors' values (checked:
    // Dynamo breaks at the call, "Data dependent operator"; torch.export fails there,
    // DataDependentOutputException), not at the branch that reads it.
    if ((callee == "torch.equal" && !support::positional_args(call, ctx).empty() &&
         ctx.value_of(support::positional_args(call, ctx)[0]).is_tensor()) ||
        (method == "equal" && support::receiver_is_tensor(call, ctx))) {
      sink_.report(RuleId::FX102, call.range(),
                   "`" + std::string(callee.empty() ? ".equal()" : callee) +
                       "` compares the tensors' values into a Python bool: the tracer cannot follow it; keep the "
                       "comparison a tensor (`(a == b).all()`) or decide outside the compiled code");
      return;
    }
    // `x.new_full(size, t)`, `torch.full_like(x, t)`: Dynamo reads a tensor fill value as a
    // Python number (`torch.full(size, t)` it keeps in the graph).
    if (settings_.target == Target::Dynamo) {
      const auto& args = support::positional_args(call, ctx);
      // `torch._check_tensor_all(t)` reads t's value: TorchDynamo breaks there (its `.item()`),
      // where torch.export keeps the check as a runtime assert of the program.
      if (callee == "torch._check_tensor_all" && !args.empty() && ctx.value_of(args[0]).is_tensor()) {
        sink_.report(RuleId::FX102, call.range(),
                     "`torch._check_tensor_all` reads the tensor's value into Python: TorchDynamo breaks the graph "
                     "(torch.export keeps the check in the program)");
        return;
      }
      Node fill;
      if (method == "new_full" && support::receiver_is_tensor(call, ctx) && args.size() >= 2) {
        fill = args[1];
      } else if (callee == "torch.full_like" && args.size() >= 2) {
        fill = args[1];
      }
      if (!fill) fill = (method == "new_full" || callee == "torch.full_like")
                            ? support::keyword_arg(call, "fill_value", ctx.source())
                            : Node();
      if (fill && ctx.value_of(fill).is_tensor()) {
        sink_.report(RuleId::FX102, fill.range(),
                     "a tensor as the fill value is read as a Python number: TorchDynamo breaks the graph "
                     "(`torch.full` keeps it in the graph)");
        return;
      }
    }
    // torch.export carries a count read from data as a symbol, but not the number of points
    // of linspace/logspace: it fails there, strict and non-strict.
    if (settings_.target == Target::Export && (callee == "torch.linspace" || callee == "torch.logspace")) {
      const auto& args = support::positional_args(call, ctx);
      Node steps = args.size() >= 3 ? args[2] : support::keyword_arg(call, "steps", ctx.source());
      Value v = steps ? ctx.value_of(steps) : Value::unknown();
      if ((v.is_tensor() && !v.static_data) || v.is_tensor_data()) {
        sink_.report(RuleId::FX102, steps.range(),
                     "a number of points read from tensor data: torch.export needs it as a Python int and fails "
                     "here");
      }
      return;
    }
    if (callee == "builtins.int" || callee == "builtins.float" || callee == "builtins.bool" ||
        callee == "builtins.complex") {
      const auto& args = support::positional_args(call, ctx);
      if (!args.empty() && ctx.value_of(args[0]).is_tensor()) {
        sink_.report(RuleId::FX102, call.range(),
                     "`" + callee.substr(9) + "()` of a tensor reads its value into Python at trace time");
      } else if (!args.empty() && settings_.target == Target::Export &&
                 ctx.value_of(args[0]).is_data_dependent_scalar()) {
        // torch.export carries `t.item()` as a symbol; int()/float() of it needs the value.
        sink_.report(RuleId::FX102, call.range(),
                     "`" + callee.substr(9) + "()` of a number read from tensor data needs its value: non-strict "
                     "torch.export fails here");
      }
    }
    // set(values) hashes each: torch.export's symbols read from tensor data have no hash
    // ("unhashable type: SymInt"); TorchDynamo broke where the values were read.
    if ((callee == "builtins.set" || callee == "builtins.frozenset") && settings_.target == Target::Export) {
      const auto& args = support::positional_args(call, ctx);
      if (args.size() == 1 && ctx.value_of(args[0]).is_data_dependent_scalar()) {
        sink_.report(RuleId::FX102, call.range(),
                     "`" + callee.substr(9) + "()` hashes numbers read from tensor data: torch.export cannot hash "
                     "its symbols and fails here");
      }
      return;
    }
    // str(t), repr(t): Dynamo has no tensor text in its graph ("repr() on tensor").
    if ((callee == "builtins.str" || callee == "builtins.repr") && settings_.target == Target::Dynamo) {
      const auto& args = support::positional_args(call, ctx);
      if (args.size() == 1 && ctx.value_of(args[0]).is_tensor()) {
        sink_.report(RuleId::FX102, call.range(),
                     "`" + callee.substr(9) + "()` of a tensor needs its values: TorchDynamo breaks the graph");
      }
      return;
    }
    if (std::string_view name = support::truth_of_each_element(call, ctx); !name.empty()) {
      std::string n(name);
      sink_.report(RuleId::FX102, call.range(),
                   "`" + n + "()` of a tensor reads each element into Python at trace time; use `torch." + n + "()`");
    }
  }

  void on_subscript_load(Node sub, const SemanticModel& ctx) override { check_indices(sub, ctx, false); }
  // `y[:n] = v` and `y[:n] += v` read their bounds as a load does.
  void on_store(Node target, Node, Node, const SemanticModel& ctx) override {
    if (target.is(NodeKind::Subscript)) check_indices(target, ctx, true);
  }
  void on_augmented(Node stmt, const SemanticModel& ctx) override {
    Node left = stmt.field("left").unparenthesized();
    if (left.is(NodeKind::Subscript)) check_indices(left, ctx, true);
  }

 private:
  // `torch.tensor([a.sum(), a.max()])`, `torch.as_tensor((h, w))` of 0-d tensors: a new tensor
  // from the values of traced ones. The FX tracer and non-strict torch.export cannot read
  // them (checked: "'len' is not supported", "data is not allocated yet"); TorchDynamo takes
  // `torch.tensor` of them but fails to compile `torch.as_tensor` (TorchRuntimeError; MONAI's
  // MedianFilter). `torch.stack` builds the same tensor in the graph.
  // Whether `n` lies in an arm of a conditional expression or an `if` whose test names `name`.
  static bool chosen_by_test_of(Node n, std::string_view name, std::string_view src) {
    for (Node p = n.parent(); p && !p.is(NodeKind::FunctionDefinition); n = p, p = p.parent()) {
      Node test;
      if (p.is(NodeKind::ConditionalExpression)) {
        std::vector<Node> parts = p.children();
        if (parts.size() == 3 && !(parts[1] == n)) test = parts[1];
      } else if (p.is(NodeKind::IfStatement) || p.is(NodeKind::ElifClause)) {
        if (!(p.field("condition") == n)) test = p.field("condition");
      } else if (p.is(NodeKind::ElseClause) && p.parent() && p.parent().is(NodeKind::IfStatement)) {
        test = p.parent().field("condition");
      }
      if (test && mentions(test, name, src)) return true;
    }
    return false;
  }
  static bool mentions(Node e, std::string_view name, std::string_view src) {
    if (e.is(NodeKind::Identifier)) return e.text(src) == name;
    for (Node c : NamedChildren(e)) {
      if (mentions(c, name, src)) return true;
    }
    return false;
  }

  void report_tensor_of_tensors(Node call, const std::string& callee, const SemanticModel& ctx) {
    bool as_tensor = callee == "torch.as_tensor" || callee == "torch.asarray";
    if (!as_tensor && callee != "torch.tensor") return;
    if (settings_.target == Target::Dynamo && !as_tensor) return;
    const auto& args = support::positional_args(call, ctx);
    if (args.empty()) return;
    Node data = args[0].unparenthesized();
    bool tensors = false;
    if (data.is(NodeKind::List) || data.is(NodeKind::Tuple)) {
      for (Node e : NamedChildren(data)) {
        Value v = ctx.value_of(e);
        tensors = tensors || (v.is_tensor() && !v.static_data);
      }
    } else {
      Value v = ctx.value_of(data);
      // Not in an arm a test of the list's own length or truth chose (diffusers' UniPC:
      // `torch.stack(b) if len(b) > 0 else torch.tensor(b)`, where `b` is empty).
      tensors = v.kind == ValueKind::TensorSequence && !v.static_data &&
                !(data.is(NodeKind::Identifier) && chosen_by_test_of(call, data.text(ctx.source()), ctx.source()));
    }
    if (!tensors) return;
    std::string what = "`" + callee + "` of tensors reads their values: ";
    sink_.report(RuleId::FX102, call.range(),
                 what + (settings_.target == Target::Dynamo ? "TorchDynamo fails to compile it"
                         : settings_.target == Target::Export ? "non-strict torch.export fails here"
                                                              : "the tracer cannot follow it") +
                     "; build it with `torch.stack`");
  }

  void check_indices(Node sub, const SemanticModel& ctx, bool store) {
    Value base = ctx.value_of(sub.field("value"));
    for (Node index : support::subscript_indices(sub)) {
      if (index.is(NodeKind::Slice)) {
        if (!base.is_tensor() && base.kind != ValueKind::TensorSequence) continue;
        // torch.export reads a slice by a symbol it takes from a tensor bound (FX304's); a
        // store through one it cannot make, as it must know the slice's length.
        if (settings_.target == Target::Export && base.is_tensor() && !store) continue;
        for (Node bound : index.children()) {
          if (ctx.value_of(bound).is_tensor()) {
            sink_.report(RuleId::FX102, bound.range(), "tensor used as a slice bound is read as a Python int");
          }
        }
      } else if ((base.kind == ValueKind::TensorSequence || base.kind == ValueKind::Static) &&
                 ctx.value_of(index).is_tensor()) {
        sink_.report(RuleId::FX102, index.range(), "tensor used as an index into a Python sequence is read as a Python int");
      }
    }
  }
};

}  // namespace
std::unique_ptr<Check> make_tensor_to_python(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<TensorToPython>(s, c);
}
}  // namespace fxlint

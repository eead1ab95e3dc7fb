// FX504: constructs a tracer cannot capture: yield, eval/exec, class
// definitions inside compiled code, globals()/locals(), a tensor's `.data`, an
// exact type test of a tensor; for Dynamo, a tensor's requires_grad set by
// assignment. Each as the target's compiler treats it.
#include "analyzer/parameter_name.h"
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
    if (q == "builtins.type") {
      if (Node test = exact_tensor_type_test(call, ctx); test && settings_.target != Target::Dynamo) {
        sink_.report(RuleId::FX504, test.range(),
                     "while tracing, a tensor's `type()` is the tracer's own class (a FakeTensor, a Proxy), so this "
                     "test decides the other way there and the program keeps that branch; use `isinstance`");
      }
      return;
    }
    if (q == "builtins.eval" || q == "builtins.exec" || q == "builtins.globals" || q == "builtins.locals") {
      if (traced_by_target(q, call, ctx.source())) sink_.report(RuleId::FX504, call.range(), "`" + q.substr(9) + "()` cannot be traced");
      return;
    }
    // `torch.zeros(n, requires_grad=True)`: Dynamo does not create leaf tensors that need
    // gradients in a graph (`requires_grad=self.training` breaks in training). A
    // constructor is where parameters belong, also under `--scope all`.
    if (settings_.target != Target::Dynamo || !q.starts_with("torch.") || ctx.function().is_constructor()) return;
    if (q == "torch.nn.Parameter" || q == "torch.nn.parameter.Parameter") {
      sink_.report(RuleId::FX504, call.range(),
                   "`nn.Parameter()` built in compiled code breaks TorchDynamo's graph; build it in `__init__`");
      return;
    }
    Node wants = support::keyword_arg(call, "requires_grad", ctx.source());
    if (!wants || wants.unparenthesized().is(NodeKind::False) || !ctx.value_of(call).is_tensor()) return;
    sink_.report(RuleId::FX504, wants.range(),
                 "a tensor created with `requires_grad` breaks TorchDynamo's graph; create it outside the compiled "
                 "code, or without it");
  }
  // A tensor's `.data` as a value: non-strict torch.export fails on any use of it (the
  // detached fake tensor is left among the program's constants); its metadata is fine.
  void on_attribute_load(Node attr, const SemanticModel& ctx) override {
    if (settings_.target != Target::Export || !is_data_of_tensor(attr, ctx) || metadata_only(attr, ctx.source())) return;
    sink_.report(RuleId::FX504, attr.range(), kDataForExport);
  }
  void on_augmented(Node stmt, const SemanticModel& ctx) override {
    Node target = stmt.field("left").unparenthesized();
    if (!is_data_of_tensor(target, ctx)) return;
    if (settings_.target == Target::Export) {
      sink_.report(RuleId::FX504, target.range(), kDataForExport);
    } else if (settings_.target == Target::Dynamo && made_in_compiled_code(target.field("object"), ctx)) {
      sink_.report(RuleId::FX504, target.range(), kDataForDynamo);
    }
  }
  // `t.requires_grad = False`: TorchDynamo does not trace the setattr (`requires_grad_()` it
  // does); the other tracers run it once. `t.data = v` it traces only where `t` came
  // from outside the compiled code (an input, a parameter, a buffer).
  void on_store(Node target, Node, Node, const SemanticModel& ctx) override {
    if (settings_.target != Target::Dynamo || !target.is(NodeKind::Attribute)) return;
    if (is_data_of_tensor(target, ctx) && made_in_compiled_code(target.field("object"), ctx)) {
      sink_.report(RuleId::FX504, target.range(), kDataForDynamo);
      return;
    }
    if (target.field("attribute").text(ctx.source()) != "requires_grad" || ctx.function().is_constructor()) return;
    if (!ctx.value_of(target.field("object")).is_tensor()) return;
    sink_.report(RuleId::FX504, target.range(),
                 "setting `.requires_grad` on a tensor breaks TorchDynamo's graph; use `.requires_grad_()`");
  }
  void on_statement(Node stmt, const SemanticModel& ctx) override {
    if (stmt.is(NodeKind::DeleteStatement)) {
      if (settings_.target == Target::Dynamo) deleted_context_attributes(stmt, ctx);
      return;
    }
    // Non-strict torch.export runs a class statement as Python, once.
    if (settings_.target == Target::Export) return;
    Node def = stmt.is(NodeKind::DecoratedDefinition) ? stmt.field("definition") : stmt;
    if (def.is(NodeKind::ClassDefinition)) {
      Node name = def.field("name");
      sink_.report(RuleId::FX504, name ? name.range() : def.range(), "class defined inside compiled code");
    }
  }

 private:
  // `del ctx.saved` in an autograd.Function's forward or backward: TorchDynamo cannot
  // trace the Function and breaks at its `apply` (the backward it traces where the
  // inputs need gradients). Non-strict torch.export runs the Function as Python.
  void deleted_context_attributes(Node stmt, const SemanticModel& ctx) {
    const FunctionInfo& fn = ctx.function();
    if (!fn.is_static || (fn.name != "forward" && fn.name != "backward") || !ctx.in_autograd_function()) return;
    Node params = fn.node.field("parameters");
    Node first = params && params.named_child_count() ? parameter_name(params.named_child(0)) : Node{};
    if (!first) return;
    std::string_view context = first.text(ctx.source());
    auto visit = [&](auto&& self, Node n) -> void {
      n = n.unparenthesized();
      if (n.is(NodeKind::Attribute) && n.field("object").unparenthesized().text(ctx.source()) == context) {
        sink_.report(RuleId::FX504, n.range(),
                     "deleting an attribute of an autograd.Function's context breaks TorchDynamo's graph at the "
                     "Function's `apply`; set it to None instead");
        return;
      }
      if (n.is(NodeKind::ExpressionList) || n.is(NodeKind::Tuple) || n.is(NodeKind::List)) {
        for (Node c : NamedChildren(n)) self(self, c);
      }
    };
    for (Node c : NamedChildren(stmt)) visit(visit, c);
  }

  static constexpr const char* kDataForExport =
      "`.data` of a tensor fails non-strict torch.export (its fake tensor is left in the program's constants); "
      "use the tensor or `.detach()`, or update it in place under `torch.no_grad()`";
  static constexpr const char* kDataForDynamo =
      "setting `.data` of a tensor made in compiled code breaks TorchDynamo's graph; bind the new tensor to the "
      "name instead";

  // `type(t) is torch.Tensor` (or `is not`, `==`, `!=`) with `t` a tensor: the comparison.
  static Node exact_tensor_type_test(Node type_call, const SemanticModel& ctx) {
    std::vector<Node> args = type_call.field("arguments").children();
    if (args.size() != 1 || !ctx.value_of(args[0]).is_tensor()) return Node();
    Node cmp = type_call.parent();
    while (cmp && cmp.is(NodeKind::ParenthesizedExpression)) cmp = cmp.parent();
    if (!cmp || !cmp.is(NodeKind::ComparisonOperator)) return Node();
    std::vector<Node> parts = cmp.children();
    std::vector<std::string_view> ops = ctx.comparison_operators(cmp);
    if (parts.size() != 2 || ops.size() != 1 || (ops[0] != "is" && ops[0] != "is not" && ops[0] != "==" && ops[0] != "!=")) {
      return Node();
    }
    Node other = parts[0].unparenthesized() == type_call ? parts[1] : parts[0];
    std::string q = ctx.resolve(other);
    return q == "torch.Tensor" || q == "torch._tensor.Tensor" ? cmp : Node();
  }
  // `t.data` of a tensor, or of a module's attribute (`self.lin.weight.data`: a parameter).
  static bool is_data_of_tensor(Node attr, const SemanticModel& ctx) {
    if (!attr.is(NodeKind::Attribute) || attr.field("attribute").text(ctx.source()) != "data") return false;
    Node object = attr.field("object").unparenthesized();
    if (ctx.value_of(object).is_tensor()) return true;
    return object.is(NodeKind::Attribute) && ctx.value_of(object.field("object")).kind == ValueKind::Module;
  }
  // `t.data.shape`, `t.data.size(0)`: only the tensor's metadata is read.
  static bool metadata_only(Node data, std::string_view src) {
    Node parent = data.parent();
    if (!parent || !parent.is(NodeKind::Attribute) || !(parent.field("object") == data)) return false;
    std::string_view m = parent.field("attribute").text(src);
    return m == "shape" || m == "dtype" || m == "device" || m == "ndim" || m == "is_cuda" || m == "layout" ||
           m == "size" || m == "dim" || m == "numel" || m == "nelement" || m == "stride" || m == "element_size" ||
           m == "is_contiguous" || m == "get_device" || m == "is_floating_point";
  }
  // A local tensor that this function computed (`y = x * 2`), not an input or a
  // module's parameter reached through a name.
  static bool made_in_compiled_code(Node object, const SemanticModel& ctx) {
    object = object.unparenthesized();
    if (!object.is(NodeKind::Identifier)) return false;
    Node bound = ctx.sole_binding(object.text(ctx.source()));
    if (!bound) return false;
    bound = bound.unparenthesized();
    return bound.is(NodeKind::Call) || bound.is(NodeKind::BinaryOperator) || bound.is(NodeKind::UnaryOperator);
  }

  // Whether the target's compiler fails on this call of eval, exec, globals or locals.
  // TorchDynamo breaks on all but `locals()`, which it models as a dict. Non-strict
  // torch.export runs them all as Python, at trace time: only a write through
  // `globals()` is lost, as the program does not repeat it.
  bool traced_by_target(std::string_view q, Node call, std::string_view src) const {
    if (settings_.target == Target::Dynamo) return q != "builtins.locals";
    if (settings_.target == Target::Export) return q == "builtins.globals" && written_through(call, src);
    return true;
  }
  // `globals()[k] = v`, `del globals()[k]`, `globals().update(...)`.
  static bool written_through(Node call, std::string_view src) {
    Node parent = call.parent();
    while (parent && parent.is(NodeKind::ParenthesizedExpression)) parent = parent.parent();
    if (!parent) return false;
    if (parent.is(NodeKind::Subscript)) {
      // The store target itself, or one of a tuple of targets (`globals()[k], n = v, 1`).
      Node target = parent;
      Node holder = parent.parent();
      if (holder && (holder.is(NodeKind::PatternList) || holder.is(NodeKind::ExpressionList))) {
        target = holder;
        holder = holder.parent();
      }
      if (holder && (holder.is(NodeKind::Assignment) || holder.is(NodeKind::AugmentedAssignment)))
        return holder.field("left") == target;
      return holder && holder.is(NodeKind::DeleteStatement);
    }
    if (parent.is(NodeKind::Attribute)) {
      Node attr = parent.field("attribute");
      std::string_view m = attr ? attr.text(src) : std::string_view();
      return m == "update" || m == "setdefault" || m == "pop" || m == "popitem" || m == "clear" ||
             m == "__setitem__" || m == "__delitem__";
    }
    return false;
  }
};

}  // namespace
std::unique_ptr<Check> make_untraceable_construct(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<UntraceableConstruct>(s, c);
}
}  // namespace fxlint

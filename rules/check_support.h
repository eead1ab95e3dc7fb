#pragma once
// Small questions several checks ask about calls, subscripts and targets.
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/code_visitor.h"
#include "rules/registry.h"

namespace fxlint::support {

// The same three questions through the walk's per-call cache.
inline std::string_view method_name(Node call, const SemanticModel& ctx) { return ctx.call_parts(call).method; }
inline Node receiver(Node call, const SemanticModel& ctx) { return ctx.call_parts(call).receiver; }
// Whether a method call's receiver is a tensor where the call runs: a tensor, or an optional
// one (a method of None raises, so the call runs only where it holds a tensor).
inline bool receiver_is_tensor(Node call, const SemanticModel& ctx) {
  Value v = ctx.value_of(receiver(call, ctx));
  return v.is_tensor() || v.kind == ValueKind::OptionalTensor;
}
inline const std::vector<Node>& positional_args(Node call, const SemanticModel& ctx) {
  return ctx.call_parts(call).positional;
}

// `recv.method(...)`: the method name, or "" when the callee is not an attribute.
std::string_view method_name(Node call, std::string_view src);
// `recv` of `recv.method(...)`; invalid Node otherwise.
Node receiver(Node call);
// Positional arguments (no keywords, no splats).
std::vector<Node> positional_args(Node call);
// Value of keyword argument `name`; invalid Node when absent.
Node keyword_arg(Node call, std::string_view name, std::string_view src);
// The index expressions of a subscript (`x[a, b]` -> a, b; a slice is one entry).
std::vector<Node> subscript_indices(Node subscript);

// The qualified name of a call's callee: what SemanticModel::resolve gives,
// and for a function defined at the top of the checked file itself (`nms(...)`
// inside torchvision/ops/boxes.py) its module's name with the function's, so
// that a library's own calls of its functions are known by their public names.
std::string qualified_callee(Node call, const SemanticModel& ctx);

// Whether `expr` names state that outlives the call: a module global, a
// closure variable, or an attribute of `self`.
bool is_outer_object(Node expr, const SemanticModel& ctx);

// `self.<attr>` (or an item of it, `self.<attr>[k]`) of an nn.Module: torch.export puts
// the module's attributes back after tracing, so a write there stays out of both the
// module and the program.
bool is_module_state(Node target, const SemanticModel& ctx);

// For the export target, `target` (written by `write`) is module state that a cache fills
// on a miss, keyed by what a test compares: inside `if <test>:` whose test compares an
// attribute of `self` that the arm also writes (`if self.grid[i].shape != x.shape:
// self.grid[i] = make_grid(...)`, `if key not in self.labels: ...`), or after `if <test>:
// return <hit>` when a later statement writes a compared attribute. torch.export traces the
// miss while the cache is empty, so the program computes the value on every call, as eager
// computes or reuses it: not reported. `if self.cache is None:` keys nothing: eager may
// reuse a value computed from an earlier call's data.
bool exported_cache_fill(Node target, Node write, const SemanticModel& ctx, Target t);

// The tensor that `t.add_(2)` (add_, sub_, mul_ or div_ of one Python number) or `t *= 2`
// (`+=`, `-=`, `*=`, `/=`) updates: non-strict torch.export runs such an update on a real
// tensor that is neither an input nor module state while it traces, so the program starts
// one update ahead (checked; a tensor operand or a unary update it traces right). A null
// node for any other call or augmented assignment.
Node number_update_target(Node call_or_augmented, const SemanticModel& ctx);

// `all(t)` or `any(t)` of one tensor: Python iterates it and takes each element's truth.
// The builtin's name ("all"/"any"), or "" for any other call.
std::string_view truth_of_each_element(Node call, const SemanticModel& ctx);

// The statement that contains `node` directly (its expression_statement, ...).
Node enclosing_statement(Node node);

// The function a compile guard calls (`if not GUARD():`), one that is true
// under the target's tracer on that torch version ("2.14"; "" when unknown).
// torch.fx.symbolic_trace (fx2onnx) answers only is_fx_tracing, and from 2.9
// is_fx_symbolic_tracing; Dynamo and torch.export answer
// torch.compiler.is_compiling from 2.3, and torch._dynamo.is_compiling, which
// every torch 2.x has, before that or when the version is unknown.
std::string_view compile_guard_function(std::string_view torch_version, Target target);

// TorchDynamo traces NumPy calls on tensors and `Tensor.numpy()` into the graph
// (through torch._numpy, `torch._dynamo.config.trace_numpy`, on by default
// since torch 2.1): true for the dynamo target on such a version, or when the
// version is unknown.
bool dynamo_traces_numpy(std::string_view torch_version, Target target);
// How a change of Python state outside the trace goes wrong for `target`, as
// the end of a message: the tracers run it once; TorchDynamo replays it and
// guards on the value.
const char* once_or_replayed(Target target);
// The same for a write of `target`: torch.export restores the attributes a module had
// (is_module_state), so such a write does not run once either.
const char* once_or_replayed(Target t, Node target, const SemanticModel& ctx);
// How a read of mutable Python state goes wrong for `target`, as the end of a
// message: the tracers freeze the value (or the branch it decides); TorchDynamo
// guards on it and compiles again when it changes.
const char* frozen_or_guarded(Target target, bool branch);

}  // namespace fxlint::support

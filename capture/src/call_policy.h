// How a call is captured, decided from what the callee is: inlined user code,
// a graph node (torch functions, tensor methods, standard nn modules), plain
// Python work done at trace time, or a graph break with its rule code.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "records.h"

namespace fxcap {

namespace py = pybind11;

enum class CallKind {
  InlineFunction,  // user Python function: its bytecode is interpreted
  InlineModule,    // user nn.Module: its forward is interpreted
  LeafModule,      // standard torch.nn module: one call_module node
  TorchFunction,   // torch callable: a call_function node when tensors are involved
  TensorMethod,    // tensor method: a call_method node
  Constant,        // Python work on trace-time values, no node
  ZeroArgSuper,    // super() needs the interpreted frame's __class__ cell
  ConstructUser,   // user class: object created eagerly, its __init__ interpreted
  CompilingFlag,   // is_compiling() / is_fx_tracing(): true under capture, as under a tracer
  TensorMinMax,    // max(t, n) / min(t, n) or of two tensors: torch.clamp / maximum / minimum, as Dynamo reads them
  Break,           // runs eagerly between graphs
};

struct CallPlan {
  CallKind kind = CallKind::Constant;
  py::object function;     // InlineFunction / InlineModule: the Python function to run
  py::object bound_self;   // prepended to the arguments when set
  std::string method;      // TensorMethod: the method name; TensorMinMax: "min" or "max"
  BreakInfo brk;           // Break: why
};

class CallPolicy {
 public:
  CallPolicy();
  // `args` are positional values (self first for methods); kwargs may be null.
  CallPlan plan(py::handle callable, const std::vector<py::object>& args, py::handle kwargs) const;
  bool is_grad_mode_object(py::handle obj) const;
  bool is_torch_callable(py::handle callable) const;
  // What runs for `module(...)` when it is inlined: its forward, or, when it
  // has forward hooks, fxlint_capture.module_call.call_with_hooks (the module
  // is then its first argument too).
  py::object module_entry(py::handle module) const;
  // Whether `function` is that hook runner (its frames are not the user's).
  bool is_hook_runner(py::handle function) const { return function.ptr() == call_with_hooks_.ptr(); }

 private:
  bool is_tensor(py::handle v) const;
  bool has_forward_hooks(py::handle module) const;
  bool any_tensor(const std::vector<py::object>& args, py::handle kwargs) const;
  std::string origin_module(py::handle callable) const;
  bool in_stdlib(py::handle function) const;
  CallPlan plan_tensor_method(const std::string& name, const std::vector<py::object>& args,
                              py::handle kwargs) const;
  CallPlan plan_torch(py::handle callable, const std::string& name, const std::vector<py::object>& args,
                      py::handle kwargs) const;
  CallPlan plan_builtin(py::handle callable, const std::string& name, const std::vector<py::object>& args,
                        py::handle kwargs) const;

  py::object tensor_cls_, module_cls_, sequential_cls_, tensor_base_cls_;
  py::object rnn_classes_;  // nn.RNN, nn.GRU, nn.LSTM
  py::object function_type_, method_type_, builtin_type_, method_descriptor_type_, wrapper_descriptor_type_,
      method_wrapper_type_, opoverload_packet_cls_, opoverload_cls_;
  py::object builtins_;
  py::object call_with_hooks_;
  std::vector<py::object> global_forward_hooks_;  // torch's module-wide hook dicts
  std::vector<py::object> grad_mode_classes_;
  std::string stdlib_dir_;
};

}  // namespace fxcap

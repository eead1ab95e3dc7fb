#include "call_policy.h"

#include <Python.h>

#include <functional>
#include <set>

#include "interned.h"
#include "tensor_check.h"

namespace fxcap {
namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

bool has_kwargs_(py::handle kwargs) { return kwargs && !kwargs.is_none() && py::len(kwargs) > 0; }

bool module_is(const std::string& mod, const char* root) {
  std::string r(root);
  return mod == r || starts_with(mod, (r + ".").c_str());
}

CallPlan brk(std::string reason, const char* code, const char* gb) {
  CallPlan p;
  p.kind = CallKind::Break;
  p.brk = {std::move(reason), code, gb};
  return p;
}

CallPlan of_kind(CallKind k) {
  CallPlan p;
  p.kind = k;
  return p;
}

// TorchDynamo's graph-break ids (torch/_dynamo/graph_break_registry.json) for
// the breaks below; "" where Dynamo has no entry or traces the call.

// Tensor methods that hand tensor data to Python.
const char* python_value_gb_id(const std::string& method) {
  if (method == "tolist") return "GB0109";
  if (method == "__index__") return "GB0218";  // index(Tensor)
  if (method == "numpy") return "";             // Dynamo traces it through torch._numpy
  return "GB0033";                              // data-dependent operator (_local_scalar_dense)
}

const char* logging_gb_id(const std::string& module) {
  return module_is(module, "logging") ? "GB0291" : "GB0007";  // warnings is a skipped module
}

// A non-torch library function called from captured code.
const char* library_gb_id(const std::string& module, const std::string& name) {
  if (module_is(module, "numpy")) return "GB0294";  // not in torch._numpy
  if (module_is(module, "time")) return "GB9193";
  if (module_is(module, "copy") && name == "deepcopy") return "GB0179";
  return "GB0007";  // a function Dynamo marks as skipped
}

const std::set<std::string>& dynamic_shape_ops() {
  static const std::set<std::string> s = {"nonzero", "argwhere", "unique", "unique_consecutive", "masked_select",
                                          "bincount", "nms", "batched_nms", "_unique2", "_unique"};
  return s;
}

}  // namespace

CallPolicy::CallPolicy() {
  py::module_ torch = py::module_::import("torch");
  py::module_ types = py::module_::import("types");
  tensor_cls_ = torch.attr(interned("Tensor"));
  tensor_base_cls_ = torch.attr(interned("_C")).attr(interned("_TensorBase"));
  module_cls_ = torch.attr(interned("nn")).attr(interned("Module"));
  sequential_cls_ = torch.attr(interned("nn")).attr(interned("Sequential"));
  py::object nn = torch.attr(interned("nn"));
  rnn_classes_ = py::make_tuple(nn.attr(interned("RNN")), nn.attr(interned("GRU")), nn.attr(interned("LSTM")));
  function_type_ = types.attr(interned("FunctionType"));
  method_type_ = types.attr(interned("MethodType"));
  builtin_type_ = types.attr(interned("BuiltinFunctionType"));
  method_descriptor_type_ = types.attr(interned("MethodDescriptorType"));
  wrapper_descriptor_type_ = types.attr(interned("WrapperDescriptorType"));
  method_wrapper_type_ = types.attr(interned("MethodWrapperType"));
  opoverload_packet_cls_ = torch.attr(interned("_ops")).attr(interned("OpOverloadPacket"));
  opoverload_cls_ = torch.attr(interned("_ops")).attr(interned("OpOverload"));
  builtins_ = py::module_::import("builtins");
  py::module_ module_call = py::module_::import("fxlint_capture.module_call");
  py::module_ torch_module = py::module_::import("torch.nn.modules.module");
  for (const char* name : {"_global_forward_pre_hooks", "_global_forward_hooks"})
    global_forward_hooks_.push_back(torch_module.attr(name));  // mutated in place, never rebound
  call_with_hooks_ = module_call.attr(interned("call_with_hooks"));
  for (const char* n : {"no_grad", "enable_grad", "set_grad_enabled", "inference_mode"})
    if (py::hasattr(torch, n)) grad_mode_classes_.push_back(torch.attr(n));
  // sysconfig computes its paths on every call; the answer never changes.
  static const std::string stdlib_dir = py::str(py::module_::import("sysconfig").attr("get_paths")()["stdlib"]);
  stdlib_dir_ = stdlib_dir;
}

bool CallPolicy::is_tensor(py::handle v) const {
  return v && is_tensor_object(v.ptr(), tensor_cls_.ptr());
}

bool CallPolicy::any_tensor(const std::vector<py::object>& args, py::handle kwargs) const {
  std::function<bool(py::handle)> has = [&](py::handle v) -> bool {
    if (is_tensor(v)) return true;
    if (PyTuple_Check(v.ptr()) || PyList_Check(v.ptr())) {
      for (auto i : v)
        if (has(i)) return true;
    }
    if (PyDict_Check(v.ptr())) {
      for (auto kv : py::reinterpret_borrow<py::dict>(v))
        if (has(kv.second)) return true;
    }
    return false;
  };
  for (const auto& a : args)
    if (has(a)) return true;
  if (kwargs && !kwargs.is_none() && has(kwargs)) return true;
  return false;
}

bool CallPolicy::is_grad_mode_object(py::handle obj) const {
  for (const auto& c : grad_mode_classes_)
    if (PyObject_IsInstance(obj.ptr(), c.ptr()) == 1) return true;
  return false;
}

std::string CallPolicy::origin_module(py::handle callable) const {
  py::object mod = py::getattr(callable, interned("__module__"), py::none());
  if (PyUnicode_Check(mod.ptr())) return py::str(mod);
  py::object self = py::getattr(callable, interned("__self__"), py::none());
  if (!self.is_none()) {
    if (PyModule_Check(self.ptr())) return py::str(self.attr(interned("__name__")));
    mod = py::getattr(py::type::of(self), interned("__module__"), py::none());
    if (PyUnicode_Check(mod.ptr())) return py::str(mod);
  }
  mod = py::getattr(py::type::of(callable), interned("__module__"), py::none());
  return PyUnicode_Check(mod.ptr()) ? std::string(py::str(mod)) : std::string();
}

bool CallPolicy::is_torch_callable(py::handle callable) const {
  std::string mod = origin_module(callable);
  return module_is(mod, "torch");
}

bool CallPolicy::in_stdlib(py::handle function) const {
  py::object code = py::getattr(function, interned("__code__"), py::none());
  if (code.is_none()) return false;
  std::string file = py::str(code.attr(interned("co_filename")));
  return starts_with(file, (stdlib_dir_ + "/").c_str()) && file.find("-packages/") == std::string::npos;
}

CallPlan CallPolicy::plan_tensor_method(const std::string& name, const std::vector<py::object>& args,
                                        py::handle /*kwargs*/) const {
  if (name == "item") return brk("Tensor.item() reads a Python number from tensor data", "FX101", "GB0124");
  if (name == "tolist" || name == "numpy" || name == "__int__" || name == "__float__" || name == "__index__" ||
      name == "__complex__" || name == "equal" || name == "allclose" || name == "is_nonzero")
    return brk("Tensor." + name + "() turns tensor data into a Python value", "FX102", python_value_gb_id(name));
  if (name == "__bool__") return brk("Tensor.__bool__() needs the tensor's value", "FX103", "GB0170");
  if (name == "data_ptr") return brk("Tensor.data_ptr() reads a device address", "FX503", "");
  if (dynamic_shape_ops().count(name))
    return brk("dynamic-shape operator Tensor." + name + "(): its output size depends on tensor data", "FX303",
               "GB0036");
  if (name == "repeat_interleave" && args.size() >= 2 && is_tensor(args[1]))
    return brk("dynamic-shape operator Tensor.repeat_interleave() with tensor repeats", "FX303", "GB0036");
  if (name == "masked_scatter")
    return brk("dynamic-shape operator Tensor.masked_scatter()", "FX303", "GB0036");
  CallPlan p;
  p.kind = CallKind::TensorMethod;
  p.method = name;
  return p;
}

CallPlan CallPolicy::plan_torch(py::handle /*callable*/, const std::string& name, const std::vector<py::object>& args,
                                py::handle kwargs) const {
  bool has_kwargs = kwargs && !kwargs.is_none() && py::len(kwargs) > 0;
  if (dynamic_shape_ops().count(name))
    return brk("dynamic-shape operator " + name + ": its output size depends on tensor data", "FX303", "GB0036");
  if (name == "where" && args.size() == 1 && !has_kwargs)
    return brk("dynamic-shape operator torch.where(condition) with one argument", "FX303", "GB0036");
  if (name == "repeat_interleave" && args.size() >= 2 && is_tensor(args[1]))
    return brk("dynamic-shape operator torch.repeat_interleave() with tensor repeats", "FX303", "GB0036");
  if (name == "one_hot") {
    py::object n = py::none();
    if (args.size() >= 2) n = args[1];
    if (has_kwargs && kwargs.contains("num_classes")) n = kwargs["num_classes"];
    if (n.is_none() || (PyLong_Check(n.ptr()) && n.cast<long>() < 0))
      return brk("dynamic-shape operator one_hot() without num_classes", "FX303", "GB0246");
  }
  if (name == "equal" || name == "allclose" || name == "is_nonzero")
    return brk("torch." + name + "() turns tensor data into a Python value", "FX102", "GB0033");
  if (name == "annotate" || name == "_unwrap_optional") return of_kind(CallKind::Constant);
  return of_kind(CallKind::TorchFunction);
}

CallPlan CallPolicy::plan_builtin(py::handle /*callable*/, const std::string& name, const std::vector<py::object>& args,
                                  py::handle kwargs) const {
  bool tensors = any_tensor(args, kwargs);
  if (name == "print") return brk("print() writes to stdout while tracing", "FX501", "GB0059");
  if (name == "__build_class__") return brk("class definition inside compiled code", "FX504", "GB0075");
  if (name == "eval" || name == "exec" || name == "compile" || name == "locals" || name == "vars" ||
      name == "globals")
    return brk(name + "() inspects or runs Python code the capture cannot trace", "FX504",
               name == "vars" && args.empty() ? "GB0270" : "");
  if (name == "input" || name == "open" || name == "breakpoint")
    return brk("call to builtin " + name + "()", "FX502", "");
  if (name == "super" && args.empty()) return of_kind(CallKind::ZeroArgSuper);
  if (!tensors) return of_kind(CallKind::Constant);
  if (name == "int" || name == "float" || name == "bool" || name == "complex")
    return brk(name + "() of a tensor turns tensor data into a Python value", "FX102", "GB0033");
  if ((name == "min" || name == "max") && args.size() == 2 && !has_kwargs_(kwargs)) {
    auto operand = [&](const py::object& a) {
      return is_tensor(a) || (PyNumber_Check(a.ptr()) && (PyLong_Check(a.ptr()) || PyFloat_Check(a.ptr())));
    };
    if (operand(args[0]) && operand(args[1])) {
      CallPlan p = of_kind(CallKind::TensorMinMax);
      p.method = name;
      return p;
    }
  }
  if (name == "min" || name == "max" || name == "sorted")
    return brk(name + "() compares tensors and needs a Python bool", "FX103", "GB0170");
  if (name == "str" || name == "repr" || name == "format" || name == "ascii")
    return brk(name + "() of a tensor reads its data", "FX502", "GB0569");
  if (name == "abs" || name == "pow" || name == "round" || name == "sum" || name == "divmod")
    return of_kind(CallKind::TorchFunction);
  static const std::set<std::string> shape_level = {
      "len", "isinstance", "issubclass", "type", "id", "hasattr", "getattr", "callable", "tuple", "list",
      "dict", "set", "frozenset", "iter", "next", "enumerate", "zip", "reversed", "range", "slice", "map",
      "filter", "all", "any", "hash", "object", "super", "setattr", "delattr", "property", "staticmethod",
      "classmethod"};
  if (shape_level.count(name)) return of_kind(CallKind::Constant);
  return brk("call to builtin " + name + "() with tensor arguments", "FX502", "GB0059");
}

// Checked on every module call, so in C++: the same hooks module_call.py runs.
bool CallPolicy::has_forward_hooks(py::handle module) const {
  auto non_empty = [](py::handle hooks) {
    Py_ssize_t n = hooks.is_none() ? 0 : PyObject_Length(hooks.ptr());
    if (n < 0) PyErr_Clear();  // not a container: no hooks to run
    return n > 0;
  };
  for (const py::object& hooks : global_forward_hooks_)
    if (non_empty(hooks)) return true;
  for (const char* name : {"_forward_pre_hooks", "_forward_hooks"})
    if (non_empty(py::getattr(module, interned(name), py::none()))) return true;
  return false;
}

py::object CallPolicy::module_entry(py::handle module) const {
  if (has_forward_hooks(module)) return call_with_hooks_;
  return py::type::of(module).attr(interned("forward"));
}

CallPlan CallPolicy::plan(py::handle callable, const std::vector<py::object>& args, py::handle kwargs) const {
  PyObject* c = callable.ptr();

  // Bound Python methods: decide on the function, with self first.
  if (PyMethod_Check(c)) {
    py::object func = py::reinterpret_borrow<py::object>(PyMethod_GET_FUNCTION(c));
    py::object self = py::reinterpret_borrow<py::object>(PyMethod_GET_SELF(c));
    if (PyFunction_Check(func.ptr()) && PyObject_IsInstance(self.ptr(), module_cls_.ptr()) == 1) {
      // A module's own helper methods (self._sa_block) are part of its forward: inline.
      CallPlan p;
      p.kind = CallKind::InlineFunction;
      p.function = func;
      p.bound_self = self;
      return p;
    }
    std::vector<py::object> full{self};
    full.insert(full.end(), args.begin(), args.end());
    CallPlan p = plan(func, full, kwargs);
    if (p.kind == CallKind::TensorMethod || p.kind == CallKind::InlineFunction) p.bound_self = self;
    if (p.kind == CallKind::InlineFunction && !p.function) p.function = func;
    return p;
  }

  // nn.Module instances.
  if (PyObject_IsInstance(c, module_cls_.ptr()) == 1) {
    std::string mod = py::str(py::type::of(callable).attr(interned("__module__")));
    bool standard = module_is(mod, "torch.nn") || module_is(mod, "torch.ao");
    // TorchDynamo runs these eagerly unless torch._dynamo.config.allow_rnn is set.
    if (PyObject_IsInstance(c, rnn_classes_.ptr()) == 1) {
      std::string cls = py::str(py::type::of(callable).attr(interned("__name__")));
      CallPlan p = brk("Attempted to wrap RNN, GRU, or LSTM: " + cls + " runs eagerly, outside the graph", "FX502",
                       "GB0014");
      p.brk.resumable = false;  // Dynamo fails on loading the module, where no resume function can start
      return p;
    }
    // Standard modules are graph leaves, as in torch.fx (the graph's call runs their hooks);
    // Sequential is followed, unless it has hooks.
    if (standard && (PyObject_IsInstance(c, sequential_cls_.ptr()) != 1 || has_forward_hooks(callable)))
      return of_kind(CallKind::LeafModule);
    py::object forward = py::getattr(py::type::of(callable), interned("forward"), py::none());
    if (PyFunction_Check(forward.ptr())) {
      CallPlan p;
      p.kind = CallKind::InlineModule;
      p.function = module_entry(callable);
      p.bound_self = py::reinterpret_borrow<py::object>(callable);
      return p;
    }
    return of_kind(CallKind::LeafModule);
  }

  std::string mod = origin_module(callable);
  std::string name = py::str(py::getattr(callable, interned("__name__"), py::str("")));
  if ((name == "is_compiling" && (mod == "torch.compiler" || module_is(mod, "torch._dynamo") ||
                                  mod == "torch._utils_internal")) ||
      ((name == "is_fx_tracing" || name == "is_fx_symbolic_tracing") && module_is(mod, "torch.fx")))
    return of_kind(CallKind::CompilingFlag);

  if (PyObject_IsInstance(c, opoverload_packet_cls_.ptr()) == 1 || PyObject_IsInstance(c, opoverload_cls_.ptr()) == 1) {
    std::string qual = py::str(py::getattr(callable, interned("_qualified_op_name"), py::str(name)));
    std::string short_name = qual.substr(qual.rfind(':') == std::string::npos ? 0 : qual.rfind(':') + 1);
    return plan_torch(callable, short_name, args, kwargs);
  }

  // C functions and C methods.
  if (PyCFunction_Check(c) || PyObject_TypeCheck(c, reinterpret_cast<PyTypeObject*>(method_wrapper_type_.ptr()))) {
    py::object self = py::getattr(callable, interned("__self__"), py::none());
    if (is_tensor(self)) {
      CallPlan p = plan_tensor_method(name, [&] {
        std::vector<py::object> full{self};
        full.insert(full.end(), args.begin(), args.end());
        return full;
      }(), kwargs);
      p.bound_self = self;
      return p;
    }
    if (self.ptr() == builtins_.ptr()) return plan_builtin(callable, name, args, kwargs);
    if (!self.is_none() && !PyModule_Check(self.ptr())) {
      // Methods of Python containers (list.append, dict.get, ...) just move values around.
      std::string owner = py::str(py::type::of(self).attr(interned("__module__")));
      if (owner == "builtins" || owner == "collections") return of_kind(CallKind::Constant);
    }
    if (module_is(mod, "torch")) return plan_torch(callable, name, args, kwargs);
    if (module_is(mod, "logging") || module_is(mod, "warnings") || module_is(mod, "_warnings"))
      return brk("logging call " + name + "() while tracing", "FX501", logging_gb_id(mod));
    if (module_is(mod, "numpy") || module_is(mod, "time") || module_is(mod, "random") || module_is(mod, "copy") ||
        module_is(mod, "_random") || module_is(mod, "os") || module_is(mod, "posix"))
      return brk("call to " + mod + "." + name + "(), which is not a torch operation", "FX502",
                 library_gb_id(mod, name));
    if (any_tensor(args, kwargs))
      return brk("call to " + (mod.empty() ? "" : mod + ".") + name + "() on tensors, which is not a torch operation",
                 "FX502", "GB0007");
    return of_kind(CallKind::Constant);
  }

  // Unbound C methods such as torch.Tensor.add or str.join.
  if (PyObject_TypeCheck(c, reinterpret_cast<PyTypeObject*>(method_descriptor_type_.ptr())) ||
      PyObject_TypeCheck(c, reinterpret_cast<PyTypeObject*>(wrapper_descriptor_type_.ptr()))) {
    py::object owner = py::getattr(callable, interned("__objclass__"), py::none());
    if (!owner.is_none() && PyObject_IsSubclass(tensor_cls_.ptr(), owner.ptr()) == 1 && !args.empty() &&
        is_tensor(args[0]))
      return plan_tensor_method(name, args, kwargs);
    if (any_tensor(args, kwargs) && !module_is(mod, "torch"))
      return brk("call to " + name + "() on tensors, which is not a torch operation", "FX502", "GB0007");
    return of_kind(CallKind::Constant);
  }

  if (PyFunction_Check(c)) {
    // torch.jit's _script_if_tracing wrapper only calls the function it wraps when not
    // tracing: follow that function directly, so the wrapper's frame is not the user's.
    if (py::hasattr(callable, interned("__script_if_tracing_wrapper"))) {
      py::object original = py::getattr(callable, interned("__original_fn"), py::none());
      if (PyFunction_Check(original.ptr())) {
        CallPlan p = plan(original, args, kwargs);
        if (p.kind == CallKind::InlineFunction && !p.function) p.function = original;
        return p;
      }
    }
    if (module_is(mod, "torch")) {
      // Python-level Tensor methods (Tensor.split, Tensor.unique, ...) stay methods.
      if (!args.empty() && is_tensor(args[0])) {
        py::object same = py::getattr(tensor_cls_, name.c_str(), py::none());
        if (same.ptr() == c) return plan_tensor_method(name, args, kwargs);
      }
      // A module's method called through its class (`nn.LayerNorm.forward(self, x)` in a
      // subclass): Dynamo traces it as it traces the module's own code, and a graph could
      // not name it as a function (fx would write torch.nn.modules.normalization.forward).
      std::string qualname = py::str(py::getattr(callable, interned("__qualname__"), py::str("")));
      if (qualname.find('.') != std::string::npos && qualname.find("<locals>") == std::string::npos &&
          !args.empty() && PyObject_IsInstance(args[0].ptr(), module_cls_.ptr()) == 1) {
        CallPlan p;
        p.kind = CallKind::InlineFunction;
        p.function = py::reinterpret_borrow<py::object>(callable);
        return p;
      }
      return plan_torch(callable, name, args, kwargs);
    }
    if (module_is(mod, "logging") || module_is(mod, "warnings"))
      return brk("logging call " + name + "() while tracing", "FX501", logging_gb_id(mod));
    if (module_is(mod, "copy") && name == "copy" && args.size() == 1 && !has_kwargs_(kwargs) &&
        (PyList_Check(args[0].ptr()) || PyDict_Check(args[0].ptr()) || PySet_Check(args[0].ptr()) ||
         PyTuple_Check(args[0].ptr())))
      return of_kind(CallKind::Constant);  // a shallow copy of a container reads no tensor data
    if (module_is(mod, "numpy") || module_is(mod, "random") || module_is(mod, "copy") || module_is(mod, "time"))
      return brk("call to " + mod + "." + name + "(), which is not a torch operation", "FX502",
                 library_gb_id(mod, name));
    if (module_is(mod, "fxlint_capture")) return of_kind(CallKind::Constant);
    if (in_stdlib(callable)) {
      if (any_tensor(args, kwargs))
        return brk("call to standard-library function " + mod + "." + name + "() on tensors", "FX502", "GB0007");
      return of_kind(CallKind::Constant);
    }
    CallPlan p;
    p.kind = CallKind::InlineFunction;
    p.function = py::reinterpret_borrow<py::object>(callable);
    return p;
  }

  // Classes.
  if (PyType_Check(c)) {
    if (PyObject_IsSubclass(c, module_cls_.ptr()) == 1) return of_kind(CallKind::Constant);
    if (module_is(mod, "builtins")) return plan_builtin(callable, name, args, kwargs);
    if (module_is(mod, "torch")) return plan_torch(callable, name, args, kwargs);
    if (module_is(mod, "numpy"))
      return brk("call to numpy." + name + "(), which is not a torch operation", "FX502", "GB0294");
    py::object init = py::getattr(callable, interned("__init__"), py::none());
    py::object new_ = py::getattr(callable, interned("__new__"), py::none());
    py::object object_new = builtins_.attr(interned("object")).attr(interned("__new__"));
    if (PyFunction_Check(init.ptr()) && new_.ptr() == object_new.ptr() && !in_stdlib(init) &&
        !module_is(origin_module(init), "torch")) {
      CallPlan p;
      p.kind = CallKind::ConstructUser;
      p.function = init;
      return p;
    }
    // Other classes (namedtuples, OrderedDict, C types) are built eagerly; tensors they hold keep
    // their graph nodes, because tensors are tracked by identity.
    return of_kind(CallKind::Constant);
  }

  // Callable objects with a Python __call__.
  py::object call = py::getattr(py::type::of(callable), interned("__call__"), py::none());
  if (PyFunction_Check(call.ptr()) && !module_is(origin_module(call), "torch") && !in_stdlib(call) &&
      !module_is(origin_module(call), "functools")) {
    CallPlan p;
    p.kind = CallKind::InlineFunction;
    p.function = call;
    p.bound_self = py::reinterpret_borrow<py::object>(callable);
    return p;
  }
  if (module_is(mod, "torch")) return plan_torch(callable, name, args, kwargs);
  if (any_tensor(args, kwargs))
    return brk("call to " + name + "() on tensors, which capture cannot trace", "FX502", "GB0007");
  return of_kind(CallKind::Constant);
}

}  // namespace fxcap

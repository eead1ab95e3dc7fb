// Calls: the CALL and CALL_FUNCTION_EX handlers; the policy decides, this file
// carries it out (inline, graph node, trace-time Python, or a graph break with
// the call run eagerly).
#include <Python.h>

#include <set>

#include "frame_stack.h"
#include "generator.h"
#include "interned.h"
#include "interpreter.h"
#include "module_tree.h"
#include "py_errors.h"
#include "tensor_check.h"

namespace fxcap {
namespace {

[[noreturn]] void raise_type_error(const std::string& message) {
  PyErr_SetString(PyExc_TypeError, message.c_str());
  throw py::error_already_set();
}

py::tuple to_tuple(const std::vector<py::object>& v, size_t from = 0) {
  py::tuple t(v.size() > from ? v.size() - from : 0);
  for (size_t i = from; i < v.size(); ++i) t[i - from] = v[i];
  return t;
}

const std::set<std::string>& mutating_methods() {
  static const std::set<std::string> s = {"append", "extend", "insert", "pop", "remove", "clear", "sort",
                                          "reverse", "update", "setdefault", "popitem", "add", "discard",
                                          "__setitem__", "__delitem__", "appendleft", "extendleft"};
  return s;
}

// torch's usage logging (torch._C._log_api_usage_once, which torchvision's ops
// call first): Dynamo keeps the call in the graph as a node, so a unit that
// logs and then breaks compiles a graph of its own, one node long.
bool is_usage_logging(py::handle callable, py::handle result) {
  if (!result.is_none() || !PyCFunction_Check(callable.ptr())) return false;
  py::object module = py::getattr(callable, interned("__module__"), py::none());
  if (!PyUnicode_Check(module.ptr()) || std::string(py::str(module)) != "torch._C") return false;
  return std::string(py::str(callable.attr(interned("__name__")))).rfind("_log_api_usage", 0) == 0;
}

}  // namespace

py::object Interpreter::call_eagerly(py::handle callable, const std::vector<py::object>& args, py::handle kwargs) {
  PyObject* kw = (kwargs && !kwargs.is_none() && PyDict_Size(kwargs.ptr()) > 0) ? kwargs.ptr() : nullptr;
  return steal_or_throw(PyObject_Call(callable.ptr(), to_tuple(args).ptr(), kw));
}

void Interpreter::note_container_mutation(py::handle callable, const std::vector<py::object>& args) {
  if (!PyCFunction_Check(callable.ptr())) return;
  PyObject* self = PyCFunction_GET_SELF(callable.ptr());
  if (!self || !(PyList_Check(self) || PyDict_Check(self) || PySet_Check(self))) return;
  if (created_here(self)) return;
  std::string name = py::str(callable.attr(interned("__name__")));
  if (!mutating_methods().count(name)) return;
  std::string target = std::string(Py_TYPE(self)->tp_name) + "." + name;
  py::object value = args.empty() ? py::none() : args.back();
  side_effect("container", target, value, "FX204", "FX404");
}

std::vector<py::object> Interpreter::bind_arguments(const DecodedCode& code, py::handle fn,
                                                    const std::vector<py::object>& args, py::handle kwargs) {
  std::vector<py::object> locals(code.localsplus_names.size());
  int npos = code.argcount;
  int nkwonly = code.kwonlyargcount;
  int slot = npos + nkwonly;
  int varargs_slot = (code.flags & kCoVarargs) ? slot++ : -1;
  int varkw_slot = (code.flags & kCoVarkeywords) ? slot++ : -1;
  std::string fname = code.name + "()";

  size_t given = args.size();
  for (size_t i = 0; i < given && static_cast<int>(i) < npos; ++i) locals[i] = args[i];
  if (static_cast<int>(given) > npos) {
    if (varargs_slot < 0)
      raise_type_error(fname + " takes " + std::to_string(npos) + " positional arguments but " +
                       std::to_string(given) + " were given");
    locals[varargs_slot] = to_tuple(args, npos);
  } else if (varargs_slot >= 0) {
    locals[varargs_slot] = py::tuple();
  }
  py::dict extra;
  if (kwargs && !kwargs.is_none()) {
    for (auto kv : py::reinterpret_borrow<py::dict>(kwargs)) {
      std::string key = py::str(kv.first);
      int found = -1;
      for (int i = code.posonlyargcount; i < npos + nkwonly; ++i)
        if (code.localsplus_names[i] == key) found = i;
      if (found < 0) {
        if (varkw_slot < 0) raise_type_error(fname + " got an unexpected keyword argument '" + key + "'");
        extra[kv.first] = kv.second;
        continue;
      }
      if (locals[found]) raise_type_error(fname + " got multiple values for argument '" + key + "'");
      locals[found] = py::reinterpret_borrow<py::object>(kv.second);
    }
  }
  if (varkw_slot >= 0) {
    locals[varkw_slot] = extra;
    mark_created(extra);  // the callee's own **kwargs dict: kw.pop() changes nothing outside
  }

  py::object defaults = py::getattr(fn, interned("__defaults__"), py::none());
  int ndefaults = defaults.is_none() ? 0 : static_cast<int>(py::len(defaults));
  for (int i = 0; i < npos; ++i) {
    if (locals[i]) continue;
    int d = i - (npos - ndefaults);
    if (d >= 0) {
      locals[i] = defaults[py::int_(d)];
    } else {
      raise_type_error(fname + " missing required positional argument: '" + code.localsplus_names[i] + "'");
    }
  }
  py::object kwdefaults = py::getattr(fn, interned("__kwdefaults__"), py::none());
  for (int i = npos; i < npos + nkwonly; ++i) {
    if (locals[i]) continue;
    py::str key(code.localsplus_names[i]);
    if (!kwdefaults.is_none() && kwdefaults.contains(key)) {
      locals[i] = kwdefaults[key];
    } else {
      raise_type_error(fname + " missing required keyword-only argument: '" + code.localsplus_names[i] + "'");
    }
  }
  return locals;
}

py::object Interpreter::call_with_key(Frame& f, py::handle callable, const std::vector<py::object>& args,
                                      py::dict kwargs) {
  // The key function is user code: it is interpreted for each item (a break inside it
  // is at its own line), and what gets compared is what it returns.
  py::object key = kwargs["key"];
  py::list items;
  py::object it = get_iter(args[0]);
  while (PyObject* n = PyIter_Next(it.ptr())) items.append(py::reinterpret_steal<py::object>(n));
  if (PyErr_Occurred()) throw py::error_already_set();
  py::list keys;
  for (auto item : items) keys.append(call(f, key, {py::reinterpret_borrow<py::object>(item)}, py::object()));
  py::dict rest;
  for (auto kv : kwargs)
    if (std::string(py::str(kv.first)) != "key") rest[kv.first] = kv.second;
  if (graphs_.contains_tensor(keys)) {
    graphs_.escape(keys);
    std::string name = py::str(callable.attr(interned("__name__")));
    graph_break({name + "() compares tensors and needs a Python bool", "FX103", "GB0170"});
  }
  if (items.empty()) return call_eagerly(callable, {items}, rest);  // default=, or the builtin's own error
  rest["key"] = keys.attr(interned("__getitem__"));
  py::object order = call_eagerly(callable, {py::reinterpret_steal<py::object>(PyObject_CallFunction(
                                                 reinterpret_cast<PyObject*>(&PyRange_Type), "n",
                                                 static_cast<Py_ssize_t>(items.size())))},
                                  rest);
  if (PyList_Check(order.ptr())) {
    py::list out;
    for (auto i : order) out.append(items[i]);
    mark_created(out);
    return out;
  }
  return items[order];
}

py::object Interpreter::run_natively(py::handle fn, const std::vector<py::object>& args, py::handle kwargs) {
  py::object r = call_eagerly(fn, args, kwargs);
  graphs_.mark_external(r);
  return r;
}

void Interpreter::add_tensor_inputs(const std::string& name, const std::string& source, py::handle value) {
  // Tensors inside argument containers (a list of images, a dict of features) are inputs too.
  if (graphs_.is_tensor(value)) {
    graphs_.add_input(name, value);
    std::string detail = std::string(py::str(value.attr(interned("dtype")))) + " " +
                         std::string(py::str(py::tuple(value.attr(interned("shape"))))) + " " +
                         std::string(py::str(value.attr(interned("device")))) +
                         (value.attr(interned("requires_grad")).cast<bool>() ? " requires_grad" : "");
    records_.add_guard(source, "TENSOR_MATCH", detail);
    return;
  }
  if (PyTuple_Check(value.ptr()) || PyList_Check(value.ptr())) {
    records_.add_guard(source, "LIST_LENGTH", std::to_string(py::len(value)));
    size_t i = 0;
    for (auto item : value) {
      add_tensor_inputs(name + "_" + std::to_string(i), source + "[" + std::to_string(i) + "]", item);
      ++i;
    }
  } else if (PyDict_Check(value.ptr())) {
    records_.add_guard(source, "DICT_KEYS", py::repr(py::list(value.attr(interned("keys"))())));
    for (auto kv : py::reinterpret_borrow<py::dict>(value))
      add_tensor_inputs(name + "_" + std::string(py::str(kv.first)),
                        source + "[" + std::string(py::repr(kv.first)) + "]", kv.second);
  }
}

py::object Interpreter::run_function(py::handle fn, const std::vector<py::object>& args, py::handle kwargs,
                                     const char* source_prefix) {
  py::object fcode = fn.attr(interned("__code__"));
  const DecodedCode& code = decode(fcode);
  bool top_level = frames_.empty();

  std::string refusal;
  int refusal_line = code.firstlineno;
  if (code.first_unsupported >= 0) {
    refusal = "unsupported bytecode " + code.instrs[code.first_unsupported].opname;
    refusal_line = code.instrs[code.first_unsupported].line;
  } else if (code.flags & (kCoCoroutine | kCoAsyncGenerator)) {
    refusal = "unsupported bytecode: coroutine " + code.name;
  } else if (top_level && (code.flags & kCoGenerator)) {
    refusal = "yield in the captured function";
    for (const auto& in : code.instrs)
      if (in.op == Op::YIELD_VALUE) {
        refusal_line = in.line;
        break;
      }
  } else if (static_cast<int>(frames_.size()) >= options_.max_inline_depth) {
    refusal = "inlining too deep at " + code.name;
  }
  if (!refusal.empty()) {
    // The function runs eagerly, outside any graph; capture goes on after it.
    if (top_level || graphs_.recording()) {
      BreakRecord r;
      r.info = {refusal, "FX504", refusal.rfind("yield", 0) == 0 ? "GB0003" : ""};
      r.stack = user_stack();
      r.stack.push_back({code.filename, refusal_line, code.name});
      record_break(std::move(r), true);
    }
    return run_natively(fn, args, kwargs);
  }

  if (code.flags & kCoGenerator) {
    // Calling a generator function runs nothing yet: the frame waits for next().
    auto frame = std::make_unique<Frame>();
    init_frame(*frame, code, fn, args, kwargs, source_prefix);
    frame->generator = true;
    enter_frame_mode(*frame);
    // Wrapped in a real generator object (inspect.isgenerator), which delegates to it.
    static py::object* as_generator =  // never destroyed: it would outlive the interpreter at exit
        new py::object(py::module_::import("fxlint_capture.frames").attr(interned("as_generator")));
    py::object qualname = fcode.attr(interned("co_qualname"));
    return (*as_generator)(py::cast(InterpretedGenerator(shared_from_this(), std::move(frame))), py::str(code.name),
                        qualname);
  }
  Frame f;
  init_frame(f, code, fn, args, kwargs, source_prefix);
  enter_frame_mode(f);
  return run_frame(f);
}

void Interpreter::init_frame(Frame& f, const DecodedCode& code, py::handle fn, const std::vector<py::object>& args,
                             py::handle kwargs, const char* source_prefix) {
  f.code = &code;
  f.function = py::reinterpret_borrow<py::object>(fn);
  f.globals = fn.attr(interned("__globals__"));
  PyObject* b = PyDict_GetItemString(f.globals.ptr(), "__builtins__");
  f.builtins = b ? py::reinterpret_borrow<py::object>(b) : py::object(py::module_::import("builtins"));
  f.locals = bind_arguments(code, fn, args, kwargs);
  if (source_prefix) register_inputs(code, f.locals, source_prefix);
}

void Interpreter::register_inputs(const DecodedCode& code, const std::vector<py::object>& locals,
                                  const char* source_prefix) {
  int nargs = code.argument_slots();
  for (int i = 0; i < nargs; ++i) {
    const py::object& v = locals[i];
    std::string src = std::string(source_prefix) + "['" + code.localsplus_names[i] + "']";
    if (graphs_.contains_tensor(v)) {
      add_tensor_inputs(code.localsplus_names[i], src, v);
    } else if (PyObject_IsInstance(v.ptr(), module_cls_.ptr()) == 1) {
      records_.add_guard(src, "NN_MODULE", py::str(py::type::of(v).attr(interned("__name__"))));
    } else if (v.is_none() || PyLong_Check(v.ptr()) || PyFloat_Check(v.ptr()) || PyUnicode_Check(v.ptr())) {
      records_.add_guard(src, "CONSTANT_MATCH", py::repr(v));
    } else {
      records_.add_guard(src, "TYPE_MATCH", py::str(py::type::of(v).attr(interned("__name__"))));
    }
  }
}

void Interpreter::CALL(Frame& f, const Instr& in) {
  int argc = in.arg;
  std::vector<py::object> args(argc);
  for (int i = argc - 1; i >= 0; --i) args[i] = pop(f);
  py::object b = pop(f);
  py::object a = pop(f);
  py::object callable;
  if (!a) {
    callable = b;
  } else {
    callable = a;
    args.insert(args.begin(), b);
  }
  py::object kwargs;
  if (in.kw_names >= 0) {
    py::tuple names = py::reinterpret_borrow<py::object>(PyTuple_GET_ITEM(f.code->consts.ptr(), in.kw_names));
    size_t nk = names.size();
    if (nk > args.size()) throw InternalError("KW_NAMES longer than the call's arguments");
    py::dict kw;
    for (size_t i = 0; i < nk; ++i) kw[names[i]] = args[args.size() - nk + i];
    args.resize(args.size() - nk);
    kwargs = kw;
  }
  f.stack.push_back(call(f, callable, std::move(args), kwargs));
}

void Interpreter::CALL_FUNCTION_EX(Frame& f, const Instr& in) {
  py::object kwargs;
  if (in.arg & 1) kwargs = pop(f);
  py::object callargs = pop(f);
  py::object func = pop(f);
  pop(f);  // the NULL below the callable
  if (graphs_.is_tensor(callargs)) callargs = unbind(callargs);
  std::vector<py::object> args;
  for (auto a : callargs) args.push_back(py::reinterpret_borrow<py::object>(a));
  if (kwargs && !PyDict_Check(kwargs.ptr())) kwargs = py::dict(kwargs);
  f.stack.push_back(call(f, func, std::move(args), kwargs));
}

py::object Interpreter::call(Frame& f, py::handle callable, std::vector<py::object> args, py::object kwargs) {
  const BuiltinRefs& b = builtins_;
  PyObject* c = callable.ptr();

  // functools.partial: what it wraps, called with its bound arguments first, as Dynamo does
  // (`self.act = functools.partial(F.gelu, approximate="tanh")`). The type is looked up once
  // and kept for the process's life.
  static PyObject* const partial_type = py::object(py::module_::import("functools").attr("partial")).release().ptr();
  if (Py_TYPE(c) == reinterpret_cast<PyTypeObject*>(partial_type)) {
    py::object func = callable.attr(interned("func"));
    std::vector<py::object> full;
    for (py::handle a : py::tuple(callable.attr(interned("args"))))
      full.push_back(py::reinterpret_borrow<py::object>(a));
    full.insert(full.end(), args.begin(), args.end());
    py::dict merged(callable.attr(interned("keywords")));
    if (kwargs) {
      for (auto kv : py::reinterpret_borrow<py::dict>(kwargs)) merged[kv.first] = kv.second;
    }
    return call(f, func, std::move(full), merged.empty() ? py::object() : py::object(std::move(merged)));
  }

  // Builtins that need the interpreter's own view of attributes and tensors.
  if (c == b.getattr_fn.ptr() && (args.size() == 2 || args.size() == 3) && !kwargs) {
    try {
      load_attr(f, args[0], args[1]);
      py::object v = std::move(f.stack.back());
      f.stack.pop_back();
      return v;
    } catch (py::error_already_set& e) {
      if (args.size() == 3 && e.matches(PyExc_AttributeError)) return args[2];
      throw;
    }
  }
  if (c == b.setattr_fn.ptr() && args.size() == 3 && !kwargs) {
    store_attr(args[0], args[1], args[2]);
    return py::none();
  }
  if (c == b.object_setattr.ptr() && args.size() == 3 && !kwargs) {
    // object.__setattr__(self, name, value): how frozen dataclasses set their fields.
    py::object r = call_eagerly(callable, args, kwargs);
    if (!created_here(args[0]))
      side_effect("attribute", source_of(args[0]) + "." + std::string(py::str(args[1])), args[2], "FX203", "FX403");
    return r;
  }
  // Frame introspection sees the interpreted frame, not the extension's caller.
  bool wants_locals = (c == b.locals_fn.ptr() || c == b.vars_fn.ptr()) && args.empty();
  bool wants_globals = c == b.globals_fn.ptr() && args.empty();
  bool evaluates = (c == b.eval_fn.ptr() || c == b.exec_fn.ptr()) && args.size() == 1 && !kwargs;
  if (wants_locals || wants_globals || evaluates) {
    std::string name = py::str(callable.attr(interned("__name__")));
    for (const auto& v : f.locals)
      if (v) graphs_.escape(v);
    graph_break({name + "() inspects or runs Python code the capture cannot trace", "FX504", ""});
    py::dict frame_locals;
    for (size_t i = 0; i < f.locals.size(); ++i) {
      py::object v = f.locals[i];
      if (!v) continue;
      if (PyCell_Check(v.ptr())) {
        PyObject* inner = PyCell_GET(v.ptr());
        if (!inner) continue;
        v = py::reinterpret_borrow<py::object>(inner);
      }
      frame_locals[py::str(f.code->localsplus_names[i])] = v;
    }
    if (wants_globals) return f.globals;
    if (wants_locals) return frame_locals;
    py::object r = call_eagerly(callable, {args[0], f.globals, frame_locals}, py::object());
    graphs_.mark_external(r);
    return r;
  }
  if ((c == b.sorted_fn.ptr() || c == b.min_fn.ptr() || c == b.max_fn.ptr()) && args.size() == 1 && kwargs &&
      PyDict_Check(kwargs.ptr())) {
    PyObject* key = PyDict_GetItemString(kwargs.ptr(), "key");
    if (key && PyFunction_Check(key)) return call_with_key(f, callable, args, kwargs);
  }
  for (const auto& iterating : b.iterating)
    if (c == iterating.ptr())
      for (auto& a : args)
        if (graphs_.is_tensor(a)) a = unbind(a);
  if (c == b.map_fn.ptr() && args.size() >= 2 && !kwargs) {
    // map() of a Python function runs it through the interpreter, eagerly.
    std::vector<py::object> iters;
    for (size_t i = 1; i < args.size(); ++i) iters.push_back(get_iter(args[i]));
    py::list out;
    while (true) {
      std::vector<py::object> items;
      for (auto& it : iters) {
        PyObject* n = PyIter_Next(it.ptr());
        if (!n) {
          if (PyErr_Occurred()) throw py::error_already_set();
          return steal_or_throw(PyObject_GetIter(out.ptr()));
        }
        items.push_back(py::reinterpret_steal<py::object>(n));
      }
      out.append(call(f, args[0], items, py::object()));
    }
  }

  CallPlan plan = policy_.plan(callable, args, kwargs);
  switch (plan.kind) {
    case CallKind::InlineFunction:
    case CallKind::InlineModule: {
      std::vector<py::object> full;
      if (plan.bound_self) full.push_back(plan.bound_self);
      full.insert(full.end(), args.begin(), args.end());
      return run_function(plan.function, full, kwargs, nullptr);
    }
    case CallKind::ConstructUser: {
      py::object obj = steal_or_throw(PyObject_CallMethod(b.object_type.ptr(), "__new__", "O", c));
      mark_created(obj);
      std::vector<py::object> full{obj};
      full.insert(full.end(), args.begin(), args.end());
      py::object r = run_function(plan.function, full, kwargs, nullptr);
      if (!r.is_none()) raise_type_error("__init__() should return None, not '" +
                                         std::string(py::str(py::type::of(r).attr(interned("__name__")))) + "'");
      return obj;
    }
    case CallKind::LeafModule: {
      py::object r = call_eagerly(callable, args, kwargs);
      graphs_.record_module(callable, to_tuple(args), kwargs ? kwargs : py::dict(), r);
      return r;
    }
    case CallKind::TorchFunction: {
      py::object r = call_eagerly(callable, args, kwargs);
      if (graphs_.contains_tensor(r) || is_usage_logging(callable, r))
        graphs_.record("call_function", callable, to_tuple(args), kwargs ? kwargs : py::dict(), r);
      if (PyMethod_Check(c) && policy_.is_grad_mode_object(PyMethod_GET_SELF(c)) &&
          std::string(py::str(callable.attr(interned("__name__")))) == "__exit__")
        graphs_.record("call_function", set_grad_enabled_, py::make_tuple(is_grad_enabled_()), py::dict(),
                       py::none(), false);
      return r;
    }
    case CallKind::TensorMinMax: {
      // Dynamo does not compare here: a tensor and a number become torch.clamp,
      // two tensors torch.maximum / torch.minimum; the result is a tensor.
      bool is_max = plan.method == "max";
      bool first_tensor = is_tensor_object(args[0].ptr(), tensor_cls_.ptr());
      bool second_tensor = is_tensor_object(args[1].ptr(), tensor_cls_.ptr());
      py::object fn;
      std::vector<py::object> call_args;
      py::dict call_kwargs;
      if (first_tensor && second_tensor) {
        fn = torch_.attr(interned(is_max ? "maximum" : "minimum"));
        call_args = {args[0], args[1]};
      } else {
        fn = torch_.attr(interned("clamp"));
        call_args = {first_tensor ? args[0] : args[1]};
        call_kwargs[is_max ? "min" : "max"] = first_tensor ? args[1] : args[0];
      }
      py::object r = call_eagerly(fn, call_args, call_kwargs);
      graphs_.record("call_function", fn, to_tuple(call_args), call_kwargs, r);
      return r;
    }
    case CallKind::TensorMethod: {
      py::object self = plan.bound_self ? plan.bound_self : args.at(0);
      size_t from = plan.bound_self ? 0 : 1;
      py::object r = call_eagerly(callable, args, kwargs);
      if (graphs_.contains_tensor(r)) {
        std::vector<py::object> full{self};
        for (size_t i = from; i < args.size(); ++i) full.push_back(args[i]);
        graphs_.record("call_method", py::str(plan.method), to_tuple(full), kwargs ? kwargs : py::dict(), r);
      }
      return r;
    }
    case CallKind::ZeroArgSuper: {
      int class_slot = -1;
      for (size_t i = f.code->first_free; i < f.code->localsplus_names.size(); ++i)
        if (f.code->localsplus_names[i] == "__class__") class_slot = static_cast<int>(i);
      if (class_slot < 0 || f.locals.empty() || !f.locals[0]) {
        PyErr_SetString(PyExc_RuntimeError, "super(): __class__ cell not found");
        throw py::error_already_set();
      }
      py::object cls = steal_or_throw(PyCell_Get(f.locals[class_slot].ptr()));
      py::object self = f.locals[0];
      if (PyCell_Check(self.ptr())) self = steal_or_throw(PyCell_Get(self.ptr()));
      return b.super_type(cls, self);
    }
    case CallKind::CompilingFlag:
      return py::bool_(true);
    case CallKind::Constant: {
      py::object r = call_eagerly(callable, args, kwargs);
      note_container_mutation(callable, args);
      if (PyType_Check(c) && (PyList_Check(r.ptr()) || PyDict_Check(r.ptr()) || PySet_Check(r.ptr())))
        mark_created(r);
      else if (PyObject_IsInstance(r.ptr(), module_cls_.ptr()) == 1 && PyType_Check(c))
        mark_created(r);
      else
        mark_if_fresh(r);  // lst.copy(), sorted(...), copy.copy(lst), dict.fromkeys(...)
      return r;
    }
    case CallKind::Break: {
      // The eager call reads these tensors, so the graph before the break returns them.
      for (const auto& a : args) graphs_.escape(a);
      if (plan.bound_self) graphs_.escape(plan.bound_self);
      if (kwargs) graphs_.escape(kwargs);
      graph_break(plan.brk);
      return run_natively(callable, args, kwargs);
    }
  }
  throw InternalError("unknown call plan");
}

py::object Interpreter::run(py::handle fn, py::tuple args, py::dict kwargs) {
  std::vector<py::object> full;
  py::object target = py::reinterpret_borrow<py::object>(fn);
  if (PyObject_IsInstance(fn.ptr(), module_cls_.ptr()) == 1) {
    root_ = target;
    module_tree_ = module_tree(fn);
    graphs_.set_root(module_tree_);
    full.push_back(target);
    target = policy_.module_entry(fn);
  } else if (PyMethod_Check(fn.ptr())) {
    py::object self = py::reinterpret_borrow<py::object>(PyMethod_GET_SELF(fn.ptr()));
    if (PyObject_IsInstance(self.ptr(), module_cls_.ptr()) == 1) {
      root_ = self;
      module_tree_ = module_tree(self);
      graphs_.set_root(module_tree_);
    }
    full.push_back(self);
    target = py::reinterpret_borrow<py::object>(PyMethod_GET_FUNCTION(fn.ptr()));
  }
  if (!PyFunction_Check(target.ptr())) {
    PyErr_SetString(PyExc_TypeError, "fxlint_capture needs a Python function, bound method or nn.Module");
    throw py::error_already_set();
  }
  for (auto a : args) full.push_back(py::reinterpret_borrow<py::object>(a));
  if (policy_.is_hook_runner(target)) {
    // Name the inputs after forward's parameters, as without hooks; tensors are
    // tracked by identity, so the hook runner passes the same inputs on.
    py::object forward = py::type::of(fn).attr(interned("forward"));
    const DecodedCode& code = decode(forward.attr(interned("__code__")));
    register_inputs(code, bind_arguments(code, forward, full, kwargs), "L");
    return run_function(target, full, kwargs, nullptr);
  }
  return run_function(target, full, kwargs, "L");
}

}  // namespace fxcap

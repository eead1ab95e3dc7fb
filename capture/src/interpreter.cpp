// The frame loop and one handler per opcode. Values on the stack are the real
// Python objects; tensor work is mirrored into the current torch.fx graph.
#include "interpreter.h"

#include <Python.h>

#include "py_errors.h"

namespace fxcap {
namespace {

py::object pop(Frame& f) {
  if (f.stack.empty()) throw InternalError("value stack underflow in " + f.code->name);
  py::object v = std::move(f.stack.back());
  f.stack.pop_back();
  return v;
}

py::object& top(Frame& f, int depth = 1) {
  if (static_cast<int>(f.stack.size()) < depth) throw InternalError("value stack underflow in " + f.code->name);
  return f.stack[f.stack.size() - depth];
}

}  // namespace

BuiltinRefs::BuiltinRefs() {
  py::module_ b = py::module_::import("builtins");
  getattr_fn = b.attr("getattr");
  setattr_fn = b.attr("setattr");
  locals_fn = b.attr("locals");
  vars_fn = b.attr("vars");
  globals_fn = b.attr("globals");
  eval_fn = b.attr("eval");
  exec_fn = b.attr("exec");
  map_fn = b.attr("map");
  object_type = b.attr("object");
  object_setattr = object_type.attr("__setattr__");
  sorted_fn = b.attr("sorted");
  min_fn = b.attr("min");
  max_fn = b.attr("max");
  super_type = b.attr("super");
  for (const char* name : {"list", "tuple", "iter", "enumerate", "zip", "reversed"}) iterating.push_back(b.attr(name));
}

Interpreter::Interpreter(CaptureOptions options) : options_(options) {
  operator_ = py::module_::import("operator");
  torch_ = py::module_::import("torch");
  set_grad_enabled_ = torch_.attr("_C").attr("_set_grad_enabled");
  is_grad_enabled_ = torch_.attr("is_grad_enabled");
  tensor_cls_ = torch_.attr("Tensor");
  module_cls_ = torch_.attr("nn").attr("Module");
  getattr_ = builtins_.getattr_fn;
  prepend_frame_ = py::module_::import("fxlint_capture.frames").attr("prepend_frame");
}

py::object Interpreter::resume(Frame& f, bool& yielded, py::object exc) {
  if (f.suspended) {
    f.suspended = false;
    if (!exc) f.stack.push_back(py::none());  // the value of the yield expression: next() sends None
  }
  py::object v = run_frame(f, exc);
  yielded = f.suspended;
  return v;
}

bool Interpreter::enter_handler(Frame& f, py::handle exc) {
  const HandlerEntry* h = f.code->handler_for(f.current);
  if (!h) return false;
  if (static_cast<int>(f.stack.size()) < h->depth) throw InternalError("exception handler depth mismatch");
  f.stack.resize(h->depth);
  if (h->push_lasti) f.stack.push_back(py::int_(f.code->instrs[f.current].offset));
  f.stack.push_back(py::reinterpret_borrow<py::object>(exc));
  f.pc = h->target;
  return true;
}

bool Interpreter::add_traceback_entry(Frame& f, py::error_already_set& e) {
  // The exception leaves this interpreted frame: as in CPython, its traceback
  // gets an entry for the frame's current line (the raise, or the failing call).
  if (policy_.is_hook_runner(f.function)) return false;
  py::object exc = e.value();
  if (!PyExceptionInstance_Check(exc.ptr())) return false;
  py::object tb = e.trace() ? py::reinterpret_borrow<py::object>(e.trace()) : py::object(py::none());
  py::object new_tb;
  try {
    new_tb = prepend_frame_(tb, f.code->filename, f.code->instrs[f.current].line, f.code->name);
  } catch (py::error_already_set&) {
    return false;  // the traceback stays as it was
  }
  PyException_SetTraceback(exc.ptr(), new_tb.ptr());
  py::object type = e.type();
  PyErr_Restore(type.release().ptr(), exc.release().ptr(), new_tb.release().ptr());
  return true;
}

py::object Interpreter::run_frame(Frame& f, py::object pending) {
  frames_.push_back(&f);
  struct Pop {
    std::vector<Frame*>& v;
    ~Pop() { v.pop_back(); }
  } pop_frame{frames_};
  const auto& instrs = f.code->instrs;
  if (pending && !enter_handler(f, pending)) {
    // Thrown into a generator at a yield outside any try: it leaves the frame.
    f.pc = static_cast<int>(instrs.size());
    raise_object(pending);
  }
  while (true) {
    if (f.pc < 0 || f.pc >= static_cast<int>(instrs.size()))
      throw InternalError("execution left the bytecode of " + f.code->name);
    f.current = f.pc++;
    const Instr& in = instrs[f.current];
    try {
      if (in.op == Op::RETURN_VALUE) return pop(f);
      if (in.op == Op::YIELD_VALUE && f.generator) {
        f.suspended = true;
        return pop(f);
      }
      step(f, in);
    } catch (py::error_already_set& e) {
      // As in CPython, an exception raised in this frame gets a traceback entry
      // for the line that raised it; a re-raise keeps the entry it has.
      if (in.op != Op::RERAISE && add_traceback_entry(f, e)) {
        py::error_already_set with_entry;
        if (!f.code->handler_for(f.current)) throw with_entry;
        enter_handler(f, with_entry.value());
        continue;
      }
      if (!f.code->handler_for(f.current)) throw;
      py::object exc = e.value();
      if (e.trace() && PyExceptionInstance_Check(exc.ptr())) PyException_SetTraceback(exc.ptr(), e.trace().ptr());
      enter_handler(f, exc);
    }
  }
}

void Interpreter::step(Frame& f, const Instr& in) {

  switch (in.op) {
    case Op::NOP:
    case Op::RESUME:
    case Op::PRECALL:
    case Op::CACHE:
      return;
    case Op::POP_TOP:
      pop(f);
      return;
    case Op::PUSH_NULL:
      f.stack.emplace_back();
      return;
    case Op::COPY:
      f.stack.push_back(top(f, in.arg));
      return;
    case Op::SWAP:
      std::swap(top(f, 1), top(f, in.arg));
      return;
    case Op::UNARY_POSITIVE:
    case Op::UNARY_NEGATIVE:
    case Op::UNARY_INVERT: {
      py::object v = pop(f);
      PyObject* r = in.op == Op::UNARY_POSITIVE   ? PyNumber_Positive(v.ptr())
                    : in.op == Op::UNARY_NEGATIVE ? PyNumber_Negative(v.ptr())
                                                  : PyNumber_Invert(v.ptr());
      py::object result = steal_or_throw(r);
      if (graphs_.is_tensor(result)) {
        const char* name = in.op == Op::UNARY_POSITIVE ? "pos" : in.op == Op::UNARY_NEGATIVE ? "neg" : "invert";
        graphs_.record("call_function", operator_.attr(name), py::make_tuple(v), py::dict(), result);
      }
      f.stack.push_back(result);
      return;
    }
    case Op::UNARY_NOT: {
      py::object v = pop(f);
      f.stack.push_back(py::bool_(!truth(v, false)));
      return;
    }
    case Op::BINARY_OP: {
      py::object b = pop(f);
      py::object a = pop(f);
      f.stack.push_back(binary_op(in.arg, a, b));
      return;
    }
    case Op::BINARY_SUBSCR: {
      py::object index = pop(f);
      py::object obj = pop(f);
      f.stack.push_back(subscript(obj, index));
      return;
    }
    case Op::STORE_SUBSCR: {
      py::object index = pop(f);
      py::object obj = pop(f);
      py::object value = pop(f);
      store_subscript(obj, index, value);
      return;
    }
    case Op::DELETE_SUBSCR: {
      py::object index = pop(f);
      py::object obj = pop(f);
      if (PyObject_DelItem(obj.ptr(), index.ptr()) < 0) throw py::error_already_set();
      if (!created_here(obj) && (PyList_Check(obj.ptr()) || PyDict_Check(obj.ptr())))
        side_effect("container", "del " + std::string(py::str(py::type::of(obj).attr("__name__"))) + "[...]",
                    py::none(), "FX204", "FX404");
      return;
    }
    case Op::GET_ITER: {
      py::object v = pop(f);
      f.stack.push_back(get_iter(v));
      return;
    }
    case Op::FOR_ITER: {
      py::object& it = top(f);
      PyObject* next = PyIter_Next(it.ptr());
      if (next) {
        f.stack.push_back(py::reinterpret_steal<py::object>(next));
        return;
      }
      if (PyErr_Occurred()) throw py::error_already_set();
      pop(f);
      f.pc = in.target;
      return;
    }
    case Op::LOAD_CONST:
      f.stack.push_back(py::reinterpret_borrow<py::object>(PyTuple_GET_ITEM(f.code->consts.ptr(), in.arg)));
      return;
    case Op::LOAD_FAST: {
      py::object& v = f.locals.at(in.arg);
      if (!v)
        raise(PyExc_UnboundLocalError, "cannot access local variable '" + f.code->localsplus_names[in.arg] +
                                           "' where it is not associated with a value");
      f.stack.push_back(v);
      return;
    }
    case Op::STORE_FAST:
      f.locals.at(in.arg) = pop(f);
      return;
    case Op::DELETE_FAST:
      f.locals.at(in.arg) = py::object();
      return;
    case Op::LOAD_GLOBAL: {
      py::object name = f.code->names[in.arg >> 1];
      if (in.arg & 1) f.stack.emplace_back();
      PyObject* v = PyDict_GetItemWithError(f.globals.ptr(), name.ptr());
      if (v) {
        py::object value = py::reinterpret_borrow<py::object>(v);
        if (!policy_.is_hook_runner(f.function)) record_global_read(py::str(name), value);  // the user's reads only
        f.stack.push_back(value);
        return;
      }
      if (PyErr_Occurred()) throw py::error_already_set();
      py::object b = f.builtins;
      py::object value = PyDict_Check(b.ptr()) ? py::reinterpret_borrow<py::object>(PyDict_GetItem(b.ptr(), name.ptr()))
                                               : py::getattr(b, name, py::object());
      if (!value) raise(PyExc_NameError, "name '" + std::string(py::str(name)) + "' is not defined");
      f.stack.push_back(value);
      return;
    }
    case Op::STORE_GLOBAL: {
      py::object name = f.code->names[in.arg];
      py::object value = pop(f);
      if (PyDict_SetItem(f.globals.ptr(), name.ptr(), value.ptr()) < 0) throw py::error_already_set();
      side_effect("global", py::str(name), value, "FX203", "FX401");
      return;
    }
    case Op::LOAD_ATTR: {
      py::object name = f.code->names[in.arg];
      py::object obj = pop(f);
      load_attr(f, obj, name);
      return;
    }
    case Op::LOAD_METHOD: {
      // Pushed as [NULL, bound attribute]; CALL handles both layouts.
      py::object name = f.code->names[in.arg];
      py::object obj = pop(f);
      f.stack.emplace_back();
      load_attr(f, obj, name);
      return;
    }
    case Op::STORE_ATTR: {
      py::object name = f.code->names[in.arg];
      py::object obj = pop(f);
      py::object value = pop(f);
      store_attr(obj, name, value);
      return;
    }
    case Op::DELETE_ATTR: {
      py::object name = f.code->names[in.arg];
      py::object obj = pop(f);
      if (PyObject_DelAttr(obj.ptr(), name.ptr()) < 0) throw py::error_already_set();
      if (!created_here(obj)) side_effect("attribute", "del " + source_of(obj) + "." + std::string(py::str(name)), py::none(), "FX203", "FX403");
      return;
    }
    case Op::KW_NAMES:
      f.kwnames = py::reinterpret_borrow<py::object>(PyTuple_GET_ITEM(f.code->consts.ptr(), in.arg));
      return;
    case Op::CALL: {
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
      if (f.kwnames) {
        py::tuple names = f.kwnames;
        f.kwnames = py::object();
        size_t nk = names.size();
        if (nk > args.size()) throw InternalError("KW_NAMES longer than the call's arguments");
        py::dict kw;
        for (size_t i = 0; i < nk; ++i) kw[names[i]] = args[args.size() - nk + i];
        args.resize(args.size() - nk);
        kwargs = kw;
      }
      f.stack.push_back(call(f, callable, std::move(args), kwargs));
      return;
    }
    case Op::CALL_FUNCTION_EX: {
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
      return;
    }
    case Op::MAKE_FUNCTION: {
      py::object fcode = pop(f);
      py::object closure, annotations, kwdefaults, defaults;
      if (in.arg & 0x08) closure = pop(f);
      if (in.arg & 0x04) annotations = pop(f);
      if (in.arg & 0x02) kwdefaults = pop(f);
      if (in.arg & 0x01) defaults = pop(f);
      py::object fn = steal_or_throw(
          PyFunction_NewWithQualName(fcode.ptr(), f.globals.ptr(), fcode.attr("co_qualname").ptr()));
      if (closure && PyFunction_SetClosure(fn.ptr(), closure.ptr()) < 0) throw py::error_already_set();
      if (defaults && PyFunction_SetDefaults(fn.ptr(), defaults.ptr()) < 0) throw py::error_already_set();
      if (kwdefaults && PyFunction_SetKwDefaults(fn.ptr(), kwdefaults.ptr()) < 0) throw py::error_already_set();
      if (annotations) {
        py::object ann = annotations;
        if (PyTuple_Check(ann.ptr())) {  // 3.11 may pass annotations as a flat (name, value, ...) tuple
          py::dict d;
          for (size_t i = 0; i + 1 < py::len(ann); i += 2) d[ann[py::int_(i)]] = ann[py::int_(i + 1)];
          ann = d;
        }
        if (PyFunction_SetAnnotations(fn.ptr(), ann.ptr()) < 0) throw py::error_already_set();
      }
      f.stack.push_back(fn);
      return;
    }
    case Op::BUILD_TUPLE: {
      py::tuple t(in.arg);
      for (int i = in.arg - 1; i >= 0; --i) t[i] = pop(f);
      f.stack.push_back(t);
      return;
    }
    case Op::BUILD_LIST: {
      py::list l(in.arg);
      for (int i = in.arg - 1; i >= 0; --i) l[i] = pop(f);
      mark_created(l);
      f.stack.push_back(l);
      return;
    }
    case Op::BUILD_SET: {
      std::vector<py::object> items(in.arg);
      for (int i = in.arg - 1; i >= 0; --i) items[i] = pop(f);
      py::set s;
      for (auto& i : items) s.add(i);
      mark_created(s);
      f.stack.push_back(s);
      return;
    }
    case Op::BUILD_MAP: {
      std::vector<py::object> items(2 * in.arg);
      for (int i = 2 * in.arg - 1; i >= 0; --i) items[i] = pop(f);
      py::dict d;
      for (int i = 0; i < in.arg; ++i) d[items[2 * i]] = items[2 * i + 1];
      mark_created(d);
      f.stack.push_back(d);
      return;
    }
    case Op::BUILD_CONST_KEY_MAP: {
      py::tuple keys = pop(f);
      std::vector<py::object> values(in.arg);
      for (int i = in.arg - 1; i >= 0; --i) values[i] = pop(f);
      py::dict d;
      for (int i = 0; i < in.arg; ++i) d[keys[i]] = values[i];
      mark_created(d);
      f.stack.push_back(d);
      return;
    }
    case Op::BUILD_STRING: {
      py::list parts(in.arg);
      for (int i = in.arg - 1; i >= 0; --i) parts[i] = pop(f);
      f.stack.push_back(py::str("").attr("join")(parts));
      return;
    }
    case Op::BUILD_SLICE: {
      py::object step = in.arg == 3 ? pop(f) : py::none();
      py::object stop = pop(f);
      py::object start = pop(f);
      f.stack.push_back(steal_or_throw(PySlice_New(start.ptr(), stop.ptr(), step.ptr())));
      return;
    }
    case Op::LIST_APPEND: {
      py::object v = pop(f);
      if (PyList_Append(top(f, in.arg).ptr(), v.ptr()) < 0) throw py::error_already_set();
      return;
    }
    case Op::SET_ADD: {
      py::object v = pop(f);
      if (PySet_Add(top(f, in.arg).ptr(), v.ptr()) < 0) throw py::error_already_set();
      return;
    }
    case Op::MAP_ADD: {
      py::object value = pop(f);
      py::object key = pop(f);
      if (PyDict_SetItem(top(f, in.arg).ptr(), key.ptr(), value.ptr()) < 0) throw py::error_already_set();
      return;
    }
    case Op::LIST_EXTEND:
    case Op::SET_UPDATE:
    case Op::DICT_UPDATE:
    case Op::DICT_MERGE: {
      py::object v = pop(f);
      if (graphs_.is_tensor(v)) v = unbind(v);
      const char* method = in.op == Op::LIST_EXTEND ? "extend" : "update";
      top(f, in.arg).attr(method)(v);
      return;
    }
    case Op::LIST_TO_TUPLE: {
      py::object l = pop(f);
      f.stack.push_back(steal_or_throw(PyList_AsTuple(l.ptr())));
      return;
    }
    case Op::FORMAT_VALUE: {
      py::object spec = (in.arg & 0x04) ? pop(f) : py::str("");
      py::object v = pop(f);
      if (graphs_.is_tensor(v)) graphs_.escape(v);
      if (graphs_.is_tensor(v)) graph_break({"formatting a tensor reads its data", "FX502", "GB0569"});
      int conv = in.arg & 0x03;
      if (conv == 1) v = steal_or_throw(PyObject_Str(v.ptr()));
      if (conv == 2) v = steal_or_throw(PyObject_Repr(v.ptr()));
      if (conv == 3) v = steal_or_throw(PyObject_ASCII(v.ptr()));
      f.stack.push_back(steal_or_throw(PyObject_Format(v.ptr(), spec.ptr())));
      return;
    }
    case Op::UNPACK_SEQUENCE:
    case Op::UNPACK_EX: {
      py::object seq = pop(f);
      py::list items = graphs_.is_tensor(seq) ? py::list(unbind(seq)) : py::list(seq);
      int n = static_cast<int>(items.size());
      if (in.op == Op::UNPACK_SEQUENCE) {
        if (n != in.arg)
          raise(PyExc_ValueError, n > in.arg ? "too many values to unpack (expected " + std::to_string(in.arg) + ")"
                                             : "not enough values to unpack (expected " + std::to_string(in.arg) +
                                                   ", got " + std::to_string(n) + ")");
        for (int i = n - 1; i >= 0; --i) f.stack.push_back(items[i]);
        return;
      }
      int before = in.arg & 0xFF, after = in.arg >> 8;
      if (n < before + after)
        raise(PyExc_ValueError, "not enough values to unpack (expected at least " + std::to_string(before + after) +
                                    ", got " + std::to_string(n) + ")");
      for (int i = n - 1; i >= n - after; --i) f.stack.push_back(items[i]);
      py::list middle;
      for (int i = before; i < n - after; ++i) middle.append(items[i]);
      mark_created(middle);
      f.stack.push_back(middle);
      for (int i = before - 1; i >= 0; --i) f.stack.push_back(items[i]);
      return;
    }
    case Op::COMPARE_OP: {
      py::object b = pop(f);
      py::object a = pop(f);
      f.stack.push_back(compare_op(in.arg, a, b));
      return;
    }
    case Op::IS_OP: {
      py::object b = pop(f);
      py::object a = pop(f);
      f.stack.push_back(py::bool_((a.ptr() == b.ptr()) != (in.arg == 1)));
      return;
    }
    case Op::CONTAINS_OP: {
      py::object container = pop(f);
      py::object item = pop(f);
      int r = PySequence_Contains(container.ptr(), item.ptr());
      if (r < 0) throw py::error_already_set();
      f.stack.push_back(py::bool_((r == 1) != (in.arg == 1)));
      return;
    }
    case Op::JUMP_FORWARD:
    case Op::JUMP_BACKWARD:
    case Op::JUMP_BACKWARD_NO_INTERRUPT:
      f.pc = in.target;
      return;
    case Op::POP_JUMP_FORWARD_IF_FALSE:
    case Op::POP_JUMP_BACKWARD_IF_FALSE:
    case Op::POP_JUMP_FORWARD_IF_TRUE:
    case Op::POP_JUMP_BACKWARD_IF_TRUE: {
      py::object v = pop(f);
      bool jump_if = in.op == Op::POP_JUMP_FORWARD_IF_TRUE || in.op == Op::POP_JUMP_BACKWARD_IF_TRUE;
      // `assert cond` falls through to LOAD_ASSERTION_ERROR when cond is false.
      bool assert_test = jump_if && f.pc < static_cast<int>(f.code->instrs.size()) &&
                         f.code->instrs[f.pc].op == Op::LOAD_ASSERTION_ERROR;
      if (truth(v, assert_test) == jump_if) f.pc = in.target;
      return;
    }
    case Op::POP_JUMP_FORWARD_IF_NONE:
    case Op::POP_JUMP_BACKWARD_IF_NONE:
    case Op::POP_JUMP_FORWARD_IF_NOT_NONE:
    case Op::POP_JUMP_BACKWARD_IF_NOT_NONE: {
      py::object v = pop(f);
      bool want_none = in.op == Op::POP_JUMP_FORWARD_IF_NONE || in.op == Op::POP_JUMP_BACKWARD_IF_NONE;
      if (v.is_none() == want_none) f.pc = in.target;
      return;
    }
    case Op::JUMP_IF_FALSE_OR_POP:
    case Op::JUMP_IF_TRUE_OR_POP: {
      bool t = truth(top(f), false);
      if (t == (in.op == Op::JUMP_IF_TRUE_OR_POP))
        f.pc = in.target;
      else
        pop(f);
      return;
    }
    case Op::MAKE_CELL: {
      py::object& slot = f.locals.at(in.arg);
      py::object cell = steal_or_throw(PyCell_New(slot ? slot.ptr() : nullptr));
      mark_created(cell);
      slot = cell;
      return;
    }
    case Op::COPY_FREE_VARS: {
      py::object closure = py::getattr(f.function, "__closure__", py::none());
      for (int i = 0; i < in.arg; ++i) f.locals.at(f.code->first_free + i) = closure[py::int_(i)];
      return;
    }
    case Op::LOAD_CLOSURE:
      f.stack.push_back(f.locals.at(in.arg));
      return;
    case Op::LOAD_DEREF: {
      PyObject* v = PyCell_Get(f.locals.at(in.arg).ptr());
      if (!v) {
        if (PyErr_Occurred()) throw py::error_already_set();
        raise(PyExc_NameError, "cannot access free variable '" + f.code->localsplus_names[in.arg] +
                                   "' where it is not associated with a value in enclosing scope");
      }
      f.stack.push_back(py::reinterpret_steal<py::object>(v));
      return;
    }
    case Op::STORE_DEREF: {
      py::object value = pop(f);
      py::object& cell = f.locals.at(in.arg);
      if (PyCell_Set(cell.ptr(), value.ptr()) < 0) throw py::error_already_set();
      if (!created_here(cell)) side_effect("nonlocal", f.code->localsplus_names[in.arg], value, "FX203", "FX402");
      return;
    }
    case Op::DELETE_DEREF:
      if (PyCell_Set(f.locals.at(in.arg).ptr(), nullptr) < 0) throw py::error_already_set();
      return;
    case Op::RETURN_GENERATOR:
      if (!f.generator) throw InternalError("RETURN_GENERATOR outside a generator body");
      f.stack.push_back(py::none());  // what the first send(None) delivers
      return;
    case Op::YIELD_VALUE:
      throw InternalError("YIELD_VALUE outside a generator body");  // generators stop in run_frame
    case Op::BEFORE_WITH: {
      py::object mgr = pop(f);
      py::object exit = steal_or_throw(PyObject_GetAttrString(mgr.ptr(), "__exit__"));
      py::object enter = steal_or_throw(PyObject_GetAttrString(mgr.ptr(), "__enter__"));
      py::object result = call(f, enter, {}, py::object());
      if (policy_.is_grad_mode_object(mgr))
        graphs_.record("call_function", set_grad_enabled_, py::make_tuple(is_grad_enabled_()), py::dict(),
                       py::none(), false);
      f.stack.push_back(exit);
      f.stack.push_back(result);
      return;
    }
    case Op::WITH_EXCEPT_START: {
      py::object exc = top(f, 1);
      py::object exit = top(f, 4);
      py::object tb = py::getattr(exc, "__traceback__", py::none());
      py::object r = steal_or_throw(PyObject_CallFunctionObjArgs(
          exit.ptr(), reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr(), tb.ptr(), nullptr));
      f.stack.push_back(r);
      return;
    }
    case Op::PUSH_EXC_INFO: {
      py::object exc = pop(f);
      PyObject* prev = PyErr_GetHandledException();
      f.stack.push_back(prev ? py::reinterpret_steal<py::object>(prev) : py::object(py::none()));
      PyErr_SetHandledException(exc.ptr());
      f.stack.push_back(exc);
      return;
    }
    case Op::POP_EXCEPT: {
      py::object prev = pop(f);
      PyErr_SetHandledException(prev.is_none() ? nullptr : prev.ptr());
      return;
    }
    case Op::CHECK_EXC_MATCH: {
      py::object type = pop(f);
      py::object exc = top(f);
      f.stack.push_back(py::bool_(PyErr_GivenExceptionMatches(exc.ptr(), type.ptr()) == 1));
      return;
    }
    case Op::RERAISE: {
      py::object exc = pop(f);
      raise_object(exc);
    }
    case Op::RAISE_VARARGS: {
      py::object cause, exc;
      if (in.arg == 2) cause = pop(f);
      if (in.arg >= 1) exc = pop(f);
      if (in.arg == 0) {
        PyObject* cur = PyErr_GetHandledException();
        if (!cur || cur == Py_None) {
          Py_XDECREF(cur);
          raise(PyExc_RuntimeError, "No active exception to reraise");
        }
        raise_object(py::reinterpret_steal<py::object>(cur));
      }
      if (PyExceptionClass_Check(exc.ptr())) exc = steal_or_throw(PyObject_CallNoArgs(exc.ptr()));
      if (!PyExceptionInstance_Check(exc.ptr())) raise(PyExc_TypeError, "exceptions must derive from BaseException");
      if (cause) {
        if (PyExceptionClass_Check(cause.ptr())) cause = steal_or_throw(PyObject_CallNoArgs(cause.ptr()));
        PyException_SetCause(exc.ptr(), cause.is_none() ? nullptr : cause.inc_ref().ptr());
      }
      PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr());
      throw py::error_already_set();
    }
    case Op::LOAD_ASSERTION_ERROR:
      f.stack.push_back(py::reinterpret_borrow<py::object>(PyExc_AssertionError));
      return;
    case Op::IMPORT_NAME: {
      py::object name = f.code->names[in.arg];
      py::object fromlist = pop(f);
      py::object level = pop(f);
      f.stack.push_back(steal_or_throw(PyImport_ImportModuleLevelObject(name.ptr(), f.globals.ptr(), nullptr,
                                                                        fromlist.ptr(), level.cast<int>())));
      return;
    }
    case Op::IMPORT_FROM: {
      py::object name = f.code->names[in.arg];
      py::object mod = top(f);
      PyObject* v = PyObject_GetAttr(mod.ptr(), name.ptr());
      if (!v) {
        PyErr_Clear();
        std::string full = std::string(py::str(mod.attr("__name__"))) + "." + std::string(py::str(name));
        v = PyImport_ImportModule(full.c_str());
        if (!v) throw py::error_already_set();
      }
      f.stack.push_back(py::reinterpret_steal<py::object>(v));
      return;
    }
    case Op::GET_LEN:
      f.stack.push_back(py::int_(py::len(top(f))));
      return;
    case Op::LOAD_BUILD_CLASS:
      f.stack.push_back(py::module_::import("builtins").attr("__build_class__"));
      return;
    case Op::RETURN_VALUE:
    case Op::EXTENDED_ARG:
    case Op::Unknown:
      break;
  }
  throw InternalError("unsupported bytecode " + in.opname);
}

}  // namespace fxcap

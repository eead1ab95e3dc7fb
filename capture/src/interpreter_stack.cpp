// Handlers for stack manipulation and for constants, fast locals, globals and
// closure cells: loading and storing names.
#include <Python.h>

#include "frame_stack.h"
#include "interned.h"
#include "interpreter.h"
#include "py_errors.h"

namespace fxcap {

void Interpreter::NOP(Frame&, const Instr&) {}

void Interpreter::POP_TOP(Frame& f, const Instr&) { pop(f); }

void Interpreter::PUSH_NULL(Frame& f, const Instr&) { f.stack.emplace_back(); }

void Interpreter::COPY(Frame& f, const Instr& in) { f.stack.push_back(top(f, in.arg)); }

void Interpreter::SWAP(Frame& f, const Instr& in) { std::swap(top(f, 1), top(f, in.arg)); }

void Interpreter::LOAD_CONST(Frame& f, const Instr& in) {
  f.stack.push_back(py::reinterpret_borrow<py::object>(PyTuple_GET_ITEM(f.code->consts.ptr(), in.arg)));
}

void Interpreter::LOAD_FAST(Frame& f, const Instr& in) {
  py::object& v = f.locals.at(in.arg);
  if (!v)
    raise(PyExc_UnboundLocalError, "cannot access local variable '" + f.code->localsplus_names[in.arg] +
                                       "' where it is not associated with a value");
  f.stack.push_back(v);
}

void Interpreter::STORE_FAST(Frame& f, const Instr& in) { f.locals.at(in.arg) = pop(f); }

void Interpreter::DELETE_FAST(Frame& f, const Instr& in) { f.locals.at(in.arg) = py::object(); }

void Interpreter::LOAD_GLOBAL(Frame& f, const Instr& in) {
  py::object name = f.code->names[in.arg];
  if (in.push_null) f.stack.emplace_back();
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
}

void Interpreter::STORE_GLOBAL(Frame& f, const Instr& in) {
  py::object name = f.code->names[in.arg];
  py::object value = pop(f);
  if (PyDict_SetItem(f.globals.ptr(), name.ptr(), value.ptr()) < 0) throw py::error_already_set();
  side_effect("global", py::str(name), value, "FX203", "FX401");
}

void Interpreter::MAKE_CELL(Frame& f, const Instr& in) {
  py::object& slot = f.locals.at(in.arg);
  py::object cell = steal_or_throw(PyCell_New(slot ? slot.ptr() : nullptr));
  mark_created(cell);
  slot = cell;
}

void Interpreter::COPY_FREE_VARS(Frame& f, const Instr& in) {
  py::object closure = py::getattr(f.function, interned("__closure__"), py::none());
  for (int i = 0; i < in.arg; ++i) f.locals.at(f.code->first_free + i) = closure[py::int_(i)];
}

void Interpreter::LOAD_CLOSURE(Frame& f, const Instr& in) { f.stack.push_back(f.locals.at(in.arg)); }

void Interpreter::LOAD_DEREF(Frame& f, const Instr& in) {
  PyObject* v = PyCell_Get(f.locals.at(in.arg).ptr());
  if (!v) {
    if (PyErr_Occurred()) throw py::error_already_set();
    raise(PyExc_NameError, "cannot access free variable '" + f.code->localsplus_names[in.arg] +
                               "' where it is not associated with a value in enclosing scope");
  }
  f.stack.push_back(py::reinterpret_steal<py::object>(v));
}

void Interpreter::STORE_DEREF(Frame& f, const Instr& in) {
  py::object value = pop(f);
  py::object& cell = f.locals.at(in.arg);
  if (PyCell_Set(cell.ptr(), value.ptr()) < 0) throw py::error_already_set();
  if (!created_here(cell)) side_effect("nonlocal", f.code->localsplus_names[in.arg], value, "FX203", "FX402");
}

void Interpreter::DELETE_DEREF(Frame& f, const Instr& in) {
  if (PyCell_Set(f.locals.at(in.arg).ptr(), nullptr) < 0) throw py::error_already_set();
}

}  // namespace fxcap

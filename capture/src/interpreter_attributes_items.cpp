// Handlers for attributes and items: obj.name and obj[index], loaded, stored
// and deleted. What reading or writing them records is in interpreter_values.cpp.
#include <Python.h>

#include "frame_stack.h"
#include "interned.h"
#include "interpreter.h"
#include "py_errors.h"

namespace fxcap {

void Interpreter::LOAD_ATTR(Frame& f, const Instr& in) {
  py::object name = f.code->names[in.arg];
  py::object obj = pop(f);
  load_attr(f, obj, name);
}

void Interpreter::LOAD_METHOD(Frame& f, const Instr& in) {
  // Pushed as [NULL, bound attribute]; CALL handles both layouts.
  py::object name = f.code->names[in.arg];
  py::object obj = pop(f);
  f.stack.emplace_back();
  load_attr(f, obj, name);
}

void Interpreter::STORE_ATTR(Frame& f, const Instr& in) {
  py::object name = f.code->names[in.arg];
  py::object obj = pop(f);
  py::object value = pop(f);
  store_attr(obj, name, value);
}

void Interpreter::DELETE_ATTR(Frame& f, const Instr& in) {
  py::object name = f.code->names[in.arg];
  py::object obj = pop(f);
  if (PyObject_DelAttr(obj.ptr(), name.ptr()) < 0) throw py::error_already_set();
  if (!created_here(obj)) side_effect("attribute", "del " + source_of(obj) + "." + std::string(py::str(name)), py::none(), "FX203", "FX403");
}

void Interpreter::BINARY_SUBSCR(Frame& f, const Instr&) {
  py::object index = pop(f);
  py::object obj = pop(f);
  f.stack.push_back(subscript(obj, index));
}

void Interpreter::STORE_SUBSCR(Frame& f, const Instr&) {
  py::object index = pop(f);
  py::object obj = pop(f);
  py::object value = pop(f);
  store_subscript(obj, index, value);
}

void Interpreter::DELETE_SUBSCR(Frame& f, const Instr&) {
  py::object index = pop(f);
  py::object obj = pop(f);
  if (PyObject_DelItem(obj.ptr(), index.ptr()) < 0) throw py::error_already_set();
  if (!created_here(obj) && (PyList_Check(obj.ptr()) || PyDict_Check(obj.ptr())))
    side_effect("container", "del " + std::string(py::str(py::type::of(obj).attr(interned("__name__")))) + "[...]",
                py::none(), "FX204", "FX404");
}

}  // namespace fxcap

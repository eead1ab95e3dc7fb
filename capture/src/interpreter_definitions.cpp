// Handlers for what def, class and import statements run: making functions,
// the class builder, importing modules and names.
#include <Python.h>

#include "frame_stack.h"
#include "interned.h"
#include "interpreter.h"
#include "py_errors.h"

namespace fxcap {

void Interpreter::MAKE_FUNCTION(Frame& f, const Instr& in) {
  py::object fcode = pop(f);
  py::object closure, annotations, kwdefaults, defaults;
  if (in.arg & kFunctionClosure) closure = pop(f);
  if (in.arg & kFunctionAnnotations) annotations = pop(f);
  if (in.arg & kFunctionKwDefaults) kwdefaults = pop(f);
  if (in.arg & kFunctionDefaults) defaults = pop(f);
  py::object qualname = fcode.attr(interned("co_qualname"));
  py::object fn = steal_or_throw(PyFunction_NewWithQualName(fcode.ptr(), f.globals.ptr(), qualname.ptr()));
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
}

void Interpreter::LOAD_BUILD_CLASS(Frame& f, const Instr&) {
  f.stack.push_back(py::module_::import("builtins").attr(interned("__build_class__")));
}

void Interpreter::IMPORT_NAME(Frame& f, const Instr& in) {
  py::object name = f.code->names[in.arg];
  py::object fromlist = pop(f);
  py::object level = pop(f);
  f.stack.push_back(steal_or_throw(
      PyImport_ImportModuleLevelObject(name.ptr(), f.globals.ptr(), nullptr, fromlist.ptr(), level.cast<int>())));
}

void Interpreter::IMPORT_FROM(Frame& f, const Instr& in) {
  py::object name = f.code->names[in.arg];
  py::object mod = top(f);
  PyObject* v = PyObject_GetAttr(mod.ptr(), name.ptr());
  if (!v) {
    PyErr_Clear();
    std::string full = std::string(py::str(mod.attr(interned("__name__")))) + "." + std::string(py::str(name));
    v = PyImport_ImportModule(full.c_str());
    if (!v) throw py::error_already_set();
  }
  f.stack.push_back(py::reinterpret_steal<py::object>(v));
}

}  // namespace fxcap

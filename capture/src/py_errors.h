// Raising and checking Python errors from the interpreter: a user-visible
// Python exception always travels as py::error_already_set.
#pragma once

#include <Python.h>
#include <pybind11/pybind11.h>

#include <string>

namespace fxcap {

namespace py = pybind11;

// A new reference from the C API, or the pending Python error thrown.
inline py::object steal_or_throw(PyObject* o) {
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}

[[noreturn]] inline void raise(PyObject* type, const std::string& message) {
  PyErr_SetString(type, message.c_str());
  throw py::error_already_set();
}

// Re-raises an exception object with its own traceback.
[[noreturn]] inline void raise_object(py::handle exc) {
  py::object tb = py::getattr(exc, "__traceback__", py::none());
  Py_INCREF(Py_TYPE(exc.ptr()));
  Py_INCREF(exc.ptr());
  PyObject* tbp = tb.is_none() ? nullptr : tb.inc_ref().ptr();
  PyErr_Restore(reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr(), tbp);
  throw py::error_already_set();
}

}  // namespace fxcap

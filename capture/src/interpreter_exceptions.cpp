// Handlers for raising and handling exceptions and for with-blocks. Unwinding
// to a handler through the exception table is the frame loop's (interpreter.cpp).
#include <Python.h>

#include "frame_stack.h"
#include "interned.h"
#include "interpreter.h"
#include "py_errors.h"

namespace fxcap {

void Interpreter::BEFORE_WITH(Frame& f, const Instr&) {
  py::object mgr = pop(f);
  py::object exit = steal_or_throw(PyObject_GetAttrString(mgr.ptr(), "__exit__"));
  py::object enter = steal_or_throw(PyObject_GetAttrString(mgr.ptr(), "__enter__"));
  py::object result = call(f, enter, {}, py::object());
  if (policy_.is_grad_mode_object(mgr))
    graphs_.record("call_function", set_grad_enabled_, py::make_tuple(is_grad_enabled_()), py::dict(), py::none(),
                   false);
  f.stack.push_back(exit);
  f.stack.push_back(result);
}

void Interpreter::WITH_EXCEPT_START(Frame& f, const Instr&) {
  py::object exc = top(f, 1);
  py::object exit = top(f, 4);
  py::object tb = py::getattr(exc, interned("__traceback__"), py::none());
  py::object r = steal_or_throw(PyObject_CallFunctionObjArgs(
      exit.ptr(), reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr(), tb.ptr(), nullptr));
  f.stack.push_back(r);
}

void Interpreter::PUSH_EXC_INFO(Frame& f, const Instr&) {
  py::object exc = pop(f);
  PyObject* prev = PyErr_GetHandledException();
  f.stack.push_back(prev ? py::reinterpret_steal<py::object>(prev) : py::object(py::none()));
  PyErr_SetHandledException(exc.ptr());
  f.stack.push_back(exc);
}

void Interpreter::POP_EXCEPT(Frame& f, const Instr&) {
  py::object prev = pop(f);
  PyErr_SetHandledException(prev.is_none() ? nullptr : prev.ptr());
}

void Interpreter::CHECK_EXC_MATCH(Frame& f, const Instr&) {
  py::object type = pop(f);
  py::object exc = top(f);
  f.stack.push_back(py::bool_(PyErr_GivenExceptionMatches(exc.ptr(), type.ptr()) == 1));
}

void Interpreter::RERAISE(Frame& f, const Instr&) {
  py::object exc = pop(f);
  raise_object(exc);
}

void Interpreter::RAISE_VARARGS(Frame& f, const Instr& in) {
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

void Interpreter::LOAD_ASSERTION_ERROR(Frame& f, const Instr&) {
  f.stack.push_back(py::reinterpret_borrow<py::object>(PyExc_AssertionError));
}

}  // namespace fxcap

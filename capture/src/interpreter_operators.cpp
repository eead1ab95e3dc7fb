// Handlers for operators: unary, binary, comparisons, `is`, `in`, len(). The
// operations on values themselves are in interpreter_values.cpp.
#include <Python.h>

#include "frame_stack.h"
#include "interned.h"
#include "interpreter.h"
#include "py_errors.h"

namespace fxcap {

void Interpreter::unary_number(Frame& f, PyObject* (*apply)(PyObject*), const char* operator_name) {
  py::object v = pop(f);
  py::object result = steal_or_throw(apply(v.ptr()));
  if (graphs_.is_tensor(result))
    graphs_.record("call_function", operator_.attr(interned(operator_name)), py::make_tuple(v), py::dict(), result);
  f.stack.push_back(result);
}

void Interpreter::UNARY_POSITIVE(Frame& f, const Instr&) { unary_number(f, PyNumber_Positive, "pos"); }

void Interpreter::UNARY_NEGATIVE(Frame& f, const Instr&) { unary_number(f, PyNumber_Negative, "neg"); }

void Interpreter::UNARY_INVERT(Frame& f, const Instr&) { unary_number(f, PyNumber_Invert, "invert"); }

void Interpreter::UNARY_NOT(Frame& f, const Instr&) {
  py::object v = pop(f);
  f.stack.push_back(py::bool_(!truth(v, false)));
}

void Interpreter::BINARY_OP(Frame& f, const Instr& in) {
  py::object b = pop(f);
  py::object a = pop(f);
  f.stack.push_back(binary_op(static_cast<BinaryOperator>(in.arg), a, b));
}

void Interpreter::COMPARE_OP(Frame& f, const Instr& in) {
  py::object b = pop(f);
  py::object a = pop(f);
  f.stack.push_back(compare_op(in.arg, a, b));
}

void Interpreter::IS_OP(Frame& f, const Instr& in) {
  py::object b = pop(f);
  py::object a = pop(f);
  f.stack.push_back(py::bool_((a.ptr() == b.ptr()) != (in.arg == 1)));
}

void Interpreter::CONTAINS_OP(Frame& f, const Instr& in) {
  py::object container = pop(f);
  py::object item = pop(f);
  int r = PySequence_Contains(container.ptr(), item.ptr());
  if (r < 0) throw py::error_already_set();
  f.stack.push_back(py::bool_((r == 1) != (in.arg == 1)));
}

void Interpreter::GET_LEN(Frame& f, const Instr&) { f.stack.push_back(py::int_(py::len(top(f)))); }

}  // namespace fxcap

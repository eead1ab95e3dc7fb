// Handlers for control flow: jumps (to decoded instruction indices), loops,
// and the generator opcodes that stay inside the frame.
#include <Python.h>

#include "frame_stack.h"
#include "interpreter.h"
#include "py_errors.h"

namespace fxcap {

void Interpreter::JUMP(Frame& f, const Instr& in) { f.pc = in.target; }

void Interpreter::pop_jump_if_truth(Frame& f, const Instr& in, bool jump_if) {
  py::object v = pop(f);
  // `assert cond` falls through to LOAD_ASSERTION_ERROR when cond is false.
  bool assert_test = jump_if && f.pc < static_cast<int>(f.code->instrs.size()) &&
                     f.code->instrs[f.pc].op == Op::LOAD_ASSERTION_ERROR;
  if (truth(v, assert_test) == jump_if) f.pc = in.target;
}

void Interpreter::POP_JUMP_IF_FALSE(Frame& f, const Instr& in) { pop_jump_if_truth(f, in, false); }

void Interpreter::POP_JUMP_IF_TRUE(Frame& f, const Instr& in) { pop_jump_if_truth(f, in, true); }

void Interpreter::POP_JUMP_IF_NONE(Frame& f, const Instr& in) {
  if (pop(f).is_none()) f.pc = in.target;
}

void Interpreter::POP_JUMP_IF_NOT_NONE(Frame& f, const Instr& in) {
  if (!pop(f).is_none()) f.pc = in.target;
}

void Interpreter::jump_or_pop(Frame& f, const Instr& in, bool jump_if) {
  if (truth(top(f), false) == jump_if)
    f.pc = in.target;
  else
    pop(f);
}

void Interpreter::JUMP_IF_FALSE_OR_POP(Frame& f, const Instr& in) { jump_or_pop(f, in, false); }

void Interpreter::JUMP_IF_TRUE_OR_POP(Frame& f, const Instr& in) { jump_or_pop(f, in, true); }

void Interpreter::GET_ITER(Frame& f, const Instr&) {
  py::object v = pop(f);
  f.stack.push_back(get_iter(v));
}

void Interpreter::FOR_ITER(Frame& f, const Instr& in) {
  py::object& it = top(f);
  PyObject* next = PyIter_Next(it.ptr());
  if (next) {
    f.stack.push_back(py::reinterpret_steal<py::object>(next));
    return;
  }
  if (PyErr_Occurred()) throw py::error_already_set();
  pop(f);
  f.pc = in.target;
}

void Interpreter::RETURN_GENERATOR(Frame& f, const Instr&) {
  if (!f.generator) throw InternalError("RETURN_GENERATOR outside a generator body");
  f.stack.push_back(py::none());  // what the first send(None) delivers
}

void Interpreter::YIELD_VALUE(Frame&, const Instr&) {
  throw InternalError("YIELD_VALUE outside a generator body");  // generators stop in run_frame
}

}  // namespace fxcap

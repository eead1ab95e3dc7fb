// The frame loop: each instruction goes to its handler (step, in
// interpreter_dispatch.cpp); returns, yields and exception-table unwinding are
// done here. Values on the stack are the real Python objects; tensor work is
// mirrored into the current torch.fx graph.
#include "interpreter.h"

#include <Python.h>

#include "frame_stack.h"
#include "py_errors.h"

namespace fxcap {

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

}  // namespace fxcap

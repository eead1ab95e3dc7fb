// The frame loop: each instruction goes to its handler (step, in
// interpreter_dispatch.cpp); returns, yields and exception-table unwinding are
// done here. Values on the stack are the real Python objects; tensor work is
// mirrored into the current torch.fx graph.
#include "interpreter.h"

#include <Python.h>

#include <algorithm>

#include "frame_stack.h"
#include "interned.h"
#include "py_errors.h"

namespace fxcap {

BuiltinRefs::BuiltinRefs() {
  py::module_ b = py::module_::import("builtins");
  getattr_fn = b.attr(interned("getattr"));
  setattr_fn = b.attr(interned("setattr"));
  locals_fn = b.attr(interned("locals"));
  vars_fn = b.attr(interned("vars"));
  globals_fn = b.attr(interned("globals"));
  eval_fn = b.attr(interned("eval"));
  exec_fn = b.attr(interned("exec"));
  map_fn = b.attr(interned("map"));
  object_type = b.attr(interned("object"));
  object_setattr = object_type.attr(interned("__setattr__"));
  sorted_fn = b.attr(interned("sorted"));
  min_fn = b.attr(interned("min"));
  max_fn = b.attr(interned("max"));
  super_type = b.attr(interned("super"));
  for (const char* name : {"list", "tuple", "iter", "enumerate", "zip", "reversed"}) iterating.push_back(b.attr(name));
}

Interpreter::Interpreter(CaptureOptions options) : options_(options) {
  operator_ = py::module_::import("operator");
  torch_ = py::module_::import("torch");
  set_grad_enabled_ = torch_.attr(interned("_C")).attr(interned("_set_grad_enabled"));
  is_grad_enabled_ = torch_.attr(interned("is_grad_enabled"));
  tensor_cls_ = torch_.attr(interned("Tensor"));
  module_cls_ = torch_.attr(interned("nn")).attr(interned("Module"));
  getattr_ = builtins_.getattr_fn;
  prepend_frame_ = py::module_::import("fxlint_capture.frames").attr(interned("prepend_frame"));
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
  sync_recording();
  struct Pop {
    Interpreter& interp;
    ~Pop() {
      interp.frames_.pop_back();
      interp.sync_recording();
    }
  } pop_frame{*this};
  const auto& instrs = f.code->instrs;
  if (pending && !enter_handler(f, pending)) {
    // Thrown into a generator at a yield outside any try: it leaves the frame.
    f.pc = static_cast<int>(instrs.size());
    raise_object(pending);
  }
  while (true) {
    if (f.pc < 0 || f.pc >= static_cast<int>(instrs.size()))
      throw InternalError("execution left the bytecode of " + f.code->name);
    if (f.resume_pending) start_unit(f, f.pc, true);
    f.current = f.pc++;
    const Instr& in = instrs[f.current];
    try {
      if (in.op == Op::RETURN_VALUE) {
        if (frames_.size() == 1)
          result_graph_floor_ = f.mode == FrameMode::Traced ? f.unit_graph : graphs_.graph_slots() + 1;
        return pop(f);
      }
      if (in.op == Op::YIELD_VALUE && f.generator) {
        f.suspended = true;
        return pop(f);
      }
      step(f, in);
      // A cached unit ends at the instruction it broke at; what follows is the next unit.
      if (f.mode == FrameMode::Cached && f.current == f.cached_break) f.resume_pending = true;
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

void Interpreter::sync_recording() {
  graphs_.set_recording(!frames_.empty() && frames_.back()->mode == FrameMode::Traced);
}

static std::vector<py::object> argument_values(const Frame& f) {
  size_t n = std::min(static_cast<size_t>(f.code->argument_slots()), f.locals.size());
  return std::vector<py::object>(f.locals.begin(), f.locals.begin() + static_cast<std::ptrdiff_t>(n));
}

void Interpreter::start_unit(Frame& f, int start, bool new_graph) {
  std::vector<py::object> values;
  if (start == 0) {
    values = f.args;
  } else {
    // A resume function takes the live locals and the stack.
    for (const auto& v : f.locals)
      if (v) values.push_back(v);
    for (const auto& v : f.stack)
      if (v) values.push_back(v);
  }
  CompileUnits::Lookup unit = units_.enter(*f.code, start, values);
  f.unit_root = true;
  f.unit_start = start;
  f.resume_pending = false;
  f.entry = nullptr;
  f.cached_break = -1;
  switch (unit.verdict) {
    case CompileUnits::Verdict::Compile:
      f.mode = FrameMode::Traced;
      f.entry = unit.entry;
      if (new_graph) graphs_.close_graph();
      f.unit_graph = new_graph ? graphs_.graph_slots() : std::max(0, graphs_.current_graph_index());
      break;
    case CompileUnits::Verdict::Cached:
      f.mode = FrameMode::Cached;
      f.cached_break = unit.entry->break_at;
      break;
    case CompileUnits::Verdict::Skip:
      f.mode = FrameMode::Eager;
      break;
  }
  if (!frames_.empty() && frames_.back() == &f) sync_recording();
}

void Interpreter::enter_frame_mode(Frame& f) {
  if (frames_.empty()) {
    f.args = argument_values(f);
    start_unit(f, 0, false);
    return;
  }
  const Frame& caller = *frames_.back();
  bool unit = caller.mode == FrameMode::Eager ||
              (caller.mode == FrameMode::Cached && caller.current == caller.cached_break);
  if (f.generator) {
    // Dynamo does not compile a generator's frame on its own.
    f.mode = caller.mode == FrameMode::Traced ? FrameMode::Traced : FrameMode::Eager;
  } else if (unit) {
    f.args = argument_values(f);
    start_unit(f, 0, true);
  } else if (caller.mode == FrameMode::Traced) {
    f.mode = FrameMode::Traced;
    f.args = argument_values(f);
    f.mark_graph = graphs_.current_graph_index();
    f.mark_position = graphs_.position();
  } else {
    f.mode = FrameMode::CachedInlined;
  }
}

void Interpreter::split_units_at_break(bool resumable) {
  if (frames_.empty()) return;
  int top = static_cast<int>(frames_.size()) - 1;
  int root = top;
  while (root > 0 && !frames_[root]->unit_root) --root;
  bool kept = false;
  int unit_graph = frames_[root]->unit_graph;
  std::vector<char> loops(frames_.size(), 0);
  for (int j = root; j <= top; ++j)
    loops[j] = has_backedge(*frames_[j]->code, frames_[j]->current) || (j == top && !resumable);
  // Dynamo compiles one graph per frame here (below): cut the unit's graph where
  // each inner frame was entered.
  if (!loops[root] && graphs_.graph_slots() == unit_graph + 1) {
    std::vector<int> cuts;
    std::vector<bool> keep{true};
    bool known = true;
    for (int j = root + 1; j <= top; ++j) {
      const Frame& fj = *frames_[j];
      if (fj.generator) continue;
      if (fj.mark_graph != unit_graph && !(fj.mark_graph == -1 && fj.mark_position == 0)) known = false;
      cuts.push_back(fj.mark_graph == unit_graph ? fj.mark_position : 0);
      keep.push_back(!loops[j]);
    }
    if (known && !cuts.empty() && std::is_sorted(cuts.begin(), cuts.end())) graphs_.split(unit_graph, cuts, keep);
  }
  for (int j = root; j <= top; ++j) {
    Frame& fj = *frames_[j];
    if (fj.generator) continue;
    // Dynamo breaks the unit at its own frame's instruction; each inner frame is
    // then entered from eager code and compiled as a unit of its own, which
    // breaks at the same place.
    bool loop = loops[j];
    int start = j == root ? fj.unit_start : 0;
    if (loop) {
      units_.skip(*fj.code, start);
    } else if (j == root) {
      if (fj.entry) fj.entry->break_at = fj.current;
    } else {
      CompileUnits::Lookup unit = units_.enter(*fj.code, 0, fj.args);
      if (unit.verdict == CompileUnits::Verdict::Compile) unit.entry->break_at = fj.current;
    }
    fj.unit_root = true;
    fj.mode = FrameMode::Eager;
    fj.entry = nullptr;
    fj.resume_pending = !loop;
    kept = kept || !loop;
  }
  // Every frame broke in a loop: Dynamo compiled nothing of this unit.
  if (!kept) graphs_.discard_from(unit_graph);
  sync_recording();
}

}  // namespace fxcap

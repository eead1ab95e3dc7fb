// Popping and peeking at a frame's value stack, for the opcode handlers. An
// underflow is a bug of the interpreter (or malformed bytecode), never the user's.
#pragma once

#include "interpreter.h"

namespace fxcap {

inline py::object pop(Frame& f) {
  if (f.stack.empty()) throw InternalError("value stack underflow in " + f.code->name);
  py::object v = std::move(f.stack.back());
  f.stack.pop_back();
  return v;
}

// The entry `depth` from the top (1: the top itself).
inline py::object& top(Frame& f, int depth = 1) {
  if (static_cast<int>(f.stack.size()) < depth) throw InternalError("value stack underflow in " + f.code->name);
  return f.stack[f.stack.size() - depth];
}

}  // namespace fxcap

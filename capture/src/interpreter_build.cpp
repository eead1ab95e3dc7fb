// Handlers that build tuples, lists, sets, dicts, slices and strings (displays,
// comprehensions, f-strings), and that unpack sequences into targets.
#include <Python.h>

#include "frame_stack.h"
#include "interned.h"
#include "interpreter.h"
#include "py_errors.h"

namespace fxcap {

void Interpreter::BUILD_TUPLE(Frame& f, const Instr& in) {
  py::tuple t(in.arg);
  for (int i = in.arg - 1; i >= 0; --i) t[i] = pop(f);
  f.stack.push_back(t);
}

void Interpreter::BUILD_LIST(Frame& f, const Instr& in) {
  py::list l(in.arg);
  for (int i = in.arg - 1; i >= 0; --i) l[i] = pop(f);
  mark_created(l);
  f.stack.push_back(l);
}

void Interpreter::BUILD_SET(Frame& f, const Instr& in) {
  std::vector<py::object> items(in.arg);
  for (int i = in.arg - 1; i >= 0; --i) items[i] = pop(f);
  py::set s;
  for (auto& i : items) s.add(i);
  mark_created(s);
  f.stack.push_back(s);
}

void Interpreter::BUILD_MAP(Frame& f, const Instr& in) {
  std::vector<py::object> items(2 * in.arg);
  for (int i = 2 * in.arg - 1; i >= 0; --i) items[i] = pop(f);
  py::dict d;
  for (int i = 0; i < in.arg; ++i) d[items[2 * i]] = items[2 * i + 1];
  mark_created(d);
  f.stack.push_back(d);
}

void Interpreter::BUILD_CONST_KEY_MAP(Frame& f, const Instr& in) {
  py::tuple keys = pop(f);
  std::vector<py::object> values(in.arg);
  for (int i = in.arg - 1; i >= 0; --i) values[i] = pop(f);
  py::dict d;
  for (int i = 0; i < in.arg; ++i) d[keys[i]] = values[i];
  mark_created(d);
  f.stack.push_back(d);
}

void Interpreter::BUILD_STRING(Frame& f, const Instr& in) {
  py::list parts(in.arg);
  for (int i = in.arg - 1; i >= 0; --i) parts[i] = pop(f);
  f.stack.push_back(py::str("").attr(interned("join"))(parts));
}

void Interpreter::BUILD_SLICE(Frame& f, const Instr& in) {
  py::object step = in.arg == 3 ? pop(f) : py::none();
  py::object stop = pop(f);
  py::object start = pop(f);
  f.stack.push_back(steal_or_throw(PySlice_New(start.ptr(), stop.ptr(), step.ptr())));
}

void Interpreter::LIST_APPEND(Frame& f, const Instr& in) {
  py::object v = pop(f);
  if (PyList_Append(top(f, in.arg).ptr(), v.ptr()) < 0) throw py::error_already_set();
}

void Interpreter::SET_ADD(Frame& f, const Instr& in) {
  py::object v = pop(f);
  if (PySet_Add(top(f, in.arg).ptr(), v.ptr()) < 0) throw py::error_already_set();
}

void Interpreter::MAP_ADD(Frame& f, const Instr& in) {
  py::object value = pop(f);
  py::object key = pop(f);
  if (PyDict_SetItem(top(f, in.arg).ptr(), key.ptr(), value.ptr()) < 0) throw py::error_already_set();
}

// Adds the popped iterable or mapping to the container `in.arg` deep, by its
// own method; a tensor is unbound into its rows first.
void Interpreter::merge_into(Frame& f, const Instr& in, const char* method) {
  py::object v = pop(f);
  if (graphs_.is_tensor(v)) v = unbind(v);
  top(f, in.arg).attr(interned(method))(v);
}

void Interpreter::LIST_EXTEND(Frame& f, const Instr& in) { merge_into(f, in, "extend"); }

void Interpreter::SET_UPDATE(Frame& f, const Instr& in) { merge_into(f, in, "update"); }

void Interpreter::DICT_UPDATE(Frame& f, const Instr& in) { merge_into(f, in, "update"); }

void Interpreter::DICT_MERGE(Frame& f, const Instr& in) { merge_into(f, in, "update"); }

void Interpreter::LIST_TO_TUPLE(Frame& f, const Instr&) {
  py::object l = pop(f);
  f.stack.push_back(steal_or_throw(PyList_AsTuple(l.ptr())));
}

void Interpreter::FORMAT_VALUE(Frame& f, const Instr& in) {
  py::object spec = (in.arg & kFormatHasSpec) ? pop(f) : py::str("");
  py::object v = pop(f);
  if (graphs_.is_tensor(v)) graphs_.escape(v);
  if (graphs_.is_tensor(v)) graph_break({"formatting a tensor reads its data", "FX502", "GB0569"});
  int conv = in.arg & kFormatConversionMask;
  if (conv == kFormatStr) v = steal_or_throw(PyObject_Str(v.ptr()));
  if (conv == kFormatRepr) v = steal_or_throw(PyObject_Repr(v.ptr()));
  if (conv == kFormatAscii) v = steal_or_throw(PyObject_ASCII(v.ptr()));
  f.stack.push_back(steal_or_throw(PyObject_Format(v.ptr(), spec.ptr())));
}

void Interpreter::UNPACK_SEQUENCE(Frame& f, const Instr& in) {
  py::object seq = pop(f);
  py::list items = graphs_.is_tensor(seq) ? py::list(unbind(seq)) : py::list(seq);
  int n = static_cast<int>(items.size());
  if (n != in.arg)
    raise(PyExc_ValueError, n > in.arg ? "too many values to unpack (expected " + std::to_string(in.arg) + ")"
                                       : "not enough values to unpack (expected " + std::to_string(in.arg) +
                                             ", got " + std::to_string(n) + ")");
  for (int i = n - 1; i >= 0; --i) f.stack.push_back(items[i]);
}

void Interpreter::UNPACK_EX(Frame& f, const Instr& in) {
  py::object seq = pop(f);
  py::list items = graphs_.is_tensor(seq) ? py::list(unbind(seq)) : py::list(seq);
  int n = static_cast<int>(items.size());
  int before = in.arg, after = in.arg2;
  if (n < before + after)
    raise(PyExc_ValueError, "not enough values to unpack (expected at least " + std::to_string(before + after) +
                                ", got " + std::to_string(n) + ")");
  for (int i = n - 1; i >= n - after; --i) f.stack.push_back(items[i]);
  py::list middle;
  for (int i = before; i < n - after; ++i) middle.append(items[i]);
  mark_created(middle);
  f.stack.push_back(middle);
  for (int i = before - 1; i >= 0; --i) f.stack.push_back(items[i]);
}

}  // namespace fxcap

// Values: attributes, subscripts, operators, truth tests, iteration, and the
// records (guards, side effects, breaks) that reading and writing them leaves.
#include <Python.h>

#include "interned.h"
#include "interpreter.h"
#include "py_errors.h"
#include "short_repr.h"

namespace fxcap {
namespace {

const char* const kBinaryNames[] = {"add", "and_", "floordiv", "lshift", "matmul", "mul", "mod",
                                    "or_", "pow", "rshift", "sub", "truediv", "xor"};
const char* const kInplaceNames[] = {"iadd", "iand", "ifloordiv", "ilshift", "imatmul", "imul", "imod",
                                     "ior", "ipow", "irshift", "isub", "itruediv", "ixor"};
const char* const kCompareNames[] = {"lt", "le", "eq", "ne", "gt", "ge"};

PyObject* apply_binary(BinaryOperator op, PyObject* a, PyObject* b) {
  using B = BinaryOperator;
  switch (op) {
    case B::Add: return PyNumber_Add(a, b);
    case B::And: return PyNumber_And(a, b);
    case B::FloorDivide: return PyNumber_FloorDivide(a, b);
    case B::Lshift: return PyNumber_Lshift(a, b);
    case B::MatrixMultiply: return PyNumber_MatrixMultiply(a, b);
    case B::Multiply: return PyNumber_Multiply(a, b);
    case B::Remainder: return PyNumber_Remainder(a, b);
    case B::Or: return PyNumber_Or(a, b);
    case B::Power: return PyNumber_Power(a, b, Py_None);
    case B::Rshift: return PyNumber_Rshift(a, b);
    case B::Subtract: return PyNumber_Subtract(a, b);
    case B::TrueDivide: return PyNumber_TrueDivide(a, b);
    case B::Xor: return PyNumber_Xor(a, b);
    case B::InplaceAdd: return PyNumber_InPlaceAdd(a, b);
    case B::InplaceAnd: return PyNumber_InPlaceAnd(a, b);
    case B::InplaceFloorDivide: return PyNumber_InPlaceFloorDivide(a, b);
    case B::InplaceLshift: return PyNumber_InPlaceLshift(a, b);
    case B::InplaceMatrixMultiply: return PyNumber_InPlaceMatrixMultiply(a, b);
    case B::InplaceMultiply: return PyNumber_InPlaceMultiply(a, b);
    case B::InplaceRemainder: return PyNumber_InPlaceRemainder(a, b);
    case B::InplaceOr: return PyNumber_InPlaceOr(a, b);
    case B::InplacePower: return PyNumber_InPlacePower(a, b, Py_None);
    case B::InplaceRshift: return PyNumber_InPlaceRshift(a, b);
    case B::InplaceSubtract: return PyNumber_InPlaceSubtract(a, b);
    case B::InplaceTrueDivide: return PyNumber_InPlaceTrueDivide(a, b);
    case B::InplaceXor: return PyNumber_InPlaceXor(a, b);
  }
  PyErr_Format(PyExc_SystemError, "unknown BINARY_OP argument %d", static_cast<int>(op));
  return nullptr;
}

bool is_plain_data(py::handle v) {
  PyObject* o = v.ptr();
  return PyLong_Check(o) || PyFloat_Check(o) || PyBool_Check(o) || PyUnicode_Check(o) || PyList_Check(o) ||
         PyDict_Check(o) || PyTuple_Check(o) || PySet_Check(o) || PyComplex_Check(o);
}

}  // namespace

void Interpreter::mark_created(py::handle obj) {
  if (created_.insert(obj.ptr()).second) keep_alive_.push_back(py::reinterpret_borrow<py::object>(obj));
}

void Interpreter::mark_if_fresh(const py::object& value) {
  // A list, dict or set that a call or an operator just returned and that
  // nothing else references (its only reference is `value`) is new: mutating it
  // changes nothing outside the capture (lst.copy(), lst[:], a + b, copy.copy(d)).
  PyObject* o = value.ptr();
  if (o && Py_REFCNT(o) == 1 && (PyList_Check(o) || PyDict_Check(o) || PySet_Check(o))) mark_created(value);
}

std::vector<StackEntry> Interpreter::user_stack() const {
  std::vector<StackEntry> out;
  for (const Frame* f : frames_) {
    if (policy_.is_hook_runner(f->function)) continue;
    const Instr& in = f->code->instrs[f->current];
    out.push_back({f->code->filename, in.line, f->code->name});
  }
  return out;
}

void Interpreter::graph_break(const BreakInfo& info) {
  // Outside a traced unit the code runs eagerly, as under Dynamo: nothing breaks.
  if (!graphs_.recording()) return;
  BreakRecord r;
  r.info = info;
  r.stack = user_stack();
  record_break(std::move(r), info.resumable);
}

void Interpreter::record_break(BreakRecord r, bool resumable) {
  r.graph_index = graphs_.current_graph_index();
  records_.breaks.push_back(std::move(r));
  graphs_.close_graph();
  int slots = graphs_.graph_slots();
  split_units_at_break(resumable);
  // Cut into one graph per frame: the break closes the innermost one.
  if (graphs_.graph_slots() > slots) records_.breaks.back().graph_index = graphs_.graph_slots() - 1;
}

void Interpreter::side_effect(const std::string& kind, const std::string& target, py::handle value,
                              const char* scalar_code, const char* tensor_code) {
  if (!graphs_.recording()) return;  // eager code: Dynamo does not trace it
  SideEffectRecord r;
  r.kind = kind;
  r.target = target;
  r.code = graphs_.contains_tensor(value) ? tensor_code : scalar_code;
  r.value_type = value ? std::string(py::str(py::type::of(value).attr(interned("__name__")))) : "None";
  r.stack = user_stack();
  records_.side_effects.push_back(std::move(r));
}

std::string Interpreter::source_of(py::handle obj) const {
  if (root_ && obj.ptr() == root_.ptr()) return "L['self']";
  if (root_ && module_sources_.empty()) {
    auto& sources = const_cast<std::unordered_map<PyObject*, std::string>&>(module_sources_);
    for (const auto& [module, path] : module_tree_)
      sources.emplace(module.ptr(), path.empty() ? "L['self']" : "L['self']." + path);
  }
  auto it = module_sources_.find(obj.ptr());
  if (it != module_sources_.end()) return it->second;
  return "<" + std::string(py::str(py::type::of(obj).attr(interned("__qualname__")))) + " object>";
}

void Interpreter::record_global_read(const std::string& name, py::handle value) {
  if (PyModule_Check(value.ptr())) return;
  std::string source = "G['" + name + "']";
  bool plain = value.is_none() || is_plain_data(value);
  if (plain && !value.is_none() && !records_.has_specialization(name))
    records_.add_specialization(name, value, user_stack());
  bool tensor = graphs_.is_tensor(value);
  bool module = !tensor && PyObject_IsInstance(value.ptr(), module_cls_.ptr()) == 1;
  const char* kind = tensor ? "TENSOR_MATCH" : module ? "NN_MODULE" : plain ? "CONSTANT_MATCH" : "ID_MATCH";
  if (records_.has_guard(source, kind)) return;  // read before: its detail is not made again
  std::string detail;
  if (tensor) {
    detail = py::str(value.attr(interned("dtype"))).cast<std::string>() + " " +
             std::string(py::str(py::tuple(value.attr(interned("shape")))));
  } else if (plain && !module) {
    detail = short_repr(value, 120);
  } else {
    detail = py::str(py::type::of(value).attr(interned("__name__")));
  }
  records_.add_guard(std::move(source), kind, std::move(detail));
}

bool Interpreter::truth(py::handle value, bool assert_test) {
  if (graphs_.is_tensor(value)) {
    bool real = PyObject_IsTrue(value.ptr()) == 1;
    if (PyErr_Occurred()) throw py::error_already_set();
    if (assert_test) {
      // As TorchDynamo does: an assert on a tensor stays in the graph.
      graphs_.record("call_function", torch_.attr(interned("_assert")),
                     py::make_tuple(value, py::str("assertion error")), py::dict(), py::none());
      return real;
    }
    graphs_.escape(value);
    graph_break({"data-dependent branch: the condition is a tensor value", "FX103", "GB0170"});
    return real;
  }
  int r = PyObject_IsTrue(value.ptr());
  if (r < 0) throw py::error_already_set();
  return r == 1;
}

py::object Interpreter::unbind(py::handle tensor) {
  py::list out;
  Py_ssize_t n = py::len(tensor);
  for (Py_ssize_t i = 0; i < n; ++i) out.append(subscript(tensor, py::int_(i)));
  return out;
}

py::object Interpreter::get_iter(py::handle value) {
  if (graphs_.is_tensor(value)) return steal_or_throw(PyObject_GetIter(unbind(value).ptr()));
  return steal_or_throw(PyObject_GetIter(value.ptr()));
}

py::object Interpreter::binary_op(BinaryOperator op, py::handle a, py::handle b) {
  py::object result = steal_or_throw(apply_binary(op, a.ptr(), b.ptr()));
  mark_if_fresh(result);
  if (graphs_.is_tensor(result) && (graphs_.is_tensor(a) || graphs_.is_tensor(b))) {
    int i = static_cast<int>(op), first_inplace = static_cast<int>(BinaryOperator::InplaceAdd);
    // `n += t` with a Python number `n` has no in-place form: Python computes
    // `n + t`, and so does the graph (fx would write `0 += t`, which does not compile).
    const char* name = i < first_inplace          ? kBinaryNames[i]
                       : graphs_.is_tensor(a) ? kInplaceNames[i - first_inplace]
                                              : kBinaryNames[i - first_inplace];
    graphs_.record("call_function", operator_.attr(interned(name)), py::make_tuple(a, b), py::dict(), result);
  }
  return result;
}

py::object Interpreter::compare_op(int op, py::handle a, py::handle b) {
  if (op < 0 || op > 5) raise(PyExc_SystemError, "bad COMPARE_OP argument");
  py::object result = steal_or_throw(PyObject_RichCompare(a.ptr(), b.ptr(), op));
  if (graphs_.is_tensor(result))
    graphs_.record("call_function", operator_.attr(interned(kCompareNames[op])), py::make_tuple(a, b), py::dict(),
                   result);
  return result;
}

static bool has_mask(const GraphBuilder& g, py::handle index, py::handle bool_dtype, py::handle uint8) {
  if (g.is_tensor(index)) {
    py::object dt = index.attr(interned("dtype"));
    return dt.ptr() == bool_dtype.ptr() || dt.ptr() == uint8.ptr();
  }
  if (PyTuple_Check(index.ptr()) || PyList_Check(index.ptr())) {
    for (auto i : index)
      if (has_mask(g, i, bool_dtype, uint8)) return true;
  }
  return false;
}

static bool has_tensor_slice_bound(const GraphBuilder& g, py::handle index) {
  if (PySlice_Check(index.ptr()))
    return g.is_tensor(index.attr(interned("start"))) || g.is_tensor(index.attr(interned("stop"))) ||
           g.is_tensor(index.attr(interned("step")));
  if (PyTuple_Check(index.ptr())) {
    for (auto i : index)
      if (has_tensor_slice_bound(g, i)) return true;
  }
  return false;
}

py::object Interpreter::subscript(py::handle obj, py::handle index) {
  if (graphs_.is_tensor(obj)) {
    if (has_mask(graphs_, index, torch_.attr(interned("bool")), torch_.attr(interned("uint8")))) {
      graphs_.escape(obj);
      graphs_.escape(index);
      graph_break({"boolean mask indexing: the result's size depends on tensor data", "FX301", "GB0036"});
      py::object r = steal_or_throw(PyObject_GetItem(obj.ptr(), index.ptr()));
      graphs_.mark_external(r);
      return r;
    }
    if (has_tensor_slice_bound(graphs_, index)) {
      graphs_.escape(obj);
      graphs_.escape(index);
      graph_break({"a tensor used as a slice bound must become a Python int", "FX102", "GB0038"});
      py::object r = steal_or_throw(PyObject_GetItem(obj.ptr(), index.ptr()));
      graphs_.mark_external(r);
      return r;
    }
    py::object r = steal_or_throw(PyObject_GetItem(obj.ptr(), index.ptr()));
    graphs_.record("call_function", operator_.attr(interned("getitem")), py::make_tuple(obj, index), py::dict(), r);
    return r;
  }
  if (graphs_.is_tensor(index) && (PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr()))) {
    graph_break({"a tensor used as a list index must become a Python int", "FX102", "GB0218"});
  }
  py::object r = steal_or_throw(PyObject_GetItem(obj.ptr(), index.ptr()));
  mark_if_fresh(r);  // lst[:]
  return r;
}

void Interpreter::store_subscript(py::handle obj, py::handle index, py::handle value) {
  if (graphs_.is_tensor(obj)) {
    // Through a boolean mask too: TorchDynamo traces `x[mask] = v` as one
    // in-graph index_put_, without a break (reading `v[mask]` is the break).
    if (PyObject_SetItem(obj.ptr(), index.ptr(), value.ptr()) < 0) throw py::error_already_set();
    graphs_.record("call_function", operator_.attr(interned("setitem")), py::make_tuple(obj, index, value), py::dict(),
                   py::none());
    graphs_.changed_in_place(obj);
    return;
  }
  if (PyObject_SetItem(obj.ptr(), index.ptr(), value.ptr()) < 0) throw py::error_already_set();
  if (!created_here(obj) && (PyList_Check(obj.ptr()) || PyDict_Check(obj.ptr()))) {
    side_effect("container", std::string(py::str(py::type::of(obj).attr(interned("__name__")))) + "[" +
                                 std::string(py::repr(index)) + "]",
                value, "FX204", "FX404");
  }
}

void Interpreter::load_attr(Frame& f, py::handle obj, py::handle name) {
  py::object value = steal_or_throw(PyObject_GetAttr(obj.ptr(), name.ptr()));
  if (graphs_.is_tensor(obj) && graphs_.is_tensor(value)) {
    graphs_.record("call_function", getattr_, py::make_tuple(obj, name), py::dict(), value);
  } else if (PyObject_IsInstance(obj.ptr(), module_cls_.ptr()) == 1 && (value.is_none() || is_plain_data(value)) &&
             !PyTuple_Check(value.ptr())) {
    std::string source = source_of(obj) + "." + std::string(py::str(name));
    if (!records_.has_guard(source, "CONSTANT_MATCH"))
      records_.add_guard(std::move(source), "CONSTANT_MATCH", short_repr(value, 120));
  } else if (PyModule_Check(obj.ptr()) && is_plain_data(value)) {
    // A module-level value read as `mod.NAME`: guarded and baked in, like a global.
    std::string qual = std::string(py::str(obj.attr(interned("__name__")))) + "." + std::string(py::str(name));
    std::string text = short_repr(value, 120);
    records_.add_guard("G['" + qual + "']", "CONSTANT_MATCH", text);
    if (!records_.has_specialization(qual)) records_.add_specialization(qual, value, user_stack());
  }
  f.stack.push_back(std::move(value));
}

void Interpreter::store_attr(py::handle obj, py::handle name, py::handle value) {
  if (PyObject_SetAttr(obj.ptr(), name.ptr(), value.ptr()) < 0) throw py::error_already_set();
  if (!created_here(obj)) side_effect("attribute", source_of(obj) + "." + std::string(py::str(name)), value, "FX203", "FX403");
}

}  // namespace fxcap

#include "compile_units.h"

#include <Python.h>

#include "interned.h"
#include "tensor_check.h"

namespace fxcap {
namespace {

struct Describer {
  py::handle tensor_cls, module_cls;
  std::string exact, free;  // guards; dynamic guards

  void add(const std::string& both) {
    exact += both;
    free += both;
  }

  void value(py::handle v, int depth) {
    PyObject* p = v.ptr();
    if (!p) {
      add("_");
      return;
    }
    if (p == Py_None || p == Py_True || p == Py_False) {
      add(p == Py_None ? "N" : p == Py_True ? "T" : "F");
    } else if (PyLong_CheckExact(p) || PyFloat_CheckExact(p)) {
      // Dynamo specializes a number first, and makes it a symbol once it changes.
      exact += std::string(PyLong_CheckExact(p) ? "i" : "f") + std::string(py::str(v)) + ",";
      free += PyLong_CheckExact(p) ? "i," : "f,";
    } else if (PyUnicode_CheckExact(p)) {
      add("s" + std::string(py::str(v)) + ",");
    } else if (is_tensor_object(p, tensor_cls.ptr())) {
      std::string dtype = py::str(v.attr(interned("dtype")));
      bool grad = v.attr(interned("requires_grad")).cast<bool>();
      py::tuple shape(v.attr(interned("shape")));
      exact += "t" + dtype + std::string(py::str(shape)) + (grad ? "g," : ",");
      free += "t" + dtype + std::to_string(shape.size()) + (grad ? "g," : ",");
    } else if (PyObject_IsInstance(p, module_cls.ptr()) == 1) {
      // Identity first; after a recompile, any module of the class with the same
      // constant attributes (Dynamo guards those, and `training`).
      exact += "m" + std::to_string(reinterpret_cast<uintptr_t>(p)) + ",";
      free += "m" + std::string(py::str(py::type::of(v).attr(interned("__qualname__"))));
      PyObject* dict = PyObject_GenericGetDict(p, nullptr);
      if (dict) {
        PyObject *k, *item;
        Py_ssize_t pos = 0;
        while (PyDict_Next(dict, &pos, &k, &item)) {
          if (item == Py_None || PyBool_Check(item) || PyLong_CheckExact(item) || PyFloat_CheckExact(item) ||
              PyUnicode_CheckExact(item)) {
            free += std::string(py::str(k)) + "=" + std::string(py::repr(item)) + ";";
          }
        }
        Py_DECREF(dict);
      } else {
        PyErr_Clear();
      }
      free += ",";
    } else if ((PyTuple_Check(p) || PyList_Check(p)) && depth < 4) {
      Py_ssize_t n = PySequence_Fast_GET_SIZE(p);
      add(std::string(PyTuple_Check(p) ? "(" : "[") + std::to_string(n) + ":");
      if (n <= 64)
        for (Py_ssize_t i = 0; i < n; ++i) value(PySequence_Fast_GET_ITEM(p, i), depth + 1);
      add(")");
    } else if (PyDict_Check(p) && depth < 4) {
      add("{");
      PyObject *k, *item;
      Py_ssize_t pos = 0;
      while (PyDict_Next(p, &pos, &k, &item)) {
        value(k, depth + 1);
        value(item, depth + 1);
      }
      add("}");
    } else if (PyFunction_Check(p) || PyType_Check(p) || PyModule_Check(p)) {
      add("o" + std::to_string(reinterpret_cast<uintptr_t>(p)) + ",");
    } else {
      add("y" + std::string(Py_TYPE(p)->tp_name) + ",");
    }
  }
};

}  // namespace

CompileUnits::Lookup CompileUnits::enter(const DecodedCode& code, int start, const std::vector<py::object>& values) {
  Unit& unit = units_[{&code, start}];
  if (unit.skip) return {Verdict::Skip, nullptr};
  static py::handle tensor_cls = py::object(py::module_::import("torch").attr(interned("Tensor"))).release();
  static py::handle module_cls = py::object(py::module_::import("torch").attr("nn").attr("Module")).release();
  Describer d{tensor_cls, module_cls, {}, {}};
  for (const auto& v : values) d.value(v, 0);
  for (auto& e : unit.entries) {
    if (e->dynamic ? e->dynamic_guards == d.free : e->guards == d.exact) return {Verdict::Cached, e.get()};
  }
  if (unit.entries.size() >= kRecompileLimit) return {Verdict::Skip, nullptr};
  auto entry = std::make_unique<Entry>();
  entry->dynamic = !unit.entries.empty();
  entry->guards = std::move(d.exact);
  entry->dynamic_guards = std::move(d.free);
  unit.entries.push_back(std::move(entry));
  return {Verdict::Compile, unit.entries.back().get()};
}

void CompileUnits::skip(const DecodedCode& code, int start) { units_[{&code, start}].skip = true; }

bool has_backedge(const DecodedCode& code, int index) {
  for (size_t i = static_cast<size_t>(index) + 1; i < code.instrs.size(); ++i) {
    const Instr& in = code.instrs[i];
    if (in.op == Op::RETURN_VALUE) return false;
    if (in.target >= 0 && in.target < index) return true;
  }
  return false;
}

}  // namespace fxcap

#include "short_repr.h"

#include <Python.h>

#include "interned.h"
#include "tensor_check.h"

namespace fxcap {

namespace {

bool is_tensor(py::handle v) {
  static py::handle& tensor_cls =
      *new py::handle(py::object(py::module_::import("torch").attr(interned("Tensor"))).release());
  return is_tensor_object(v.ptr(), tensor_cls.ptr());
}

// Appends the repr of `v` to `out`; false once `out` passed `limit` (the rest is cut anyway).
bool render(py::handle v, std::string& out, size_t limit) {
  PyObject* o = v.ptr();
  auto items = [&](py::handle seq, const char* open, const char* close, bool one_comma) {
    out += open;
    Py_ssize_t n = 0;
    for (auto item : seq) {
      if (n++) out += ", ";
      if (!render(item, out, limit)) return false;
    }
    if (one_comma && n == 1) out += ",";
    out += close;
    return out.size() <= limit;
  };
  if (PyList_CheckExact(o)) return items(v, "[", "]", false);
  if (PyTuple_CheckExact(o)) return items(v, "(", ")", true);
  if (PySet_CheckExact(o)) {
    if (PySet_GET_SIZE(o) == 0) {
      out += "set()";
      return out.size() <= limit;
    }
    return items(v, "{", "}", false);
  }
  if (PyDict_CheckExact(o)) {
    out += "{";
    PyObject *k, *item;
    Py_ssize_t pos = 0;
    bool first = true;
    while (PyDict_Next(o, &pos, &k, &item)) {
      if (!first) out += ", ";
      first = false;
      if (!render(k, out, limit)) return false;
      out += ": ";
      if (!render(item, out, limit)) return false;
    }
    out += "}";
    return out.size() <= limit;
  }
  if (is_tensor(v)) {
    std::string dtype = py::str(v.attr(interned("dtype")));
    if (dtype.rfind("torch.", 0) == 0) dtype = dtype.substr(6);
    out += "tensor(" + dtype + std::string(py::str(py::list(v.attr(interned("shape"))))) + ")";
    return out.size() <= limit;
  }
  out += std::string(py::repr(v));
  return out.size() <= limit;
}

}  // namespace

std::string short_repr(py::handle value, size_t limit) {
  std::string out;
  render(value, out, limit);
  if (out.size() > limit) out = out.substr(0, limit - 3) + "...";
  return out;
}

}  // namespace fxcap

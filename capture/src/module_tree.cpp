#include "module_tree.h"

#include <Python.h>

#include <unordered_set>

#include "interned.h"

namespace fxcap {

namespace {

// A pre-order walk over `_modules`, as named_modules(remove_duplicate=True)
// makes it: each module once, under the first path that reaches it, None
// entries skipped. False when some module overrides named_modules or keeps its
// children in something other than a dict: its own method must be asked.
bool walk(py::handle module, const std::string& prefix, py::handle base_method,
          std::unordered_set<PyObject*>& seen, std::vector<std::pair<py::object, std::string>>& out) {
  if (!seen.insert(module.ptr()).second) return true;
  py::object method = py::getattr(py::type::of(module), interned("named_modules"), py::none());
  if (!method.is(base_method)) return false;
  out.emplace_back(py::reinterpret_borrow<py::object>(module), prefix);
  PyObject* children = PyObject_GetAttr(module.ptr(), interned("_modules").ptr());
  if (!children) {
    PyErr_Clear();
    return false;
  }
  py::object owned = py::reinterpret_steal<py::object>(children);
  if (!PyDict_CheckExact(children)) return false;
  PyObject *key, *child;
  Py_ssize_t pos = 0;
  while (PyDict_Next(children, &pos, &key, &child)) {
    if (child == Py_None) continue;
    std::string name = py::str(key);
    if (!walk(child, prefix.empty() ? name : prefix + "." + name, base_method, seen, out)) return false;
  }
  return true;
}

}  // namespace

std::vector<std::pair<py::object, std::string>> module_tree(py::handle root) {
  static py::object& base_method =
      *new py::object(py::module_::import("torch.nn").attr(interned("Module")).attr(interned("named_modules")));
  std::vector<std::pair<py::object, std::string>> out;
  std::unordered_set<PyObject*> seen;
  if (walk(root, "", base_method, seen, out)) return out;
  out.clear();
  for (auto item : root.attr(interned("named_modules"))()) {
    auto t = py::reinterpret_borrow<py::tuple>(item);
    out.emplace_back(py::reinterpret_borrow<py::object>(t[1]), std::string(py::str(t[0])));
  }
  return out;
}

}  // namespace fxcap

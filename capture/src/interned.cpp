#include "interned.h"

#include <Python.h>

#include <unordered_map>

namespace fxcap {

py::handle interned(const char* name) {
  // Only ever touched with the GIL held.
  static auto& table = *new std::unordered_map<const char*, PyObject*>();
  auto it = table.find(name);
  if (it != table.end()) return it->second;
  PyObject* s = PyUnicode_InternFromString(name);
  if (!s) throw py::error_already_set();
  table.emplace(name, s);
  return s;
}

}  // namespace fxcap

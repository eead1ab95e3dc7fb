// isinstance(value, torch.Tensor), asked for every value the interpreter
// touches. A real tensor answers by its type; a built-in value (a number, a
// string, a container, None) never is one, so it skips isinstance's metaclass
// hook; anything else asks isinstance itself.
#pragma once

#include <Python.h>

namespace fxcap {

inline bool is_tensor_object(PyObject* o, PyObject* tensor_cls) {
  if (PyObject_TypeCheck(o, reinterpret_cast<PyTypeObject*>(tensor_cls))) return true;
  PyTypeObject* t = Py_TYPE(o);
  if (o == Py_None || t == &PyLong_Type || t == &PyFloat_Type || t == &PyBool_Type || t == &PyUnicode_Type ||
      t == &PyTuple_Type || t == &PyList_Type || t == &PyDict_Type || t == &PySlice_Type)
    return false;
  return PyObject_IsInstance(o, tensor_cls) == 1;
}

}  // namespace fxcap

#include "generator.h"

#include <Python.h>

namespace fxcap {

InterpretedGenerator::InterpretedGenerator(std::shared_ptr<Interpreter> interp, std::unique_ptr<Frame> frame)
    : interp_(std::move(interp)), frame_(std::move(frame)) {}

std::string InterpretedGenerator::name() const { return frame_ ? frame_->code->name : "generator"; }

py::object InterpretedGenerator::next() { return step(py::object()); }

py::object InterpretedGenerator::step(py::object exc) {
  if (finished_) {
    if (exc) {
      PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr());
      throw py::error_already_set();
    }
    PyErr_SetNone(PyExc_StopIteration);
    throw py::error_already_set();
  }
  if (running_) {
    PyErr_SetString(PyExc_ValueError, "generator already executing");
    throw py::error_already_set();
  }
  running_ = true;
  started_ = true;
  struct Reset {
    bool& flag;
    ~Reset() { flag = false; }
  } reset{running_};
  bool yielded = false;
  py::object value;
  try {
    value = interp_->resume(*frame_, yielded, exc);
  } catch (py::error_already_set& e) {
    finished_ = true;
    if (e.matches(PyExc_StopIteration)) {
      // PEP 479: a StopIteration escaping the body becomes RuntimeError.
      py::object cause = e.value();
      PyErr_SetString(PyExc_RuntimeError, "generator raised StopIteration");
      py::error_already_set runtime;
      PyException_SetCause(runtime.value().ptr(), cause.inc_ref().ptr());
      PyException_SetContext(runtime.value().ptr(), cause.inc_ref().ptr());
      throw runtime;
    }
    throw;
  } catch (...) {
    finished_ = true;
    throw;
  }
  if (yielded) return value;
  finished_ = true;
  // The body returned: StopIteration carries the return value, as in CPython.
  PyErr_SetObject(PyExc_StopIteration, value.is_none() ? nullptr : value.ptr());
  throw py::error_already_set();
}

py::object InterpretedGenerator::throw_(py::object exc) {
  if (!started_) {
    // Not started: the exception is raised before the first line, as in CPython.
    finished_ = true;
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr());
    throw py::error_already_set();
  }
  return step(exc);
}

void InterpretedGenerator::close() {
  if (finished_ || !started_) {
    finished_ = true;
    return;
  }
  py::object exit = py::reinterpret_steal<py::object>(PyObject_CallNoArgs(PyExc_GeneratorExit));
  try {
    step(exit);
  } catch (py::error_already_set& e) {
    if (e.matches(PyExc_GeneratorExit) || e.matches(PyExc_StopIteration)) return;
    throw;
  }
  finished_ = true;
  PyErr_SetString(PyExc_RuntimeError, "generator ignored GeneratorExit");
  throw py::error_already_set();
}

void register_generator_type(py::module_& m) {
  py::class_<InterpretedGenerator>(m, "InterpretedGenerator",
                                   "A generator whose body runs in the capture's interpreter.")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &InterpretedGenerator::next)
      .def("send", [](InterpretedGenerator& g, py::object value) {
        if (!value.is_none()) throw py::type_error("fxlint_capture generators accept only send(None)");
        return g.next();
      })
      .def("throw", [](InterpretedGenerator& g, py::object type, py::object value, py::object tb) {
        py::object exc = type;
        if (PyExceptionClass_Check(type.ptr()))
          exc = value.is_none() ? type() : (PyExceptionInstance_Check(value.ptr()) ? value : type(value));
        if (!PyExceptionInstance_Check(exc.ptr())) throw py::type_error("exceptions must derive from BaseException");
        if (!tb.is_none()) PyException_SetTraceback(exc.ptr(), tb.ptr());
        return g.throw_(exc);
      }, py::arg("type"), py::arg("value") = py::none(), py::arg("tb") = py::none())
      .def("close", &InterpretedGenerator::close)
      .def("__repr__", [](const InterpretedGenerator& g) { return "<interpreted generator " + g.name() + ">"; });
}

}  // namespace fxcap

#include "generator.h"

#include <Python.h>

namespace fxcap {

InterpretedGenerator::InterpretedGenerator(std::shared_ptr<Interpreter> interp, std::unique_ptr<Frame> frame)
    : interp_(std::move(interp)), frame_(std::move(frame)) {}

std::string InterpretedGenerator::name() const { return frame_ ? frame_->code->name : "generator"; }

py::object InterpretedGenerator::next() {
  if (finished_) {
    PyErr_SetNone(PyExc_StopIteration);
    throw py::error_already_set();
  }
  if (running_) {
    PyErr_SetString(PyExc_ValueError, "generator already executing");
    throw py::error_already_set();
  }
  running_ = true;
  struct Reset {
    bool& flag;
    ~Reset() { flag = false; }
  } reset{running_};
  bool yielded = false;
  py::object value;
  try {
    value = interp_->resume(*frame_, yielded);
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

void InterpretedGenerator::close() { finished_ = true; }

void register_generator_type(py::module_& m) {
  py::class_<InterpretedGenerator>(m, "InterpretedGenerator",
                                   "A generator whose body runs in the capture's interpreter.")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &InterpretedGenerator::next)
      .def("send", [](InterpretedGenerator& g, py::object value) {
        if (!value.is_none()) throw py::type_error("fxlint_capture generators accept only send(None)");
        return g.next();
      })
      .def("close", &InterpretedGenerator::close)
      .def("__repr__", [](const InterpretedGenerator& g) { return "<interpreted generator " + g.name() + ">"; });
}

}  // namespace fxcap

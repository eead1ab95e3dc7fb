// Generators created by interpreted code stay lazy, as in CPython: each
// next() resumes the suspended interpreter frame up to its next yield.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "interpreter.h"

namespace fxcap {

namespace py = pybind11;

class InterpretedGenerator {
 public:
  InterpretedGenerator(std::shared_ptr<Interpreter> interp, std::unique_ptr<Frame> frame);

  py::object next();  // raises StopIteration when the body returns
  // Raises exc at the suspended yield; returns the next yielded value.
  py::object throw_(py::object exc);
  // Raises GeneratorExit at the suspended yield, so finally blocks and with exits run.
  void close();
  std::string name() const;

 private:
  std::shared_ptr<Interpreter> interp_;  // a generator may outlive the capture that made it
  std::unique_ptr<Frame> frame_;
  py::object step(py::object exc);
  bool running_ = false;
  bool finished_ = false;
  bool started_ = false;
};

// Registers the Python type; must run at module import.
void register_generator_type(py::module_& m);

}  // namespace fxcap

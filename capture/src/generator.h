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
  void close();
  std::string name() const;

 private:
  std::shared_ptr<Interpreter> interp_;  // a generator may outlive the capture that made it
  std::unique_ptr<Frame> frame_;
  bool running_ = false;
  bool finished_ = false;
};

// Registers the Python type; must run at module import.
void register_generator_type(py::module_& m);

}  // namespace fxcap

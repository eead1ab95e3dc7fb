// The extension module: one entry point, capture(fn, args, kwargs), returning
// plain Python data that fxlint_capture wraps into a report (strict mode is a
// verdict on that data, made in Python).
#include <pybind11/pybind11.h>

#include "generator.h"
#include "interpreter.h"

namespace py = pybind11;

namespace {

py::dict capture(py::object fn, py::tuple args, py::dict kwargs) {
  // Shared: generators made during the capture keep their interpreter alive.
  auto interp_ptr = std::make_shared<fxcap::Interpreter>(fxcap::CaptureOptions{});
  fxcap::Interpreter& interp = *interp_ptr;
  py::object result;
  try {
    result = interp.run(fn, args, kwargs);
  } catch (const fxcap::InternalError& e) {
    throw fxcap::InternalError(std::string("fxlint_capture internal error: ") + e.what());
  }
  py::dict out = interp.graphs().finish(result, interp.result_graph_floor());
  py::dict rec = interp.records().to_python();
  for (auto kv : rec) out[kv.first] = kv.second;
  out["result"] = result;
  return out;
}

}  // namespace

PYBIND11_MODULE(_fxlint_capture, m) {
  m.doc() = "Bytecode capture of PyTorch functions into torch.fx graphs (CPython 3.11).";
  py::register_exception<fxcap::InternalError>(m, "InternalError", PyExc_RuntimeError);
  fxcap::register_generator_type(m);
  m.def("capture", &capture, py::arg("fn"), py::arg("args"), py::arg("kwargs"),
        "Runs fn(*args, **kwargs) under the symbolic interpreter; returns graphs, records and the result.");
  m.def("decode", [](py::object code) {
    const auto& dc = fxcap::decode(code);
    py::list out;
    for (const auto& in : dc.instrs) {
      out.append(py::make_tuple(in.offset, in.opname, in.oparg, in.target >= 0 ? dc.instrs[in.target].offset : -1, in.line));
    }
    return out;
  }, "Decoded instructions of a code object: (offset, opname, arg, jump target offset, line).");
}

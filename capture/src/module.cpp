// The extension module: one entry point, capture(fn, args, kwargs, strict),
// returning plain Python data that fxlint_capture wraps into a report.
#include <pybind11/pybind11.h>

#include "interpreter.h"

namespace py = pybind11;

namespace {

py::dict capture(py::object fn, py::tuple args, py::dict kwargs, bool strict) {
  fxcap::CaptureOptions options;
  options.strict = strict;
  fxcap::Interpreter interp(options);
  py::object result;
  try {
    result = interp.run(fn, args, kwargs);
  } catch (const fxcap::InternalError& e) {
    throw fxcap::InternalError(std::string("fxlint_capture internal error: ") + e.what());
  }
  py::dict out = interp.graphs().finish(result);
  py::dict rec = interp.records().to_python();
  for (auto kv : rec) out[kv.first] = kv.second;
  out["result"] = result;
  return out;
}

}  // namespace

PYBIND11_MODULE(_fxlint_capture, m) {
  m.doc() = "Bytecode capture of PyTorch functions into torch.fx graphs (CPython 3.11).";
  py::register_exception<fxcap::InternalError>(m, "InternalError", PyExc_RuntimeError);
  m.def("capture", &capture, py::arg("fn"), py::arg("args"), py::arg("kwargs"), py::arg("strict") = false,
        "Runs fn(*args, **kwargs) under the symbolic interpreter; returns graphs, records and the result.");
  m.def("decode", [](py::object code) {
    const auto& dc = fxcap::decode(code);
    py::list out;
    for (const auto& in : dc.instrs) {
      out.append(py::make_tuple(in.offset, in.opname, in.arg, in.target >= 0 ? dc.instrs[in.target].offset : -1, in.line));
    }
    return out;
  }, "Decoded instructions of a code object: (offset, opname, arg, jump target offset, line).");
}

// The sub-modules of a captured root module with their dotted paths, in the
// order and with the names nn.Module.named_modules() gives.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <utility>
#include <vector>

namespace fxcap {

namespace py = pybind11;

// (module, path) pairs, the root first with path "". Read straight from each
// module's `_modules` dict when every module in the tree uses nn.Module's own
// named_modules; otherwise from named_modules() itself.
std::vector<std::pair<py::object, std::string>> module_tree(py::handle root);

}  // namespace fxcap

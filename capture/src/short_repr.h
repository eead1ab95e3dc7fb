// repr() cut to a length, without rendering what is cut: a guard names the
// value it checks, and printing a module's dict of tensors or a long list in
// full to keep its first line costs milliseconds.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace fxcap {

namespace py = pybind11;

// repr(value), or its first limit - 3 characters and "..." when longer. Lists,
// tuples, dicts and sets are written item by item until the limit; a tensor
// inside one is written as its dtype and shape (its repr prints its data).
std::string short_repr(py::handle value, size_t limit);

}  // namespace fxcap

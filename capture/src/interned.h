// Attribute names as interned Python strings, made once per spelling. A name
// made per call (`obj.attr("forward")`) costs an allocation and misses
// CPython's type attribute cache, which matches names by identity: every
// lookup then walks the class's whole MRO.
#pragma once

#include <pybind11/pybind11.h>

namespace fxcap {

namespace py = pybind11;

// The interned string for `name`, a string literal (its address is the key).
// Borrowed; it lives as long as the process.
py::handle interned(const char* name);

}  // namespace fxcap

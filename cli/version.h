#pragma once
// The version printed by `fxlint --version` and written into SARIF output;
// CMake passes the project version.
#ifndef FXLINT_VERSION
#define FXLINT_VERSION "0.0.0"
#endif

namespace fxlint::cli {
inline constexpr const char* kVersion = FXLINT_VERSION;
}

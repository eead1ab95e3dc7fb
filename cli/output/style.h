#pragma once
// ANSI styling for the human-readable formats; every function returns its
// input unchanged when color is off.
#include <string>
#include <string_view>

#include "core/diagnostic.h"

namespace fxlint::cli {

class Style {
 public:
  explicit Style(bool color) : color_(color) {}

  std::string path(std::string_view s) const { return wrap("1", s); }
  std::string severity(Severity sev, std::string_view s) const {
    return wrap(sev == Severity::Warning ? "1;33" : "1;31", s);
  }
  std::string fixable(std::string_view s) const { return wrap("36", s); }
  std::string gutter(std::string_view s) const { return wrap("34", s); }

 private:
  std::string wrap(const char* code, std::string_view s) const {
    if (!color_) return std::string(s);
    return "\x1b[" + std::string(code) + "m" + std::string(s) + "\x1b[0m";
  }
  bool color_;
};

}  // namespace fxlint::cli

#include "cli/verify_config.h"

#include <cstdlib>
#include <string_view>

namespace fxlint::cli {

namespace {

constexpr std::string_view kDtypes[] = {"float16", "bfloat16", "float32", "float64", "int8",
                                        "int16",   "int32",    "int64",   "uint8",   "bool",
                                        "complex64"};

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

bool is_number(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

}  // namespace

bool is_valid_input_spec(const std::string& spec, std::string* why) {
  auto reject = [&](std::string message) {
    if (why) *why = std::move(message);
    return false;
  };
  std::string_view s = spec;
  size_t colon = s.find(':');
  if (colon != std::string_view::npos) {
    std::string_view kind = s.substr(0, colon);
    std::string value(s.substr(colon + 1));
    std::string_view v = value;
    if (kind == "int" && all_digits(v.starts_with('-') ? v.substr(1) : v)) return true;
    if (kind == "float" && is_number(value)) return true;
    if (kind == "bool" && (v == "true" || v == "false")) return true;
    return reject("a Python value is `int:<integer>`, `float:<number>` or `bool:true|false`");
  }
  size_t open = s.find('[');
  std::string_view expected =
      "a tensor is `<dtype>[<dims>]` like `float32[2,3]` (dtypes: float16, bfloat16, float32, "
      "float64, int8, int16, int32, int64, uint8, bool, complex64)";
  if (open == std::string_view::npos || !s.ends_with(']')) return reject(std::string(expected));
  std::string_view dtype = s.substr(0, open);
  bool known = false;
  for (std::string_view d : kDtypes) known = known || d == dtype;
  if (!known) return reject(std::string(expected));
  std::string_view dims = s.substr(open + 1, s.size() - open - 2);
  while (!dims.empty()) {
    size_t comma = dims.find(',');
    std::string_view dim = dims.substr(0, comma);
    while (dim.starts_with(' ')) dim.remove_prefix(1);
    while (dim.ends_with(' ')) dim.remove_suffix(1);
    if (!all_digits(dim)) return reject(std::string(expected));
    if (comma == std::string_view::npos) break;
    dims.remove_prefix(comma + 1);
    if (dims.empty()) return reject(std::string(expected));
  }
  return true;
}

}  // namespace fxlint::cli

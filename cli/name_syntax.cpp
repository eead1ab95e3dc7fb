#include "cli/name_syntax.h"

namespace fxlint::cli {

namespace {
bool is_ident_start(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
}  // namespace

bool is_dotted_name(std::string_view s) {
  bool at_start = true;
  for (char c : s) {
    if (at_start) {
      if (!is_ident_start(c)) return false;
      at_start = false;
    } else if (c == '.') {
      at_start = true;
    } else if (!is_ident_char(c)) {
      return false;
    }
  }
  return !at_start;
}

bool is_entry_point(std::string_view s) {
  size_t colon = s.find(':');
  if (colon == std::string_view::npos) return false;
  return is_dotted_name(s.substr(0, colon)) && is_dotted_name(s.substr(colon + 1));
}

}  // namespace fxlint::cli

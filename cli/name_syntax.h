#pragma once
// Syntax checks for the dotted Python names that config values hold.
#include <string_view>

namespace fxlint::cli {

// "name" or "a.b.c", each part a Python identifier (ASCII).
bool is_dotted_name(std::string_view s);
// "package.module:Qualified.name".
bool is_entry_point(std::string_view s);

}  // namespace fxlint::cli

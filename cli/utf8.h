#pragma once
// UTF-8 validation for source files: Python rejects a file that is not valid UTF-8.
#include <cstddef>
#include <optional>
#include <string_view>

namespace fxlint::cli {

// Byte offset of the first invalid sequence (overlong forms and surrogates
// included), or nullopt when `text` is valid UTF-8.
std::optional<size_t> first_invalid_utf8(std::string_view text);

}  // namespace fxlint::cli

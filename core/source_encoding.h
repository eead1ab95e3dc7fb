#pragma once
// Source text encoding: Python source is UTF-8 unless a PEP 263 cookie says
// otherwise; fxlint reads UTF-8 only, and says so precisely when a file is not.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace fxlint {

// Byte offset of the first invalid sequence (overlong forms and surrogates
// included), or nullopt when `text` is valid UTF-8.
std::optional<size_t> first_invalid_utf8(std::string_view text);

// The encoding a `# -*- coding: NAME -*-` cookie on line 1 or 2 declares; "" when none.
std::string_view declared_encoding(std::string_view text);

// "file is not valid UTF-8", naming the declared encoding when there is one.
std::string not_utf8_message(std::string_view text);

}  // namespace fxlint

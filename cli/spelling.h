#pragma once
// "Did you mean" for misspelled options, config keys and values.
#include <span>
#include <string_view>

namespace fxlint::cli {

// The candidate at most two edits away from `typed` (the nearest, the first on
// ties); empty when none is that close.
std::string_view closest_spelling(std::string_view typed, std::span<const std::string_view> candidates);

}  // namespace fxlint::cli

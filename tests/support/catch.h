// Catch2 v2 (Debian 12) or v3 (Debian 13), one spelling for the tests.
#pragma once

#if __has_include(<catch2/catch_all.hpp>)
#include <catch2/catch_all.hpp>

#include <string>

namespace Catch {
inline Matchers::StringContainsMatcher Contains(const std::string& s) { return Matchers::ContainsSubstring(s); }
using Matchers::StartsWith;
}  // namespace Catch
#else
#include <catch2/catch.hpp>
#endif

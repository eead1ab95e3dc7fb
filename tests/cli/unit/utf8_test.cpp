#include <catch2/catch.hpp>

#include "cli/utf8.h"

using fxlint::cli::first_invalid_utf8;

TEST_CASE("valid UTF-8 passes, the first bad byte is located") {
  CHECK_FALSE(first_invalid_utf8("x = 'é ✓ 😀'\n"));
  CHECK_FALSE(first_invalid_utf8(""));
  CHECK(first_invalid_utf8("ab\xff") == 2u);
  CHECK(first_invalid_utf8("a\xc3") == 1u);           // truncated
  CHECK(first_invalid_utf8("\xc0\xaf") == 0u);        // overlong
  CHECK(first_invalid_utf8("x\xed\xa0\x80") == 1u);   // surrogate
  CHECK(first_invalid_utf8("\xf4\x90\x80\x80") == 0u);  // above U+10FFFF
}

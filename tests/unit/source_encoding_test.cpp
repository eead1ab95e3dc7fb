#include "tests/support/catch.h"

#include "core/source_encoding.h"

using namespace fxlint;

TEST_CASE("valid UTF-8 passes, the first bad byte is located") {
  CHECK_FALSE(first_invalid_utf8("x = 'é ✓ 😀'\n"));
  CHECK_FALSE(first_invalid_utf8(""));
  CHECK(first_invalid_utf8("ab\xff") == 2u);
  CHECK(first_invalid_utf8("a\xc3") == 1u);           // truncated
  CHECK(first_invalid_utf8("\xc0\xaf") == 0u);        // overlong
  CHECK(first_invalid_utf8("x\xed\xa0\x80") == 1u);   // surrogate
  CHECK(first_invalid_utf8("\xf4\x90\x80\x80") == 0u);  // above U+10FFFF
}

TEST_CASE("a coding cookie on line 1 or 2 is named when the file is not UTF-8") {
  CHECK(declared_encoding("# -*- coding: latin-1 -*-\nx = 1\n") == "latin-1");
  CHECK(declared_encoding("#!/usr/bin/env python\n# vim: set fileencoding=koi8-r :\n") == "koi8-r");
  CHECK(declared_encoding("x = 1\n\n# coding: latin-1\n").empty());  // line 3 is too late
  CHECK(declared_encoding("x = 1  # coding: latin-1\n").empty());      // not a comment line
  CHECK(not_utf8_message("# encoding: iso-8859-1\nx = '\xe9'\n") ==
        "file is not valid UTF-8 (it declares `iso-8859-1`; fxlint reads UTF-8 only)");
  CHECK(not_utf8_message("x = '\xe9'\n") == "file is not valid UTF-8");
}

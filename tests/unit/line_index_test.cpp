#include "tests/support/catch.h"

#include "core/line_index.h"

using fxlint::LineIndex;

TEST_CASE("line index maps offsets to rows and character columns") {
  std::string text = "ab\nc\xC3\xA9x\n\nlast";
  LineIndex idx(text);
  CHECK(idx.line_count() == 4);
  CHECK(idx.location(0).row == 1);
  CHECK(idx.location(4).column == 2);  // after 'c'
  CHECK(idx.location(6).column == 3);  // 'é' is one character of two bytes
  CHECK(idx.location(static_cast<uint32_t>(text.size())).row == 4);
  CHECK(idx.line_text(1) == "c\xC3\xA9x");
}

TEST_CASE("line index counts UTF-16 units for astral characters") {
  std::string text = "\xF0\x9F\x98\x80x";  // U+1F600 then 'x'
  LineIndex idx(text);
  CHECK(idx.utf16_column(4) == 2);
  CHECK(idx.offset_of_utf16(0, 2) == 4);
}

TEST_CASE("CRLF and lone CR end lines") {
  LineIndex idx("a\r\nb\rc");
  CHECK(idx.line_count() == 3);
  CHECK(idx.line_text(0) == "a");
  CHECK(idx.location(3).row == 2);
}

#include "tests/support/catch.h"

#include "rewriter/text_style.h"

using namespace fxlint;

TEST_CASE("line endings are detected from the first line break", "[text]") {
  CHECK(detect_line_ending("a\r\nb\n") == LineEnding::CrLf);
  CHECK(detect_line_ending("a\nb\r\n") == LineEnding::Lf);
  CHECK(detect_line_ending("no break") == LineEnding::Lf);
  CHECK(detect_line_ending("a\rb\r") == LineEnding::Cr);
  CHECK(detect_line_ending("a\r") == LineEnding::Cr);
}

TEST_CASE("edit content is converted to lone CRs in a file that ends lines so", "[text]") {
  CHECK(convert_line_endings("a\nb\nc", LineEnding::Cr) == "a\rb\rc");
}

TEST_CASE("edit content is converted to CRLF without doubling existing CRs", "[text]") {
  CHECK(convert_line_endings("a\nb\r\nc\n", LineEnding::CrLf) == "a\r\nb\r\nc\r\n");
  CHECK(convert_line_endings("a\nb\n", LineEnding::Lf) == "a\nb\n");
}

TEST_CASE("a UTF-8 BOM is split off and restored byte for byte", "[text]") {
  std::string bytes = "\xEF\xBB\xBFx = 1  # caf\xC3\xA9 \xFF\n";
  EncodedText t = EncodedText::decode(bytes);
  CHECK(t.bom);
  CHECK(t.text == "x = 1  # caf\xC3\xA9 \xFF\n");
  CHECK(t.encode() == bytes);
  EncodedText plain = EncodedText::decode("y = 2\n");
  CHECK_FALSE(plain.bom);
  CHECK(plain.encode() == "y = 2\n");
}

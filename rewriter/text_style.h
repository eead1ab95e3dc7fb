#pragma once
// How a file spells its bytes beyond the code: a UTF-8 byte-order mark and its
// line endings. Fixes are written with `\n`; the rewriter converts them to the
// file's own ending so a CRLF (or CR) file keeps its endings. Other bytes are never touched.
#include <string>
#include <string_view>

namespace fxlint {

enum class LineEnding { Lf, CrLf, Cr };  // Cr: a lone `\r`, as old Mac files end lines

inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// The ending of the first line break; Lf when the text has none.
LineEnding detect_line_ending(std::string_view text);

inline const char* line_ending_text(LineEnding e) {
  return e == LineEnding::CrLf ? "\r\n" : e == LineEnding::Cr ? "\r" : "\n";
}

// `content` with every bare `\n` spelled as `ending` (existing `\r\n` kept).
std::string convert_line_endings(std::string_view content, LineEnding ending);

// A file's bytes split into the optional BOM and the text that is linted and
// fixed (offsets in diagnostics refer to `text`, never to the BOM).
struct EncodedText {
  bool bom = false;
  std::string text;

  static EncodedText decode(std::string bytes);
  std::string encode() const { return bom ? std::string(kUtf8Bom) + text : text; }
};

}  // namespace fxlint

#include "rewriter/text_style.h"

namespace fxlint {

LineEnding detect_line_ending(std::string_view text) {
  size_t br = text.find_first_of("\r\n");
  if (br == std::string_view::npos || text[br] == '\n') return LineEnding::Lf;
  return br + 1 < text.size() && text[br + 1] == '\n' ? LineEnding::CrLf : LineEnding::Cr;
}

std::string convert_line_endings(std::string_view content, LineEnding ending) {
  if (ending == LineEnding::Lf) return std::string(content);
  std::string out;
  out.reserve(content.size() + content.size() / 16);
  for (size_t i = 0; i < content.size(); ++i) {
    bool bare = content[i] == '\n' && (i == 0 || content[i - 1] != '\r');
    if (bare && ending == LineEnding::Cr) {
      out += '\r';
      continue;
    }
    if (bare) out += '\r';
    out += content[i];
  }
  return out;
}

EncodedText EncodedText::decode(std::string bytes) {
  EncodedText t;
  if (std::string_view(bytes).starts_with(kUtf8Bom)) {
    t.bom = true;
    bytes.erase(0, kUtf8Bom.size());
  }
  t.text = std::move(bytes);
  return t;
}

}  // namespace fxlint

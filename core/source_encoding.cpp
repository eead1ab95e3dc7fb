#include "core/source_encoding.h"

#include <cctype>

namespace fxlint {

std::optional<size_t> first_invalid_utf8(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;  // overlong
      if (c == 0xED) hi = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;  // overlong
      if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
    } else {
      return i;
    }
    if (i + len > n) return i;
    if (s[i + 1] < lo || s[i + 1] > hi) return i;
    for (size_t k = 2; k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return i;
    }
    i += len;
  }
  return std::nullopt;
}

std::string_view declared_encoding(std::string_view text) {
  for (int line = 0; line < 2 && !text.empty(); ++line) {
    size_t end = text.find('\n');
    std::string_view l = text.substr(0, end);
    size_t hash = l.find('#');
    if (hash != std::string_view::npos && l.find_first_not_of(" \t\f") == hash) {
      size_t at = l.find("coding", hash);
      if (at != std::string_view::npos && at + 6 < l.size() && (l[at + 6] == ':' || l[at + 6] == '=')) {
        size_t start = l.find_first_not_of(" \t", at + 7);
        size_t stop = start;
        while (stop < l.size() && (std::isalnum(static_cast<unsigned char>(l[stop])) || l[stop] == '-' ||
                                   l[stop] == '_' || l[stop] == '.')) {
          ++stop;
        }
        if (start != std::string_view::npos && stop > start) return l.substr(start, stop - start);
      }
    }
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return {};
}

std::string not_utf8_message(std::string_view text) {
  std::string message = "file is not valid UTF-8";
  if (std::string_view encoding = declared_encoding(text); !encoding.empty()) {
    message += " (it declares `" + std::string(encoding) + "`; fxlint reads UTF-8 only)";
  }
  return message;
}

}  // namespace fxlint

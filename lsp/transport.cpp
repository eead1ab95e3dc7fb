#include "lsp/transport.h"

#include <charconv>
#include <istream>
#include <ostream>

namespace fxlint::lsp {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] + 32) : a[i];
    char y = b[i] >= 'A' && b[i] <= 'Z' ? static_cast<char>(b[i] + 32) : b[i];
    if (x != y) return false;
  }
  return true;
}

size_t find_content_length(std::string_view line) {
  constexpr std::string_view kName = "content-length";
  for (size_t i = 0; i + kName.size() <= line.size(); ++i) {
    if (iequals(line.substr(i, kName.size()), kName)) return i;
  }
  return std::string_view::npos;
}

}  // namespace

ReadResult Transport::read() {
  std::optional<size_t> length;
  std::string error;
  std::string line;
  bool any_header = false;
  while (true) {
    if (!std::getline(in_, line)) return {};
    std::string_view header = trim(line);
    // After a bad header block the unframed body runs into the next header on
    // one line ("{...}Content-Length: 52"): start at the header name.
    if (size_t at = find_content_length(header); at != std::string_view::npos && at > 0) {
      header.remove_prefix(at);
    }
    if (header.empty()) {
      if (!any_header) continue;  // stray blank lines between messages are harmless
      break;
    }
    any_header = true;
    size_t colon = header.find(':');
    if (colon == std::string_view::npos) {
      if (error.empty()) error = "header line without ':': " + std::string(header.substr(0, 80));
      continue;
    }
    std::string_view name = trim(header.substr(0, colon));
    std::string_view value = trim(header.substr(colon + 1));
    if (!iequals(name, "Content-Length")) continue;  // Content-Type and others are ignored
    size_t n = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || end != value.data() + value.size()) {
      if (error.empty()) error = "Content-Length is not a number: " + std::string(value.substr(0, 40));
    } else if (n > kMaxMessageBytes) {
      if (error.empty()) error = "Content-Length " + std::string(value) + " exceeds the limit";
    } else {
      length = n;
    }
  }
  if (!error.empty() || !length) {
    // Without a trustworthy length the body cannot be skipped exactly; resync on
    // the next header block (a body line that is not a header is reported then).
    return {ReadResult::Kind::BadHeader, "", error.empty() ? "missing Content-Length header" : error};
  }
  ReadResult result{ReadResult::Kind::Message, std::string(*length, '\0'), ""};
  in_.read(result.body.data(), static_cast<std::streamsize>(*length));
  if (static_cast<size_t>(in_.gcount()) != *length) return {};
  return result;
}

void Transport::write(std::string_view body) {
  if (closed_) return;
  out_ << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  out_.flush();
  if (!out_) closed_ = true;
}

}  // namespace fxlint::lsp

// The default format: a header per diagnostic, the source line with the span
// underlined, the fix title, and (with --show-fixes) the lines the fix changes.
//
//   model.py:5:16: FX101 `.item()` turns a tensor into a Python number
//     |
//   5 |         return x.item()
//     |                ^^^^^^^^ FX101 error
//     |
//     = help: Replace `.item()` with ...
#include <algorithm>
#include <ostream>
#include <string>

#include "cli/output/diagnostic_header.h"
#include "cli/output/output_format.h"
#include "cli/output/position.h"
#include "cli/output/style.h"

namespace fxlint::cli {

namespace {

constexpr int kTabWidth = 4;

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Display width of text[from, to) on one line: tabs count kTabWidth, other characters 1.
size_t width(std::string_view text) {
  size_t w = 0;
  for (char c : text) {
    if (c == '\t') {
      w += kTabWidth;
    } else if (!is_continuation(c)) {
      ++w;
    }
  }
  return w;
}

// The line as shown: tabs expanded, and other control characters (NUL, ESC,
// DEL) drawn as their Unicode control pictures, one column each, so they
// neither reach the terminal nor shift the carets.
std::string expand_tabs(std::string_view line) {
  std::string out;
  for (char c : line) {
    auto u = static_cast<unsigned char>(c);
    if (c == '\t') {
      out.append(kTabWidth, ' ');
    } else if (u < 0x20 || u == 0x7F) {
      unsigned picture = u == 0x7F ? 0x2421 : 0x2400 + u;  // U+2400..U+241F, U+2421
      out += static_cast<char>(0xE0 | (picture >> 12));
      out += static_cast<char>(0x80 | ((picture >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (picture & 0x3F));
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<std::string_view> split_lines(std::string_view s) {
  std::vector<std::string_view> out;
  size_t pos = 0;
  while (true) {
    size_t nl = s.find('\n', pos);
    if (nl == std::string_view::npos) {
      out.push_back(s.substr(pos));
      break;
    }
    out.push_back(s.substr(pos, nl - pos));
    pos = nl + 1;
  }
  if (out.size() > 1 && out.back().empty()) out.pop_back();
  return out;
}

// Very long lines (minified or generated code) are cut to a window around the span.
constexpr uint32_t kMaxShown = 400;
constexpr uint32_t kContext = 60;

// Moves `offset` back to the start of a UTF-8 character.
uint32_t char_start(std::string_view s, uint32_t offset) {
  while (offset > 0 && offset < s.size() && is_continuation(s[offset])) --offset;
  return offset;
}

void write_snippet(const LineIndex& lines, const Diagnostic& d, const Style& style, std::ostream& out) {
  uint32_t line = lines.line_of(d.range.start);
  std::string number = std::to_string(line + 1);
  std::string gutter(number.size() + 1, ' ');
  std::string_view source = lines.line_text(line);
  uint32_t line_start = lines.line_start(line);
  uint32_t from = std::min<uint32_t>(d.range.start - line_start, static_cast<uint32_t>(source.size()));
  uint32_t to = std::min<uint32_t>(d.range.end > line_start ? d.range.end - line_start : 0,
                                   static_cast<uint32_t>(source.size()));
  if (to < from) to = from;
  std::string prefix;
  std::string suffix;
  if (source.size() > kMaxShown) {
    uint32_t begin = char_start(source, from > kContext ? from - kContext : 0);
    uint32_t end = std::min<uint32_t>(static_cast<uint32_t>(source.size()),
                                      std::min(to, from + kMaxShown) + kContext);
    end = char_start(source, end);
    if (begin > 0) prefix = "...";
    if (end < source.size()) suffix = "...";
    to = std::min(to, end);
    source = source.substr(begin, end - begin);
    from -= begin;
    to -= begin;
  }
  size_t indent = prefix.size() + width(source.substr(0, from));
  size_t carets = std::max<size_t>(1, width(source.substr(from, to - from)));
  std::string bar = style.gutter(gutter + "|");
  out << bar << '\n';
  out << style.gutter(number + " |") << ' ' << prefix << expand_tabs(source) << suffix << '\n';
  out << bar << ' ' << std::string(indent, ' ')
      << style.severity(d.severity, std::string(carets, '^') + " " + d.code + " " + severity_name(d.severity))
      << '\n';
  out << bar << '\n';
}

// The lines a fix touches, before and after.
void write_fix_lines(const FileResult& f, const LineIndex& lines, const Fix& fix, std::ostream& out) {
  TextRange span = fix.span();
  uint32_t first = lines.line_of(span.start);
  uint32_t last = lines.line_of(span.end);
  if (span.end > span.start && span.end == lines.line_start(last) && last > first) --last;
  uint32_t begin = lines.line_start(first);
  uint32_t end = std::max(lines.line_end(last), span.end);
  end = std::min<uint32_t>(end, static_cast<uint32_t>(f.text.size()));
  std::string before = f.text.substr(begin, end - begin);
  std::string after;
  uint32_t cursor = begin;
  for (const Edit& e : fix.edits) {
    if (e.range.start < cursor || e.range.end > end) return;  // overlapping edits: nothing to show
    after.append(f.text, cursor, e.range.start - cursor);
    after += e.content;
    cursor = e.range.end;
  }
  after.append(f.text, cursor, end - cursor);
  out << "  = fix (" << applicability_name(fix.applicability) << "):\n";
  for (std::string_view l : split_lines(before)) out << "    - " << expand_tabs(l) << '\n';
  for (std::string_view l : split_lines(after)) out << "    + " << expand_tabs(l) << '\n';
}

}  // namespace

void write_full(std::span<const FileResult> files, const OutputOptions& options, std::ostream& out) {
  Style style(options.color);
  for (const FileResult& f : files) {
    if (f.diagnostics.empty()) continue;  // spare indexing the lines of a clean file
    LineIndex lines(f.text);
    for (const Diagnostic& d : f.diagnostics) {
      write_diagnostic_header(f, lines, d, style, out);
      if (!f.text.empty()) write_snippet(lines, d, style, out);
      if (d.fix && !d.fix->title.empty()) out << "  = help: " << d.fix->title << '\n';
      if (options.show_fixes && d.fix && !d.fix->edits.empty()) write_fix_lines(f, lines, *d.fix, out);
      out << '\n';
    }
  }
}

}  // namespace fxlint::cli

#include "rewriter/indent_template.h"

#include <cctype>

namespace fxlint {

namespace {

std::string_view leading_whitespace(std::string_view line) {
  size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t')) ++n;
  return line.substr(0, n);
}

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t\r\n\f") == std::string_view::npos;
}

// Splits keeping each line's terminator.
template <typename Fn>
void for_each_line(std::string_view text, Fn&& fn) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    fn(text.substr(pos, end - pos));
    pos = end;
  }
}

std::string_view without_newline(std::string_view line) {
  if (line.ends_with('\n')) line.remove_suffix(1);
  if (line.ends_with('\r')) line.remove_suffix(1);
  return line;
}

}  // namespace

IndentStyle detect_indent_style(std::string_view text) {
  std::map<unsigned, int> steps;
  bool after_header = false;
  size_t header_indent = 0;
  bool saw_tab_block = false;
  for_each_line(text, [&](std::string_view raw) {
    std::string_view line = without_newline(raw);
    if (is_blank(line) || line.substr(leading_whitespace(line).size()).starts_with('#')) return;
    std::string_view ws = leading_whitespace(line);
    if (after_header) {
      if (!ws.empty() && ws[0] == '\t') saw_tab_block = true;
      if (ws.size() > header_indent && ws.find('\t') == std::string_view::npos) {
        ++steps[static_cast<unsigned>(ws.size() - header_indent)];
      }
    }
    size_t code_end = line.find('#');  // good enough: a `#` in a string only hides a header
    std::string_view code = line.substr(0, code_end);
    while (!code.empty() && std::isspace(static_cast<unsigned char>(code.back()))) {
      code.remove_suffix(1);
    }
    after_header = code.ends_with(':');
    header_indent = ws.size();
  });
  if (saw_tab_block) return {true, 4};
  IndentStyle style;
  int best = 0;
  for (auto [step, count] : steps) {
    if (count > best) {
      best = count;
      style.width = step;
    }
  }
  return style;
}

std::string_view indent_at(std::string_view text, uint32_t offset) {
  size_t start = offset > text.size() ? text.size() : offset;
  while (start > 0 && text[start - 1] != '\n') --start;
  return leading_whitespace(text.substr(start));
}

std::optional<std::string> rebase_indent(std::string_view text, std::string_view from,
                                         std::string_view to) {
  bool multi_line = text.find('\n') != std::string_view::npos &&
                    text.find('\n') + 1 < text.size();
  if (from == to || !multi_line) return std::string(text);
  if (text.find("\"\"\"") != std::string_view::npos || text.find("'''") != std::string_view::npos) {
    return std::nullopt;
  }
  std::string out;
  bool first = true;
  for_each_line(text, [&](std::string_view line) {
    if (first) {
      out += line;
      first = false;
      return;
    }
    if (is_blank(line)) {
      size_t nl = line.find_first_of("\r\n");
      out += nl == std::string_view::npos ? std::string_view() : line.substr(nl);
    } else if (line.starts_with(from)) {
      out += to;
      out += line.substr(from.size());
    } else {
      out += line;  // a continuation line inside brackets: its indentation is free
    }
  });
  return out;
}

std::optional<std::string> render_template(std::string_view pattern,
                                           const std::map<std::string, Capture>& captures,
                                           std::string_view base, IndentStyle style) {
  std::string out;
  bool first = true;
  bool failed = false;
  for_each_line(pattern, [&](std::string_view raw) {
    if (failed) return;
    bool has_newline = raw.ends_with('\n');
    std::string_view line = without_newline(raw);
    if (is_blank(line)) {
      if (has_newline) out += '\n';
      first = false;
      return;
    }
    size_t spaces = leading_whitespace(line).size();
    std::string prefix = first ? std::string() : std::string(base);
    for (size_t level = 0; level < spaces / 4; ++level) prefix += style.unit();
    prefix.append(spaces % 4, ' ');
    std::string line_indent = first ? std::string(base) + prefix : prefix;
    out += prefix;

    std::string_view body = line.substr(spaces);
    for (size_t i = 0; i < body.size();) {
      if (body[i] == '$' && i + 1 < body.size() &&
          (std::isalpha(static_cast<unsigned char>(body[i + 1])) || body[i + 1] == '_')) {
        size_t j = i + 1;
        while (j < body.size() &&
               (std::isalnum(static_cast<unsigned char>(body[j])) || body[j] == '_')) {
          ++j;
        }
        auto it = captures.find(std::string(body.substr(i + 1, j - i - 1)));
        if (it == captures.end()) {
          failed = true;
          return;
        }
        std::optional<std::string> moved =
            rebase_indent(it->second.text, it->second.indent, line_indent);
        if (!moved) {
          failed = true;
          return;
        }
        out += *moved;
        i = j;
      } else {
        out += body[i++];
      }
    }
    if (has_newline) out += '\n';
    first = false;
  });
  if (failed) return std::nullopt;
  return out;
}

}  // namespace fxlint

#include "analyzer/python_syntax.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace fxlint {

namespace {

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Up to 20 bytes of `text` from `at`, on one line, with control characters
// escaped, so a message never carries raw NULs or line breaks.
std::string snippet(std::string_view text) {
  std::string out;
  size_t end = std::min<size_t>(text.size(), 20);
  while (end < text.size() && end > 0 && is_continuation(text[end])) --end;
  for (size_t i = 0; i < end; ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n' || c == '\r') break;
    if (c < 0x20 && c != '\t') {
      static const char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// String prefixes CPython accepts, lowercased (t-strings are 3.14's).
bool valid_string_prefix(std::string_view p) {
  static constexpr std::string_view kValid[] = {"", "r", "u", "b", "f", "t", "br", "rb", "fr", "rf", "tr", "rt"};
  return std::find(std::begin(kValid), std::end(kValid), p) != std::end(kValid);
}

void check_string_start(Node n, std::string_view src, std::vector<SyntaxProblem>& out) {
  std::string_view t = n.text(src);
  size_t quote = t.find_first_of("'\"`");
  if (quote == std::string_view::npos) return;
  if (t[quote] == '`') {
    out.push_back({n.range(), "syntax error: invalid syntax (backquotes are Python 2; use repr())"});
  } else if (!valid_string_prefix(lower(t.substr(0, quote)))) {
    out.push_back({n.range(), "syntax error: invalid string prefix `" + std::string(t.substr(0, quote)) + "`"});
  }
}

void check_integer(Node n, std::string_view src, std::vector<SyntaxProblem>& out) {
  std::string t = lower(n.text(src));
  if (t.ends_with('j')) return;  // imaginary literals may have leading zeros
  if (t.ends_with('l')) {
    out.push_back({n.range(), "syntax error: invalid decimal literal (the `L` suffix is Python 2)"});
    return;
  }
  if (t.size() > 1 && t[0] == '0' && std::isdigit(static_cast<unsigned char>(t[1])) &&
      t.find_first_of("123456789") != std::string::npos) {
    out.push_back({n.range(),
                   "syntax error: leading zeros in decimal integer literals are not permitted; use an 0o "
                   "prefix for octal integers"});
  }
}

// When the grammar failed, a line scan finds the first line nested `limit`
// levels deep: tree-sitter's scanner gives up on deep indentation with an
// error at the start of the file, which would name the wrong place.
std::optional<TextRange> first_line_at_level(std::string_view src, size_t limit) {
  std::vector<size_t> indents = {0};
  int brackets = 0;
  char quote = 0;
  bool triple = false;
  size_t i = 0;
  bool line_start = true;
  while (i < src.size()) {
    if (line_start && brackets == 0 && quote == 0) {
      size_t col = 0, j = i;
      for (; j < src.size() && (src[j] == ' ' || src[j] == '\t' || src[j] == '\f'); ++j) {
        col = src[j] == '\t' ? (col / 8 + 1) * 8 : src[j] == '\f' ? 0 : col + 1;
      }
      bool blank = j >= src.size() || src[j] == '\n' || src[j] == '\r' || src[j] == '#' || src[j] == '\\';
      if (!blank) {
        if (col > indents.back()) {
          indents.push_back(col);
          if (indents.size() - 1 >= limit) {
            size_t e = src.find_first_of("\r\n", j);
            return TextRange{static_cast<uint32_t>(j),
                             static_cast<uint32_t>(e == std::string_view::npos ? src.size() : e)};
          }
        } else {
          while (indents.size() > 1 && col < indents.back()) indents.pop_back();
        }
      }
      i = j;
      line_start = false;
      continue;
    }
    char c = src[i];
    if (quote) {
      if (c == '\\') {
        i += 2;
        continue;
      }
      if (c == quote && (!triple || src.substr(i, 3) == std::string(3, quote))) {
        i += triple ? 3 : 1;
        quote = 0;
        continue;
      }
      if ((c == '\n' || c == '\r') && !triple) quote = 0;  // unterminated: the grammar reports it
    } else if (c == '#') {
      while (i < src.size() && src[i] != '\n' && src[i] != '\r') ++i;
      continue;
    } else if (c == '\'' || c == '"') {
      quote = c;
      triple = src.substr(i, 3) == std::string(3, c);
      i += triple ? 3 : 1;
      continue;
    } else if (c == '(' || c == '[' || c == '{') {
      ++brackets;
    } else if ((c == ')' || c == ']' || c == '}') && brackets > 0) {
      --brackets;
    } else if (c == '\\' && i + 1 < src.size() && (src[i + 1] == '\n' || src[i + 1] == '\r')) {
      i += (src[i + 1] == '\r' && i + 2 < src.size() && src[i + 2] == '\n') ? 3 : 2;
      continue;  // a continued line keeps its logical line
    }
    if (c == '\n' || c == '\r') line_start = !quote || !triple;
    ++i;
  }
  return std::nullopt;
}

std::string unexpected_message(Node err, std::string_view src) {
  if (err.is_missing()) return "syntax error: expected `" + std::string(err.type()) + "`";
  return "syntax error: unexpected `" + snippet(err.text(src)) + "`";
}

}  // namespace

std::vector<SyntaxProblem> python3_violations(const SyntaxTree& tree) {
  std::vector<SyntaxProblem> out;
  std::string_view src = tree.text();
  if (size_t nul = src.find('\0'); nul != std::string_view::npos) {
    auto at = static_cast<uint32_t>(nul);
    out.push_back({{at, at + 1}, "syntax error: source code cannot contain null bytes", true});
  }
  if (tree.has_error()) {
    if (auto line = first_line_at_level(src, kMaxIndentLevels)) {
      out.push_back({*line, "indentation error: too many levels of indentation", true});
    } else if (auto deep = first_line_at_level(src, kMaxParsedIndentLevels)) {
      out.push_back({*deep, "indentation error: nested too deep to analyze (fxlint's parser reads at most " +
                                std::to_string(kMaxParsedIndentLevels - 1) + " indentation levels)",
                      true});
    }
  }
  // A tree without errors holds fewer than kMaxParsedIndentLevels levels (the
  // grammar fails from there), so CPython's limit cannot be reached in it.
  for_each_descendant(tree.root(), [&](Node n) {
    switch (n.kind()) {
      case NodeKind::PrintStatement:
        // `print >> f, x` is a valid Python 3 expression (a shift in a tuple).
        if (Node first = n.named_child(0); first && std::string_view(first.type()) == "chevron") return false;
        out.push_back({n.range(), "syntax error: missing parentheses in call to 'print'; did you mean print(...)?"});
        return false;
      case NodeKind::ExecStatement:
        out.push_back({n.range(), "syntax error: missing parentheses in call to 'exec'; did you mean exec(...)?"});
        return false;
      case NodeKind::Integer:
        check_integer(n, src, out);
        return false;
      case NodeKind::RaiseStatement:
        for (Node c : NamedChildren(n)) {
          if (c.is(NodeKind::ExpressionList)) {
            out.push_back({c.range(), "syntax error: invalid syntax (`raise E, V` is Python 2; use raise E(V))"});
          }
        }
        return true;
      case NodeKind::ComparisonOperator:
        for_each_child(n, [&](Node c) {
          if (!c.is_named() && c.text(src) == "<>") {
            out.push_back({c.range(), "syntax error: invalid syntax (`<>` is Python 2; use !=)"});
          }
        });
        return true;
      case NodeKind::String:
        if (Node start = n.child(0); start && std::string_view(start.type()) == "string_start") {
          check_string_start(start, src, out);
        }
        return true;  // f-string replacement fields hold expressions
      default:
        return true;
    }
  });
  std::stable_sort(out.begin(), out.end(),
                   [](const SyntaxProblem& a, const SyntaxProblem& b) { return a.range.start < b.range.start; });
  return out;
}

std::optional<SyntaxProblem> first_syntax_problem(const SyntaxTree& tree) {
  std::vector<SyntaxProblem> found = python3_violations(tree);
  // Null bytes and indentation overflow explain whatever the grammar made of
  // the text, so they come before its errors.
  for (const SyntaxProblem& p : found) {
    if (p.explains_the_rest) return p;
  }
  Node err = tree.first_error();
  if (err && (found.empty() || err.start() <= found.front().range.start)) {
    return SyntaxProblem{err.range(), unexpected_message(err, tree.text())};
  }
  if (!found.empty()) return found.front();
  return std::nullopt;
}

}  // namespace fxlint

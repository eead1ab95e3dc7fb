#include "cli/glob.h"

namespace fxlint::cli {

namespace {

// Expands the first `{...}` group (recursively), honoring `\` escapes and nesting.
bool expand_braces(const std::string& p, std::vector<std::string>& out, std::string* error) {
  size_t open = std::string::npos;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '\\') {
      ++i;
    } else if (p[i] == '[') {
      // Braces inside a class are literal.
      size_t j = i + 1;
      if (j < p.size() && (p[j] == '!' || p[j] == '^')) ++j;
      if (j < p.size() && p[j] == ']') ++j;
      while (j < p.size() && p[j] != ']') ++j;
      if (j >= p.size()) {
        if (error) *error = "unclosed `[`";
        return false;
      }
      i = j;
    } else if (p[i] == '{') {
      open = i;
      break;
    }
  }
  if (open == std::string::npos) {
    out.push_back(p);
    return true;
  }
  std::vector<std::string> parts;
  std::string current;
  int depth = 0;
  size_t close = std::string::npos;
  for (size_t i = open + 1; i < p.size(); ++i) {
    char c = p[i];
    if (c == '\\' && i + 1 < p.size()) {
      current += c;
      current += p[++i];
      continue;
    }
    if (c == '{') ++depth;
    if (c == '}') {
      if (depth == 0) {
        close = i;
        break;
      }
      --depth;
    }
    if (c == ',' && depth == 0) {
      parts.push_back(current);
      current.clear();
      continue;
    }
    current += c;
  }
  if (close == std::string::npos) {
    if (error) *error = "unclosed `{`";
    return false;
  }
  parts.push_back(current);
  std::string prefix = p.substr(0, open);
  std::string suffix = p.substr(close + 1);
  for (const std::string& part : parts) {
    if (!expand_braces(prefix + part + suffix, out, error)) return false;
  }
  return true;
}

// `[...]` at p[0]; sets `consumed` to the class length. Returns whether c matches.
bool match_class(std::string_view p, char c, size_t& consumed) {
  size_t i = 1;
  bool negate = false;
  if (i < p.size() && (p[i] == '!' || p[i] == '^')) {
    negate = true;
    ++i;
  }
  bool matched = false;
  bool first = true;
  while (i < p.size() && (p[i] != ']' || first)) {
    first = false;
    char lo = p[i];
    if (lo == '\\' && i + 1 < p.size()) lo = p[++i];
    char hi = lo;
    if (i + 2 < p.size() && p[i + 1] == '-' && p[i + 2] != ']') {
      hi = p[i + 2];
      if (hi == '\\' && i + 3 < p.size()) hi = p[++i + 2];
      i += 2;
    }
    if (lo <= c && c <= hi) matched = true;
    ++i;
  }
  consumed = i + 1;  // past ']'
  return matched != negate;
}

bool match_here(std::string_view p, std::string_view t, bool cross) {
  while (!p.empty()) {
    if (p.starts_with("**")) {
      std::string_view rest = p.substr(2);
      while (rest.starts_with("*")) rest.remove_prefix(1);
      if (rest.starts_with("/")) {
        // `**/` matches zero or more whole directories.
        std::string_view after = rest.substr(1);
        if (match_here(after, t, cross)) return true;
        for (size_t i = 0; i < t.size(); ++i) {
          if (t[i] == '/' && match_here(after, t.substr(i + 1), cross)) return true;
        }
        return false;
      }
      for (size_t i = 0; i <= t.size(); ++i) {
        if (match_here(rest, t.substr(i), cross)) return true;
      }
      return false;
    }
    char c = p.front();
    if (c == '*') {
      std::string_view rest = p.substr(1);
      for (size_t i = 0; i <= t.size(); ++i) {
        if (match_here(rest, t.substr(i), cross)) return true;
        if (i < t.size() && t[i] == '/' && !cross) break;
      }
      return false;
    }
    if (t.empty()) return false;
    if (c == '?') {
      if (t.front() == '/' && !cross) return false;
      p.remove_prefix(1);
    } else if (c == '[') {
      if (t.front() == '/' && !cross) return false;
      size_t consumed = 0;
      if (!match_class(p, t.front(), consumed)) return false;
      p.remove_prefix(consumed);
    } else {
      if (c == '\\' && p.size() > 1) p.remove_prefix(1);
      if (p.front() != t.front()) return false;
      p.remove_prefix(1);
    }
    t.remove_prefix(1);
  }
  return t.empty();
}

}  // namespace

std::optional<Glob> Glob::compile(std::string_view pattern, Star star, std::string* error) {
  Glob g;
  g.pattern_ = std::string(pattern);
  g.star_crosses_slash_ = star == Star::CrossesSlash;
  if (!expand_braces(g.pattern_, g.alternatives_, error)) return std::nullopt;
  return g;
}

bool Glob::matches(std::string_view path) const {
  for (const std::string& alt : alternatives_) {
    if (match_here(alt, path, star_crosses_slash_)) return true;
  }
  return false;
}

}  // namespace fxlint::cli

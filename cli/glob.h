#pragma once
// Shell-style path globs: `*`, `?`, `[a-z]`, `[!x]`, `{a,b}`, `**` and `\` escapes.
// Two flavors: config globs (ruff's: `*` also matches `/`) and gitignore globs
// (`*` stops at `/`; only `**` crosses directories).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fxlint::cli {

class Glob {
 public:
  enum class Star { CrossesSlash, StopsAtSlash };

  // nullopt with `error` set when the pattern is malformed (unclosed `[` or `{`).
  static std::optional<Glob> compile(std::string_view pattern, Star star, std::string* error);

  // Matches the whole of `path` ('/'-separated).
  bool matches(std::string_view path) const;
  const std::string& pattern() const { return pattern_; }

 private:
  std::string pattern_;
  std::vector<std::string> alternatives_;  // `{a,b}` expanded
  bool star_crosses_slash_ = true;
};

}  // namespace fxlint::cli

#pragma once
// One `.gitignore` (or `.git/info/exclude`) file: its rules, matched against
// paths relative to the directory it applies to, with git's semantics
// (last matching rule wins, `!` re-includes, trailing `/` matches directories,
// a `/` elsewhere anchors the pattern to that directory).
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include "cli/glob.h"

namespace fxlint::cli {

class GitignoreFile {
 public:
  enum class Verdict { None, Ignore, Include };

  // `base` is the directory the patterns are relative to.
  GitignoreFile(std::filesystem::path base, std::string_view contents);
  // Reads `file`; an unreadable file has no rules.
  static GitignoreFile load(const std::filesystem::path& file, std::filesystem::path base);

  // `relative` is '/'-separated, relative to base(). Verdict::None when no rule matches.
  Verdict match(std::string_view relative, bool is_dir) const;
  const std::filesystem::path& base() const { return base_; }
  bool empty() const { return rules_.empty(); }

 private:
  struct Rule {
    Glob glob;
    bool negate = false;
    bool dir_only = false;
  };
  std::filesystem::path base_;
  std::vector<Rule> rules_;
};

}  // namespace fxlint::cli

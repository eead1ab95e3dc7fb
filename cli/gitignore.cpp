#include "cli/gitignore.h"

#include <fstream>
#include <sstream>

namespace fxlint::cli {

GitignoreFile::GitignoreFile(std::filesystem::path base, std::string_view contents)
    : base_(std::move(base)) {
  size_t pos = 0;
  while (pos <= contents.size()) {
    size_t nl = contents.find('\n', pos);
    if (nl == std::string_view::npos) nl = contents.size();
    std::string line(contents.substr(pos, nl - pos));
    pos = nl + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // Trailing spaces are dropped unless escaped.
    while (!line.empty() && line.back() == ' ' &&
           !(line.size() >= 2 && line[line.size() - 2] == '\\')) {
      line.pop_back();
    }
    if (line.empty() || line.front() == '#') continue;
    Rule rule{*Glob::compile("", Glob::Star::StopsAtSlash, nullptr)};
    if (line.front() == '!') {
      rule.negate = true;
      line.erase(0, 1);
    }
    if (line.size() > 1 && line.back() == '/') {
      rule.dir_only = true;
      line.pop_back();
    }
    if (line.empty() || line == "/") continue;
    // A slash at the start or middle anchors the pattern; otherwise it matches at any depth.
    bool anchored = line.find('/') != std::string::npos;
    if (line.front() == '/') line.erase(0, 1);
    if (!anchored) line = "**/" + line;
    std::optional<Glob> glob = Glob::compile(line, Glob::Star::StopsAtSlash, nullptr);
    if (!glob) continue;  // git ignores malformed lines too
    rule.glob = std::move(*glob);
    rules_.push_back(std::move(rule));
  }
}

GitignoreFile GitignoreFile::load(const std::filesystem::path& file, std::filesystem::path base) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream buf;
  if (in) buf << in.rdbuf();
  return GitignoreFile(std::move(base), buf.str());
}

GitignoreFile::Verdict GitignoreFile::match(std::string_view relative, bool is_dir) const {
  for (auto it = rules_.rbegin(); it != rules_.rend(); ++it) {
    if (it->dir_only && !is_dir) continue;
    if (it->glob.matches(relative)) return it->negate ? Verdict::Include : Verdict::Ignore;
  }
  return Verdict::None;
}

}  // namespace fxlint::cli

#include "cli/file_discovery.h"

#include <algorithm>

#include "cli/gitignore.h"

namespace fxlint::cli {

namespace fs = std::filesystem;

namespace {

bool is_python_file_name(const fs::path& p) {
  std::string ext = p.extension().string();
  return ext == ".py" || ext == ".pyi";
}

std::string describe(const std::error_code& ec) {
  std::string m = ec.message();
  if (!m.empty()) m[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(m[0])));
  return m;
}

// The nearest directory at or above `dir` holding `.git`, or empty.
fs::path git_root(const fs::path& dir) {
  std::error_code ec;
  for (fs::path d = dir;; d = d.parent_path()) {
    if (fs::exists(d / ".git", ec)) return d;
    if (!d.has_parent_path() || d.parent_path() == d) return {};
  }
}

class Walker {
 public:
  Walker(ConfigResolver& configs, const DiscoveryOptions& options, Discovery& out)
      : configs_(configs), options_(options), out_(out) {}

  void walk_root(const fs::path& root) {
    std::vector<GitignoreFile> stack;
    if (options_.respect_gitignore) {
      // Ignore files above the root apply too, from the repository root down.
      fs::path repo = git_root(root);
      if (!repo.empty()) {
        stack.push_back(GitignoreFile::load(repo / ".git" / "info" / "exclude", repo));
        std::vector<fs::path> chain;  // directories strictly above root, up to the repository
        for (fs::path d = root; d != repo;) {
          d = d.parent_path();
          chain.push_back(d);
        }
        std::reverse(chain.begin(), chain.end());
        for (const fs::path& d : chain) push_ignore_file(stack, d);
      }
    }
    walk(root, stack);
  }

 private:
  void push_ignore_file(std::vector<GitignoreFile>& stack, const fs::path& dir) {
    std::error_code ec;
    fs::path file = dir / ".gitignore";
    if (fs::is_regular_file(file, ec)) stack.push_back(GitignoreFile::load(file, dir));
  }

  bool ignored_by_git(const std::vector<GitignoreFile>& stack, const fs::path& path, bool is_dir) const {
    GitignoreFile::Verdict verdict = GitignoreFile::Verdict::None;
    for (const GitignoreFile& g : stack) {
      std::string rel = path.lexically_relative(g.base()).generic_string();
      GitignoreFile::Verdict v = g.match(rel, is_dir);
      if (v != GitignoreFile::Verdict::None) verdict = v;
    }
    return verdict == GitignoreFile::Verdict::Ignore;
  }

  void walk(const fs::path& dir, std::vector<GitignoreFile>& stack) {
    size_t depth = stack.size();
    if (options_.respect_gitignore) push_ignore_file(stack, dir);
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec) {
      out_.problems.push_back({dir, "cannot read directory: " + describe(ec)});
      stack.erase(stack.begin() + static_cast<std::ptrdiff_t>(depth), stack.end());
      return;
    }
    const Config& config = configs_.for_directory(dir);
    std::vector<fs::path> subdirs;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      const fs::directory_entry& entry = *it;
      fs::path path = entry.path();
      std::error_code sec;
      fs::file_status link = entry.symlink_status(sec);
      bool is_link = fs::is_symlink(link);
      fs::file_status target = is_link ? fs::status(path, sec) : link;
      if (is_link && sec) {
        // A dangling link or a link loop: worth reporting only where a Python file was meant.
        if (is_python_file_name(path) && !config.is_excluded(path)) {
          out_.problems.push_back({path, "cannot read file: " + describe(sec)});
        }
        continue;
      }
      bool is_dir = fs::is_directory(target);
      if (is_dir && is_link) continue;  // symlinked directories are not entered
      if (config.is_excluded(path)) continue;
      if (options_.respect_gitignore && ignored_by_git(stack, path, is_dir)) continue;
      if (is_dir) {
        subdirs.push_back(path);
      } else if (fs::is_regular_file(target) && is_python_file_name(path)) {
        out_.files.push_back(path);
      }
    }
    if (ec) out_.problems.push_back({dir, "cannot read directory: " + describe(ec)});
    std::sort(subdirs.begin(), subdirs.end());
    for (const fs::path& sub : subdirs) walk(sub, stack);
    stack.erase(stack.begin() + static_cast<std::ptrdiff_t>(depth), stack.end());
  }

  ConfigResolver& configs_;
  const DiscoveryOptions& options_;
  Discovery& out_;
};

}  // namespace

fs::path normalize_path(const fs::path& path, const fs::path& cwd) {
  fs::path p = path.is_absolute() ? path : cwd / path;
  p = p.lexically_normal();
  if (p.has_parent_path() && p.filename().empty()) p = p.parent_path();
  return p;
}

bool is_excluded_by_config(const fs::path& path, ConfigResolver& configs) {
  // The path itself, then each directory above it inside its config's root.
  for (fs::path p = path; p.has_parent_path() && p.parent_path() != p; p = p.parent_path()) {
    fs::path parent = p.parent_path();
    const Config& config = configs.for_directory(parent);
    if (config.is_excluded(p)) return true;
    std::string rel = parent.lexically_relative(config.root).generic_string();
    if (rel == "." || rel.empty() || rel.starts_with("..")) break;
  }
  return false;
}

Discovery discover_files(std::span<const fs::path> paths, ConfigResolver& configs,
                         const DiscoveryOptions& options) {
  Discovery out;
  Walker walker(configs, options, out);
  for (const fs::path& path : paths) {
    if (options.force_exclude && is_excluded_by_config(path, configs)) continue;
    std::error_code ec;
    fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
      std::error_code lec;
      bool link = fs::is_symlink(fs::symlink_status(path, lec));
      std::string why = ec ? describe(ec) : "no such file or directory";
      out.problems.push_back({path, (link ? "cannot read file: " : "cannot read path: ") + why});
    } else if (fs::is_directory(status)) {
      walker.walk_root(path);
    } else {
      out.files.push_back(path);
    }
  }
  std::sort(out.files.begin(), out.files.end());
  out.files.erase(std::unique(out.files.begin(), out.files.end()), out.files.end());
  return out;
}

}  // namespace fxlint::cli

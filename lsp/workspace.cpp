#include "lsp/workspace.h"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

namespace fxlint::lsp {

namespace {

// What `fxlint check` reads: regular files up to the same size.
constexpr off_t kMaxFileSize = 64 << 20;

}  // namespace

bool Workspace::read(const std::string& path, WorkspaceFile& into) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > kMaxFileSize) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str() != into.text || into.revision == 0) {
    into.text = std::move(text).str();
    into.revision = ++revisions_;
  }
  return true;
}

std::vector<std::string> Workspace::rescan() {
  std::vector<std::string> problems;
  std::map<std::string, WorkspaceFile> listed;
  if (lister_) {
    for (const std::string& root : roots_) {
      try {
        for (std::string& path : lister_(root)) {
          auto old = files_.find(path);
          WorkspaceFile file = old != files_.end() ? std::move(old->second) : WorkspaceFile{};
          if (read(path, file)) listed[path] = std::move(file);
        }
      } catch (const std::exception& e) {
        problems.push_back(root + ": " + e.what());
      }
    }
  }
  files_ = std::move(listed);
  return problems;
}

void Workspace::refresh(const std::string& path) {
  auto it = files_.find(path);
  if (it == files_.end()) return;
  if (!read(path, it->second)) files_.erase(it);
}

}  // namespace fxlint::lsp

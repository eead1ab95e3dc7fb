#pragma once
// The workspace's Python files as they are on disk. The server analyses open
// documents together with them, so that a file's diagnostics are what
// `fxlint check` of the project gives even when its callers are not open.
// Which files belong is the caller's decision (the files `fxlint check ROOT`
// would lint); they are read here, in the background, and read again when the
// editor says they changed.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace fxlint::lsp {

// The files to analyse under a workspace root: absolute paths.
using WorkspaceLister = std::function<std::vector<std::string>(const std::string& root)>;

struct WorkspaceFile {
  std::string text;
  uint64_t revision = 0;  // changes whenever `text` does
};

class Workspace {
 public:
  explicit Workspace(WorkspaceLister lister) : lister_(std::move(lister)) {}

  void set_roots(std::vector<std::string> roots) { roots_ = std::move(roots); }
  // Lists the roots again and reads every file whose contents changed.
  // Problems (a root that cannot be listed) are returned, one line each.
  std::vector<std::string> rescan();
  // Reads one file again, or forgets it when it is gone. A path not listed
  // at the last rescan is ignored (a new file needs a rescan: exclusion is the lister's call).
  void refresh(const std::string& path);

  const std::map<std::string, WorkspaceFile>& files() const { return files_; }
  bool empty() const { return roots_.empty() || !lister_; }

 private:
  bool read(const std::string& path, WorkspaceFile& into);

  WorkspaceLister lister_;
  std::vector<std::string> roots_;
  std::map<std::string, WorkspaceFile> files_;  // by absolute path
  uint64_t revisions_ = 0;
};

}  // namespace fxlint::lsp

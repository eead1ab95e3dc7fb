#include "rewriter/atomic_write.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

namespace fxlint {

namespace {

std::string failure(const std::string& path, const std::string& what, int err) {
  return path + ": " + what + ": " + std::strerror(err) + "; the file was left unchanged";
}

constexpr const char* kTempMarker = ".fxlint-";

// Temporary files are `.NAME.fxlint-PID-XXXXXX`: one whose process is gone was
// left by a kill between creating it and renaming it, and is removed.
void remove_stale_temporaries(const std::string& dir) {
  DIR* d = opendir(dir.c_str());
  if (!d) return;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    size_t at = name.rfind(kTempMarker);
    if (name.empty() || name[0] != '.' || at == std::string::npos) continue;
    size_t pid_start = at + std::strlen(kTempMarker);
    size_t dash = name.find('-', pid_start);
    if (dash == std::string::npos || dash == pid_start || name.size() - dash != 7) continue;
    std::string pid_text = name.substr(pid_start, dash - pid_start);
    if (pid_text.find_first_not_of("0123456789") != std::string::npos) continue;
    pid_t pid = static_cast<pid_t>(std::strtol(pid_text.c_str(), nullptr, 10));
    if (pid <= 0 || pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH) continue;
    unlinkat(dirfd(d), e->d_name, 0);
  }
  closedir(d);
}

bool holds_exactly(const std::string& path, std::string_view expected) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string now((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return now == expected;
}

}  // namespace

std::optional<std::string> write_file_atomically(const std::string& path, std::string_view bytes,
                                                 std::optional<std::string_view> expected) {
  char resolved[PATH_MAX];
  if (!realpath(path.c_str(), resolved)) return failure(path, "cannot resolve path", errno);
  std::string target = resolved;

  struct stat st;
  if (stat(target.c_str(), &st) != 0) return failure(path, "cannot stat", errno);
  if (!S_ISREG(st.st_mode)) return path + ": not a regular file; the file was left unchanged";
  // A file with no write bit is read-only on purpose, even for a user (root)
  // whom the permission check would let through.
  if ((st.st_mode & 0222) == 0 || access(target.c_str(), W_OK) != 0) {
    return path + ": file is read-only; the file was left unchanged";
  }

  size_t slash = target.rfind('/');
  std::string dir = target.substr(0, slash == 0 ? 1 : slash);
  remove_stale_temporaries(dir);
  std::string temp = dir + (dir == "/" ? "" : "/") + "." + target.substr(slash + 1) + kTempMarker +
                     std::to_string(getpid()) + "-XXXXXX";
  int fd = mkstemp(temp.data());
  if (fd < 0) return failure(path, "cannot create a temporary file in " + dir, errno);

  auto abandon = [&](const std::string& what) {
    int err = errno;
    close(fd);
    unlink(temp.c_str());
    return failure(path, what, err);
  };
  for (size_t done = 0; done < bytes.size();) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return abandon("cannot write the temporary file");
    }
    done += static_cast<size_t>(n);
  }
  // Ownership is kept when allowed (root); otherwise the file becomes ours, as with any editor.
  // Owner first: chown clears setuid and setgid, which the chmod after it restores.
  if (fchown(fd, st.st_uid, st.st_gid) != 0) { /* not permitted: keep ours */ }
  if (fchmod(fd, st.st_mode & 07777) != 0) return abandon("cannot set permissions");
  if (fsync(fd) != 0) return abandon("cannot flush to disk");
  if (close(fd) != 0) {
    int err = errno;
    unlink(temp.c_str());
    return failure(path, "cannot close the temporary file", err);
  }
  if (expected && !holds_exactly(target, *expected)) {
    unlink(temp.c_str());
    return path + ": changed on disk since fxlint read it; not overwritten (run fxlint again)";
  }
  if (rename(temp.c_str(), target.c_str()) != 0) {
    int err = errno;
    unlink(temp.c_str());
    return failure(path, "cannot replace the file", err);
  }
  // Make the rename itself durable.
  int dir_fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dir_fd >= 0) {
    fsync(dir_fd);
    close(dir_fd);
  }
  return std::nullopt;
}

}  // namespace fxlint

#include "tests/support/catch.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rewriter/atomic_write.h"
#include "temp_dir.h"

using namespace fxlint;
using namespace fxlint::test;
namespace fs = std::filesystem;

namespace {
mode_t mode_of(const std::string& path) {
  struct stat st;
  stat(path.c_str(), &st);
  return st.st_mode & 07777;
}
size_t entries(const fs::path& dir) {
  return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}
}  // namespace

TEST_CASE("a write replaces the bytes and keeps the mode", "[write]") {
  TempDir dir;
  std::string p = dir.write("m.py", "old\r\n");
  chmod(p.c_str(), 0750);
  REQUIRE_FALSE(write_file_atomically(p, "new\r\n"));
  CHECK(TempDir::read(p) == "new\r\n");
  CHECK(mode_of(p) == 0750);
  CHECK(entries(dir.path()) == 1);  // no temporary file left behind
}

TEST_CASE("a read-only file is an error that names it and loses nothing", "[write]") {
  TempDir dir;
  std::string p = dir.write("ro.py", "keep me\n");
  chmod(p.c_str(), 0444);
  std::optional<std::string> err = write_file_atomically(p, "lost\n");
  REQUIRE(err);
  CHECK_THAT(*err, Catch::Contains(p) && Catch::Contains("read-only"));
  CHECK(TempDir::read(p) == "keep me\n");
  CHECK(mode_of(p) == 0444);
  CHECK(entries(dir.path()) == 1);
}

TEST_CASE("a missing file or directory is an error", "[write]") {
  TempDir dir;
  std::optional<std::string> err = write_file_atomically((dir.path() / "nope.py").string(), "x");
  REQUIRE(err);
  CHECK_THAT(*err, Catch::Contains("nope.py"));
  CHECK(entries(dir.path()) == 0);
}

TEST_CASE("a symlink is followed: the target changes, the link stays", "[write]") {
  TempDir dir;
  std::string target = dir.write("real.py", "a\n");
  fs::path link = dir.path() / "link.py";
  fs::create_symlink(target, link);
  REQUIRE_FALSE(write_file_atomically(link.string(), "b\n"));
  CHECK(fs::is_symlink(link));
  CHECK(TempDir::read(target) == "b\n");
}

TEST_CASE("a directory that cannot take the temporary file leaves the file intact", "[write]") {
  TempDir dir;
  std::string p = dir.write("m.py", "keep\n");
  chmod(dir.path().c_str(), 0555);
  // Root writes into read-only directories, so as root the write runs in a
  // child that has become an unprivileged user (nobody).
  auto attempt = [&] { return write_file_atomically(p, "lost\n"); };
  std::optional<std::string> err;
  if (geteuid() != 0) {
    err = attempt();
  } else {
    chown(dir.path().c_str(), 65534, 65534);
    chown(p.c_str(), 65534, 65534);
    int pipe_fds[2];
    REQUIRE(pipe(pipe_fds) == 0);
    pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      close(pipe_fds[0]);
      if (setgid(65534) != 0 || setuid(65534) != 0) _exit(3);
      std::optional<std::string> e = attempt();
      std::string message = e ? *e : "";
      ssize_t written = write(pipe_fds[1], message.data(), message.size());
      _exit(e && written == static_cast<ssize_t>(message.size()) ? 0 : 1);
    }
    close(pipe_fds[1]);
    std::string message;
    char buf[512];
    for (ssize_t n; (n = read(pipe_fds[0], buf, sizeof buf)) > 0;) message.append(buf, static_cast<size_t>(n));
    close(pipe_fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) != 3);  // could not drop privileges
    if (WEXITSTATUS(status) == 0) err = message;
  }
  chmod(dir.path().c_str(), 0755);
  REQUIRE(err);
  CHECK_THAT(*err, Catch::Contains("m.py"));
  CHECK(TempDir::read(p) == "keep\n");
}

TEST_CASE("a file changed on disk since it was read is not overwritten", "[write]") {
  TempDir dir;
  std::string p = dir.write("m.py", "x = 1\n");
  // Someone appends a line between fxlint's read and its write.
  dir.write("m.py", "x = 1\ny = 2\n");
  std::optional<std::string> err = write_file_atomically(p, "x = 2\n", std::string_view("x = 1\n"));
  REQUIRE(err);
  CHECK_THAT(*err, Catch::Contains(p) && Catch::Contains("changed on disk"));
  CHECK(TempDir::read(p) == "x = 1\ny = 2\n");
  CHECK(entries(dir.path()) == 1);
  // Unchanged since the read: written.
  REQUIRE_FALSE(write_file_atomically(p, "z = 3\n", std::string_view("x = 1\ny = 2\n")));
  CHECK(TempDir::read(p) == "z = 3\n");
}

TEST_CASE("setgid and setuid bits are kept", "[write]") {
  TempDir dir;
  std::string p = dir.write("s.py", "a\n");
  chmod(p.c_str(), 06755);
  REQUIRE_FALSE(write_file_atomically(p, "b\n"));
  CHECK(mode_of(p) == 06755);
}

TEST_CASE("a temporary file left by a killed fxlint goes at the next write in its directory", "[write]") {
  TempDir dir;
  std::string p = dir.write("m.py", "a\n");
  // A pid that cannot be running: above the kernel's pid_max.
  dir.write(".m.py.fxlint-99999999-Ab12Cd", "half written");
  dir.write(".other.fxlint-notes", "not ours");
  REQUIRE_FALSE(write_file_atomically(p, "b\n"));
  CHECK_FALSE(fs::exists(dir.path() / ".m.py.fxlint-99999999-Ab12Cd"));
  CHECK(fs::exists(dir.path() / ".other.fxlint-notes"));
}

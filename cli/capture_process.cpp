#include "cli/capture_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "cli/python_environment.h"


extern char** environ;

namespace fxlint::cli {

std::chrono::seconds capture_timeout() {
  const char* env = std::getenv("FXLINT_CAPTURE_TIMEOUT");
  long seconds = env ? std::strtol(env, nullptr, 10) : 0;
  return std::chrono::seconds(seconds > 0 ? seconds : 600);
}

namespace fs = std::filesystem;

CaptureInstall capture_install() {
  const PythonEnvironment& e = python_environment();
  return {e.python, e.package_dir};
}

std::optional<std::string> capture_unavailable(const CaptureInstall& install) {
  std::error_code ec;
  if (install.python.empty()) {
    return "no Python interpreter found: activate the environment that has torch, or set FXLINT_PYTHON";
  }
  if (!fs::is_regular_file(install.python, ec) || ::access(install.python.c_str(), X_OK) != 0) {
    return "the capture's Python interpreter " + install.python.string() +
           " is missing; set FXLINT_PYTHON to a Python 3.11 that has torch";
  }
  if (!install.package_dir.empty() &&
      !fs::is_regular_file(install.package_dir / "fxlint_capture" / "__init__.py", ec)) {
    return "no fxlint_capture package in " + install.package_dir.string() +
           " (FXLINT_CAPTURE_PATH names the directory that holds fxlint_capture/)";
  }
  return std::nullopt;
}

namespace {

// The child's environment: ours, with the package first on PYTHONPATH and no
// __pycache__ left in the user's project.
std::vector<std::string> child_environment(const CaptureInstall& install) {
  std::vector<std::string> env;
  std::string pythonpath = install.package_dir.string();
  for (char** e = environ; *e; ++e) {
    std::string_view entry(*e);
    if (entry.starts_with("PYTHONPATH=")) {
      if (entry.size() > 11) pythonpath += (pythonpath.empty() ? "" : ":") + std::string(entry.substr(11));
      continue;
    }
    if (entry.starts_with("PYTHONDONTWRITEBYTECODE=")) continue;
    env.emplace_back(entry);
  }
  if (!pythonpath.empty()) env.push_back("PYTHONPATH=" + pythonpath);
  env.push_back("PYTHONDONTWRITEBYTECODE=1");
  return env;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

ProcessResult run_capture(const CaptureInstall& install, const std::vector<std::string>& args,
                          const fs::path& cwd) {
  return run_capture(install, args, cwd, capture_timeout());
}

ProcessResult run_capture(const CaptureInstall& install, const std::vector<std::string>& args,
                          const fs::path& cwd, std::chrono::seconds timeout) {
  std::vector<std::string> argv_strings = {install.python.string(), "-m", "fxlint_capture"};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<std::string> env_strings = child_environment(install);
  // Everything the child needs is built before fork: only async-signal-safe calls after it.
  std::vector<char*> argv = c_strings(argv_strings);
  std::vector<char*> envp = c_strings(env_strings);
  std::string dir = cwd.string();

  ProcessResult result;
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    result.err = std::string("cannot create a pipe: ") + std::strerror(errno);
    return result;
  }
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    result.err = std::string("cannot create a pipe: ") + std::strerror(errno);
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return result;
  }
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(out_pipe[1], STDOUT_FILENO);
    ::dup2(err_pipe[1], STDERR_FILENO);
    int null_in = ::open("/dev/null", O_RDONLY);
    if (null_in >= 0) ::dup2(null_in, STDIN_FILENO);
    if (::chdir(dir.c_str()) != 0) ::_exit(126);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (pid < 0) {
    result.err = std::string("cannot start ") + argv_strings[0] + ": " + std::strerror(errno);
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    return result;
  }
  // Both pipes are drained together so a chatty child never blocks on a full one.
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_count = 2;
  char buffer[65536];
  // A target that never returns must not hang `verify`: stop it at the deadline.
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool timed_out = false;
  while (open_count > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      ::kill(pid, SIGKILL);
      timed_out = true;
      break;
    }
    if (::poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 1000))) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_count;
      }
    }
  }
  for (pollfd& f : fds) {
    if (f.fd >= 0) ::close(f.fd);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
    if (result.exit_code == 126) result.err += "cannot enter directory " + dir + "\n";
    if (result.exit_code == 127) result.err += "cannot run " + argv_strings[0] + "\n";
  } else if (timed_out) {
    result.err += "the capture did not finish within " + std::to_string(timeout.count()) +
                  " s and was stopped (set FXLINT_CAPTURE_TIMEOUT to allow more)\n";
  } else if (WIFSIGNALED(status)) {
    result.err += "the capture was killed by signal " + std::to_string(WTERMSIG(status)) + "\n";
  }
  return result;
}

}  // namespace fxlint::cli

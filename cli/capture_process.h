#pragma once
// Running the bytecode capture (`python -m fxlint_capture`) as a child
// process. The interpreter is the one the capture was built for (FXLINT_PYTHON,
// compiled in), never the first `python3` on PATH, which may lack torch; the
// package directory is compiled in and can be moved with FXLINT_CAPTURE_PATH.
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace fxlint::cli {

struct CaptureInstall {
  std::filesystem::path python;       // interpreter with torch
  std::filesystem::path package_dir;  // directory holding fxlint_capture/
};

// The compiled-in install, with FXLINT_CAPTURE_PATH overriding the package dir.
CaptureInstall capture_install();

// Why the capture cannot run (not built, no interpreter), with how to fix
// it; nullopt when it looks runnable.
std::optional<std::string> capture_unavailable(const CaptureInstall& install);

struct ProcessResult {
  int exit_code = -1;  // -1 when the process could not start or was killed
  std::string out;
  std::string err;
};

// How long one capture may run: FXLINT_CAPTURE_TIMEOUT seconds, default 600.
std::chrono::seconds capture_timeout();

// Runs `python -m fxlint_capture ARGS...` in `cwd` and collects its output;
// a capture still running at the deadline is killed and reported.
ProcessResult run_capture(const CaptureInstall& install, const std::vector<std::string>& args,
                          const std::filesystem::path& cwd);

}  // namespace fxlint::cli

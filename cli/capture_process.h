#pragma once
// Running the bytecode capture (`python -m fxlint_capture`) as a child
// process, in the interpreter and with the package python_environment() finds.
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace fxlint::cli {

struct CaptureInstall {
  std::filesystem::path python;       // interpreter with torch
  std::filesystem::path package_dir;  // directory holding fxlint_capture/; empty: importable as is
};

// The interpreter and package python_environment() found.
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
// a capture still running after `timeout` (default capture_timeout()) is
// killed and reported.
ProcessResult run_capture(const CaptureInstall& install, const std::vector<std::string>& args,
                          const std::filesystem::path& cwd);
ProcessResult run_capture(const CaptureInstall& install, const std::vector<std::string>& args,
                          const std::filesystem::path& cwd, std::chrono::seconds timeout);

}  // namespace fxlint::cli

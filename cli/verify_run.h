#pragma once
// One verification: a target run through a backend by `fxlint_capture --json`
// (the bundled capture, or a real compiler: Dynamo, torch.export, the ONNX
// exporter), and what its report means for `fxlint verify` (passed, failed, or
// could not run).
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/capture_process.h"

namespace fxlint::cli {

struct VerifyJob {
  std::string target;               // "path/to/file.py:Qualified.name", as the capture takes it
  std::vector<std::string> inputs;  // input specs (or one factory)
  std::string mode = "strict";      // the capture's mode: "strict" or "dynamo"
  std::string backend = "capture";  // one of kVerifyBackends
  std::optional<std::string> onnx;  // where to export, when wanted (capture and onnx backends)
  int opset = 18;
  std::filesystem::path cwd;        // where relative paths in target/inputs/onnx start
};

enum class VerifyStatus {
  Passed,  // one graph, no failures (and a valid ONNX model when exported); every stage of a backend passed
  Failed,  // captured, but broke, failed strict checks, or raised; a backend broke or failed
  Error,   // could not run: bad target or input, capture not runnable
};

struct VerifyResult {
  VerifyJob job;
  VerifyStatus status = VerifyStatus::Error;
  nlohmann::json report;  // the capture's or backend's JSON (null when it gave none)
  std::string message;    // why it failed or could not run, when the report does not say
};

// Runs the capture on `job` and classifies the outcome.
VerifyResult verify(const CaptureInstall& install, const VerifyJob& job);

// Runs every job and hands each result to `done` with the job's index. A
// capture job runs in a process of its own; the jobs of a real-compiler
// backend that share a directory run together in one process (torch and its
// compilers are imported once), given capture_timeout() per job.
void verify_all(const CaptureInstall& install, std::span<const VerifyJob> jobs,
                const std::function<void(size_t, VerifyResult)>& done);
std::vector<VerifyResult> verify_all(const CaptureInstall& install, std::span<const VerifyJob> jobs);

// What is wrong with a report, one line each (empty when it passes).
std::vector<std::string> report_problems(const nlohmann::json& report);

}  // namespace fxlint::cli

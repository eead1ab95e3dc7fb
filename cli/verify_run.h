#pragma once
// One verification: a target captured by `fxlint_capture --json`, and what
// its report means for `fxlint verify` (passed, failed, or could not run).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/capture_process.h"

namespace fxlint::cli {

struct VerifyJob {
  std::string target;               // "path/to/file.py:Qualified.name", as the capture takes it
  std::vector<std::string> inputs;  // input specs (or one factory)
  std::string mode = "strict";      // "strict" or "dynamo"
  std::optional<std::string> onnx;  // where to export, when wanted
  int opset = 18;
  std::filesystem::path cwd;        // where relative paths in target/inputs/onnx start
};

enum class VerifyStatus {
  Passed,  // one graph, no failures (and a valid ONNX model when exported)
  Failed,  // captured, but broke, failed strict checks, or raised
  Error,   // could not run: bad target or input, capture not runnable
};

struct VerifyResult {
  VerifyJob job;
  VerifyStatus status = VerifyStatus::Error;
  nlohmann::json report;  // the capture's JSON (null when it gave none)
  std::string message;    // why it failed or could not run, when the report does not say
};

// Runs the capture on `job` and classifies the outcome.
VerifyResult verify(const CaptureInstall& install, const VerifyJob& job);

// What is wrong with a report, one line each (empty when it passes).
std::vector<std::string> report_problems(const nlohmann::json& report);

}  // namespace fxlint::cli

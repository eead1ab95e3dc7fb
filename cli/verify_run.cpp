#include "cli/verify_run.h"

namespace fxlint::cli {

namespace {

// The last lines of the capture's stderr: the error message or the end of a traceback.
std::string tail_lines(const std::string& text, size_t count) {
  std::string trimmed = text;
  while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == ' ')) trimmed.pop_back();
  size_t pos = trimmed.size();
  for (size_t n = 0; n < count && pos != std::string::npos && pos > 0; ++n) {
    pos = trimmed.rfind('\n', pos - 1);
  }
  return pos == std::string::npos || pos == 0 ? trimmed : trimmed.substr(pos + 1);
}

std::string strip_prefix(std::string message) {
  constexpr std::string_view kPrefix = "fxlint_capture: error: ";
  if (message.starts_with(kPrefix)) message.erase(0, kPrefix.size());
  return message;
}

}  // namespace

std::vector<std::string> report_problems(const nlohmann::json& report) {
  std::vector<std::string> problems;
  int graphs = report.value("graph_count", 0);
  int breaks = report.value("graph_break_count", 0);
  if (breaks > 0) problems.push_back(std::to_string(breaks) + " graph break" + (breaks == 1 ? "" : "s"));
  if (graphs > 1) problems.push_back(std::to_string(graphs) + " graphs");
  // A graph that does not replay what ran, in either mode, with the capture's reason.
  size_t replay = 0;
  for (const auto& f : report.value("failures", nlohmann::json::array())) {
    if (f.is_object() && f.value("code", "") == "REPLAY") {
      problems.push_back(f.value("reason", std::string("a graph does not replay what ran")));
      ++replay;
    }
  }
  // Strict failures that are not breaks (side effects, dynamic shapes).
  if (report.value("mode", "") == "strict" && !report.value("ok", true)) {
    size_t other = report.value("failures", nlohmann::json::array()).size() - replay;
    other = other > static_cast<size_t>(breaks) ? other - breaks : 0;
    if (other > 0) problems.push_back(std::to_string(other) + " other strict failure" + (other == 1 ? "" : "s"));
    if (problems.empty()) problems.push_back("strict capture failed");
  } else if (!report.value("ok", true) && problems.empty()) {
    problems.push_back("capture failed");
  }
  if (report.contains("onnx") && report["onnx"].is_object() && !report["onnx"].value("ok", false)) {
    const nlohmann::json& onnx = report["onnx"];
    const nlohmann::json& error = onnx.value("error", nlohmann::json());
    std::string runtime = onnx.value("onnxruntime", nlohmann::json("")).is_string() ? onnx.value("onnxruntime", "") : "";
    if (!error.is_null()) problems.push_back("ONNX not exported");
    else if (runtime.starts_with("inconclusive")) problems.push_back("ONNX Runtime check " + runtime);
    else if (runtime.starts_with("mismatch")) problems.push_back("ONNX Runtime computes something else: " + runtime);
    else problems.push_back("ONNX model invalid");
  }
  return problems;
}

VerifyResult verify(const CaptureInstall& install, const VerifyJob& job) {
  VerifyResult result;
  result.job = job;
  std::vector<std::string> args = {job.target};
  args.insert(args.end(), job.inputs.begin(), job.inputs.end());
  args.insert(args.end(), {"--mode", job.mode, "--json"});
  if (job.onnx) args.insert(args.end(), {"--onnx", *job.onnx, "--opset", std::to_string(job.opset)});
  if (job.onnx) {
    // The model's directory is made like any output directory; the exporter would not.
    std::filesystem::path model(*job.onnx);
    std::filesystem::path dir = (model.is_absolute() ? model : job.cwd / model).parent_path();
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
      result.message = "cannot create " + dir.string() + " for the ONNX model: " + ec.message();
      return result;
    }
  }
  ProcessResult run = run_capture(install, args, job.cwd);

  if (run.exit_code == 0 || run.exit_code == 1) {
    try {
      result.report = nlohmann::json::parse(run.out);
    } catch (const nlohmann::json::exception&) {
      result.message = "the capture printed no JSON report: " + tail_lines(run.err, 5);
      return result;
    }
    result.status = report_problems(result.report).empty() && run.exit_code == 0 ? VerifyStatus::Passed
                                                                                 : VerifyStatus::Failed;
    return result;
  }
  if (run.exit_code == 3) {
    // The target's own code raised: it does not run, let alone capture.
    result.status = VerifyStatus::Failed;
    result.message = "raised an exception: " + tail_lines(run.err, 1);
    return result;
  }
  result.message = strip_prefix(tail_lines(run.err, run.exit_code == 2 ? 1 : 5));
  if (result.message.empty()) result.message = "the capture exited with status " + std::to_string(run.exit_code);
  return result;
}

}  // namespace fxlint::cli

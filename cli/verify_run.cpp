#include "cli/verify_run.h"

#include <map>
#include <utility>

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

// A real compiler's problems: Dynamo's breaks and graphs, or the stages
// (strict export, ONNX Runtime, ...) that failed.
std::vector<std::string> backend_problems(const nlohmann::json& report) {
  std::vector<std::string> problems;
  int graphs = report.value("graph_count", 0);
  int breaks = report.value("graph_break_count", 0);
  if (breaks > 0) problems.push_back(std::to_string(breaks) + " graph break" + (breaks == 1 ? "" : "s"));
  if (graphs > 1) problems.push_back(std::to_string(graphs) + " graphs");
  for (const auto& stage : report.value("stages", nlohmann::json::array())) {
    if (stage.is_object() && !stage.value("ok", false)) {
      problems.push_back(stage.value("name", std::string("a stage")) + " failed");
    }
  }
  if (problems.empty() && !report.value("ok", true)) {
    problems.push_back(report.value("backend", std::string("backend")) + " failed");
  }
  return problems;
}

}  // namespace

std::vector<std::string> report_problems(const nlohmann::json& report) {
  if (report.is_object() && report.value("backend", std::string("capture")) != "capture") {
    return backend_problems(report);
  }
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

namespace {

// The outcome of one job of a batch: {"exit", "report", "message"} as
// `fxlint_capture --batch` gives it, read like a single run's exit status.
VerifyResult batch_result(const VerifyJob& job, const nlohmann::json& entry) {
  VerifyResult result;
  result.job = job;
  int exit = entry.is_object() ? entry.value("exit", -1) : -1;
  std::string message;
  if (entry.is_object() && entry.contains("message") && entry["message"].is_string()) {
    message = entry["message"].get<std::string>();
  }
  if ((exit == 0 || exit == 1) && entry.contains("report") && entry["report"].is_object()) {
    result.report = entry["report"];
    result.status = report_problems(result.report).empty() && exit == 0 ? VerifyStatus::Passed : VerifyStatus::Failed;
  } else if (exit == 3) {
    result.status = VerifyStatus::Failed;
    result.message = "raised an exception: " + message;
  } else {
    result.message = message.empty() ? "the " + job.backend + " backend gave no result for this target" : message;
  }
  return result;
}

// Jobs of one real-compiler backend, all in `cwd`, in one process.
std::vector<VerifyResult> verify_batch(const CaptureInstall& install, std::span<const VerifyJob> jobs) {
  nlohmann::json list = nlohmann::json::array();
  for (const VerifyJob& job : jobs) {
    list.push_back({{"target", job.target},
                    {"inputs", job.inputs},
                    {"onnx", job.onnx ? nlohmann::json(*job.onnx) : nlohmann::json(nullptr)},
                    {"opset", job.opset}});
  }
  const VerifyJob& first = jobs.front();
  std::vector<std::string> args = {"--backend", first.backend, "--batch", list.dump(), "--json"};
  auto timeout = capture_timeout() * static_cast<long>(jobs.size());
  ProcessResult run = run_capture(install, args, first.cwd, timeout);
  nlohmann::json results;
  if (run.exit_code == 0) {
    try {
      results = nlohmann::json::parse(run.out).at("results");
    } catch (const nlohmann::json::exception&) {
      results = nullptr;
    }
  }
  std::vector<VerifyResult> out;
  if (!results.is_array() || results.size() != jobs.size()) {
    std::string why = run.exit_code == 0
                          ? "the " + first.backend + " backend printed no JSON report: " + tail_lines(run.err, 5)
                          : strip_prefix(tail_lines(run.err, run.exit_code == 2 ? 1 : 5));
    if (why.empty()) why = "the " + first.backend + " backend exited with status " + std::to_string(run.exit_code);
    for (const VerifyJob& job : jobs) {
      VerifyResult r;
      r.job = job;
      r.message = why;
      out.push_back(std::move(r));
    }
    return out;
  }
  for (size_t i = 0; i < jobs.size(); ++i) out.push_back(batch_result(jobs[i], results[i]));
  return out;
}

}  // namespace

void verify_all(const CaptureInstall& install, std::span<const VerifyJob> jobs,
                const std::function<void(size_t, VerifyResult)>& done) {
  // Each real-compiler group runs when its first job comes up, so results come
  // in about the order of the jobs.
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> groups;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (jobs[i].backend != "capture") groups[{jobs[i].backend, jobs[i].cwd.string()}].push_back(i);
  }
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (jobs[i].backend == "capture") {
      done(i, verify(install, jobs[i]));
      continue;
    }
    auto group = groups.find({jobs[i].backend, jobs[i].cwd.string()});
    if (group == groups.end() || group->second.front() != i) continue;  // ran with its group
    std::vector<VerifyJob> batch;
    for (size_t k : group->second) batch.push_back(jobs[k]);
    std::vector<VerifyResult> results = verify_batch(install, batch);
    for (size_t k = 0; k < results.size(); ++k) done(group->second[k], std::move(results[k]));
  }
}

std::vector<VerifyResult> verify_all(const CaptureInstall& install, std::span<const VerifyJob> jobs) {
  std::vector<VerifyResult> results(jobs.size());
  verify_all(install, jobs, [&](size_t i, VerifyResult r) { results[i] = std::move(r); });
  return results;
}

}  // namespace fxlint::cli

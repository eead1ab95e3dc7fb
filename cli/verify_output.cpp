#include "cli/verify_output.h"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace fxlint::cli {

using nlohmann::json;

namespace {

std::string plural(size_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

const json& innermost(const json& user_stack) {
  static const json kNull;
  if (!user_stack.is_array() || user_stack.empty()) return kNull;
  return user_stack.back();
}

std::string source_line(const json& user_stack) {
  const json& frame = innermost(user_stack);
  if (!frame.is_object()) return "";
  std::string line = frame.value("line", "");
  size_t start = line.find_first_not_of(" \t");
  return start == std::string::npos ? "" : line.substr(start);
}

std::string join(const json& list) {
  std::string out;
  if (!list.is_array()) return out;
  for (const json& item : list) {
    out += out.empty() ? "" : ", ";
    out += item.is_string() ? item.get<std::string>() : item.dump();
  }
  return out;
}

std::string value_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

void print_onnx(std::ostream& out, const json& onnx, const PathShower& show) {
  if (onnx.contains("error") && !onnx["error"].is_null()) {
    out << "  onnx: not exported: " << value_text(onnx["error"]) << '\n';
    return;
  }
  out << "  onnx: " << show(onnx.value("path", "")) << " (opset " << onnx.value("opset", 0) << "): "
      << (onnx.value("ok", false) ? "valid" : "INVALID") << '\n';
  out << "    checker: " << value_text(onnx.value("checker", json("?")))
      << ", shape inference: " << value_text(onnx.value("shape_inference", json("?"))) << '\n';
  out << "    ops (" << onnx.value("node_count", 0) << " nodes): " << join(onnx.value("op_types", json::array()))
      << '\n';
  json nonstandard = onnx.value("non_standard_ops", json::array());
  out << "    non-standard ops: " << (nonstandard.empty() ? "none" : join(nonstandard)) << '\n';
  if (onnx.contains("max_abs_diff_graph_vs_eager") && !onnx["max_abs_diff_graph_vs_eager"].is_null()) {
    out << "    max |graph - eager|: " << value_text(onnx["max_abs_diff_graph_vs_eager"]) << '\n';
  }
  if (onnx.contains("onnxruntime")) {
    out << "    onnxruntime: " << value_text(onnx["onnxruntime"]);
    if (onnx.contains("max_abs_diff_onnx_vs_eager")) {
      out << " (max |onnx - eager|: " << value_text(onnx["max_abs_diff_onnx_vs_eager"]) << ")";
    }
    out << '\n';
  }
}

// A break's or failure's words: the one-line summary a backend gives, else the reason.
std::string reason_text(const json& f) {
  if (f.contains("summary") && f["summary"].is_string() && !f["summary"].get<std::string>().empty()) {
    return f["summary"].get<std::string>();
  }
  return value_text(f.value("reason", json("")));
}

// "CODE " when the break maps to a rule, "" when no rule matches it.
std::string code_text(const json& f) {
  const json& code = f.contains("code") ? f["code"] : json();
  return code.is_string() ? code.get<std::string>() + ' ' : code.is_null() ? "" : value_text(code) + ' ';
}

// A real compiler's stages: "strict export: ok (3 ops)", or where and why it failed.
void print_stages(std::ostream& out, const json& stages, const PathShower& show) {
  for (const json& stage : stages) {
    if (!stage.is_object()) continue;
    std::string name = stage.value("name", std::string("stage"));
    if (stage.value("ok", false)) {
      std::string detail =
          stage.contains("detail") && stage["detail"].is_string() ? stage["detail"].get<std::string>() : "";
      out << "  " << name << ": ok" << (detail.empty() ? "" : " (" + detail + ")") << '\n';
      continue;
    }
    const json& f = stage.contains("failure") && stage["failure"].is_object() ? stage["failure"] : json::object();
    json stack = f.value("user_stack", json::array());
    std::string where = stack_location(stack, show);
    out << "  " << name << ": failed" << (where.empty() ? "" : " at " + where) << ": " << code_text(f)
        << reason_text(f) << '\n';
    if (std::string line = source_line(stack); !line.empty()) out << "      " << line << '\n';
  }
}

std::string passed_verdict(const std::string& backend) {
  if (backend == "dynamo") return "ok: Dynamo captured one graph";
  if (backend == "export") return "ok: exported strict and non-strict";
  if (backend == "onnx") return "ok: exported to ONNX, and ONNX Runtime agrees with eager";
  return "ok: captured in one graph";
}

}  // namespace

std::string_view status_name(VerifyStatus status) {
  switch (status) {
    case VerifyStatus::Passed: return "passed";
    case VerifyStatus::Failed: return "failed";
    case VerifyStatus::Error: return "error";
  }
  return "error";
}

std::string stack_location(const json& user_stack, const PathShower& show) {
  const json& frame = innermost(user_stack);
  if (!frame.is_object()) return "";
  return show(frame.value("filename", "?")) + ":" + std::to_string(frame.value("lineno", 0));
}

void print_verify_result(std::ostream& out, const VerifyResult& result, const PathShower& show) {
  const VerifyJob& job = result.job;
  out << job.target;
  for (const std::string& input : job.inputs) out << ' ' << input;
  const bool capture = job.backend == "capture";
  out << " (" << (capture ? job.mode : "backend: " + job.backend) << ")\n";
  const json& r = result.report;
  if (r.is_object()) {
    if (r.contains("graph_count")) {
      out << "  graphs: " << r.value("graph_count", 0) << ", ops: " << r.value("op_count", 0)
          << ", breaks: " << r.value("graph_break_count", 0);
      if (r.contains("compile_time_s") && r["compile_time_s"].is_number()) {
        std::ostringstream seconds;
        seconds << std::setprecision(3) << r["compile_time_s"].get<double>();
        out << (capture ? ", capture time: " : ", explain time: ") << seconds.str() << " s";
      }
      out << '\n';
    }
    for (const json& b : r.value("break_reasons", json::array())) {
      json stack = b.value("user_stack", json::array());
      std::string where = stack_location(stack, show);
      out << "  break: " << (where.empty() ? "" : where + ": ") << code_text(b) << reason_text(b) << '\n';
      if (std::string line = source_line(stack); !line.empty()) out << "      " << line << '\n';
    }
    print_stages(out, r.value("stages", json::array()), show);
    if (!capture && r.contains("onnx") && r["onnx"].is_object() && r["onnx"].contains("path") &&
        r["onnx"]["path"].is_string()) {
      out << "  onnx model: " << show(r["onnx"]["path"].get<std::string>()) << '\n';
    }
    for (const json& s : r.value("side_effects", json::array())) {
      std::string where = stack_location(s.value("user_stack", json::array()), show);
      out << "  side effect: " << (where.empty() ? "" : where + ": ") << value_text(s.value("code", json("?")))
          << ' ' << value_text(s.value("kind", json(""))) << ' ' << value_text(s.value("target", json("")))
          << '\n';
    }
    for (const json& s : r.value("specializations", json::array())) {
      std::string where = stack_location(s.value("user_stack", json::array()), show);
      out << "  specialized: " << (where.empty() ? "" : where + ": ") << value_text(s.value("name", json("?")))
          << " = " << value_text(s.value("value", json(nullptr))) << " (" << value_text(s.value("type", json("")))
          << ")\n";
    }
    if (capture && r.contains("onnx") && r["onnx"].is_object()) print_onnx(out, r["onnx"], show);
  }
  std::string verdict = verdict_text(result);
  out << "  " << verdict << "\n\n";
}

std::string verdict_text(const VerifyResult& result) {
  const json& r = result.report;
  switch (result.status) {
    case VerifyStatus::Passed: return passed_verdict(result.job.backend);
    case VerifyStatus::Failed: {
      std::string why;
      for (const std::string& p : report_problems(r.is_object() ? r : json::object())) {
        why += (why.empty() ? "" : ", ") + p;
      }
      if (!result.message.empty()) why += (why.empty() ? "" : "; ") + result.message;
      return "FAILED: " + (why.empty() ? std::string("not captured in one graph") : why);
    }
    case VerifyStatus::Error: return "ERROR: " + result.message;
  }
  return "ERROR: " + result.message;
}

std::vector<ReportedSite> reported_sites(const json& report) {
  std::vector<ReportedSite> out;
  if (!report.is_object()) return out;
  auto add = [&](const json& item, const std::string& what) {
    if (!item.is_object()) return;
    const json stack = item.value("user_stack", json::array());
    const json& frame = innermost(stack);
    if (!frame.is_object() || !frame.contains("filename") || !frame["filename"].is_string()) return;
    const json& code = item.contains("code") ? item["code"] : json();
    out.push_back({frame["filename"].get<std::string>(), frame.value("lineno", 0), frame.value("line", ""),
                   code.is_string() ? code.get<std::string>() : "", what});
  };
  for (const json& b : report.value("break_reasons", json::array())) add(b, "graph break: " + reason_text(b));
  for (const json& stage : report.value("stages", json::array())) {
    if (!stage.is_object() || stage.value("ok", false) || !stage.contains("failure")) continue;
    add(stage["failure"], stage.value("name", std::string("stage")) + " failed: " + reason_text(stage["failure"]));
  }
  for (const json& e : report.value("side_effects", json::array())) {
    if (!e.is_object()) continue;
    add(e, "side effect: " + value_text(e.value("kind", json(""))) + " " + value_text(e.value("target", json(""))));
  }
  return out;
}

void print_verify_summary(std::ostream& out, std::span<const VerifyResult> results) {
  size_t passed = 0, failed = 0, errors = 0;
  for (const VerifyResult& r : results) {
    if (r.status == VerifyStatus::Passed) ++passed;
    if (r.status == VerifyStatus::Failed) ++failed;
    if (r.status == VerifyStatus::Error) ++errors;
  }
  // Dynamo and the capture pass a target in one graph; export and ONNX pass it whole.
  bool graphs = std::all_of(results.begin(), results.end(), [](const VerifyResult& r) {
    return r.job.backend == "capture" || r.job.backend == "dynamo";
  });
  out << "Verified " << plural(results.size(), "target") << ": " << passed << (graphs ? " in one graph" : " passed");
  if (failed) out << ", " << failed << " failed";
  if (errors) out << ", " << plural(errors, "error");
  out << ".\n";
}

void print_verify_json(std::ostream& out, std::span<const VerifyResult> results) {
  json targets = json::array();
  json summary = {{"targets", results.size()}, {"passed", 0}, {"failed", 0}, {"errors", 0}};
  for (const VerifyResult& r : results) {
    json entry = {{"target", r.job.target},
                  {"inputs", r.job.inputs},
                  {"mode", r.job.mode},
                  {"backend", r.job.backend},
                  {"status", status_name(r.status)},
                  {"problems", report_problems(r.report.is_object() ? r.report : json::object())},
                  {"message", r.message.empty() ? json(nullptr) : json(r.message)},
                  {"report", r.report}};
    targets.push_back(std::move(entry));
    std::string key = r.status == VerifyStatus::Passed ? "passed" : r.status == VerifyStatus::Failed ? "failed" : "errors";
    summary[key] = summary[key].get<int>() + 1;
  }
  out << json{{"targets", targets}, {"summary", summary}}.dump(2) << '\n';
}

}  // namespace fxlint::cli

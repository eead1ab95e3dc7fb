#pragma once
// How `fxlint verify` shows its results: `full` text per target and a
// summary, or one JSON document.
#include <functional>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "cli/verify_run.h"

namespace fxlint::cli {

// Turns a file name from the capture's stacks into what the user should see
// (relative to the working directory; the original file for a temporary copy).
using PathShower = std::function<std::string(const std::string&)>;

// One target: its graphs, breaks (code, file:line, reason), side effects,
// specializations and ONNX validity, or a real compiler's breaks and stages
// (each ok, or where and why it failed), then the verdict.
void print_verify_result(std::ostream& out, const VerifyResult& result, const PathShower& show);

// "Verified N targets: ..." line.
void print_verify_summary(std::ostream& out, std::span<const VerifyResult> results);

// {"targets": [...], "summary": {...}}: each target's status, backend and report.
void print_verify_json(std::ostream& out, std::span<const VerifyResult> results);

// "passed", "failed" or "error".
std::string_view status_name(VerifyStatus status);

// A break, failed stage or side effect that a report places in user code.
struct ReportedSite {
  std::string file;         // as the capture's stack names it
  int line = 0;             // 1-based
  std::string source_line;  // as the stack shows it
  std::string code;         // the rule it maps to, "" when none
  std::string what;         // "graph break: <reason>", "strict export failed: <reason>", ...
};
std::vector<ReportedSite> reported_sites(const nlohmann::json& report);

// The verdict print_verify_result ends with ("ok: ...", "FAILED: ...", "ERROR: ...").
std::string verdict_text(const VerifyResult& result);

// The innermost frame of a capture stack as "file:line", or "" when there is none.
std::string stack_location(const nlohmann::json& user_stack, const PathShower& show);

}  // namespace fxlint::cli

#include "cli/lint_options.h"

#include <string>

#include "cli/cli_error.h"
#include "cli/rule_selection.h"

namespace fxlint::cli {

namespace {

constexpr OptionSpec kShared[] = {
    {"--target", "", "TARGET", "Compiler to prepare for: fx2onnx (default), dynamo, export (non-strict; for strict also check dynamo)"},
    {"--scope", "", "SCOPE", "Compile regions only (reachable, default) or every function (all)"},
    {"--select", "", "CODES", "Rules to enable (comma-separated codes, prefixes, names or ALL); replaces config"},
    {"--extend-select", "", "CODES", "Rules to enable in addition to those selected"},
    {"--ignore", "", "CODES", "Rules to disable"},
    {"--config", "", "FILE", "Use this config file instead of searching for one"},
    {"--force-exclude", "", "", "Apply exclude settings to paths named on the command line too"},
    {"--no-respect-gitignore", "", "", "Include files that .gitignore files exclude"},
    {"--no-cache", "", "", "Accepted for compatibility with ruff: fxlint keeps no cache"},
    {"--jobs", "-j", "N", "Threads to use; 0 (default) uses every core"},
};

std::string invalid(const std::string& value, std::string_view option, std::string_view expected) {
  return "invalid value '" + value + "' for '" + std::string(option) + "'" + std::string(expected);
}

std::vector<std::string> selectors(const ParsedArgs& args, std::string_view option) {
  std::vector<std::string> out = args.list(option);
  for (const std::string& s : out) {
    if (!is_valid_selector(s)) {
      throw UsageError(invalid(s, option,
                               ": not a rule selector; expected ALL, a code prefix like FX1, a code like "
                               "FX101 or a rule name (see `fxlint rule --all`)"));
    }
  }
  return out;
}

unsigned parse_jobs(const std::string& value) {
  bool digits = !value.empty() && value.size() < 6;
  for (char c : value) digits = digits && c >= '0' && c <= '9';
  if (!digits) throw UsageError(invalid(value, "--jobs", "; expected a number of threads (0 = all cores)"));
  return static_cast<unsigned>(std::stoul(value));
}

}  // namespace

std::vector<OptionSpec> with_lint_options(std::span<const OptionSpec> own) {
  std::vector<OptionSpec> out(own.begin(), own.end());
  out.insert(out.end(), std::begin(kShared), std::end(kShared));
  out.push_back({"--help", "-h", "", "Print this help"});
  return out;
}

LintRequest read_lint_request(const ParsedArgs& args) {
  LintRequest request;
  request.paths = args.positionals();
  if (auto target = args.last("--target")) {
    request.target = parse_target(*target);
    if (!request.target) throw UsageError(invalid(*target, "--target", "; possible values: fx2onnx, dynamo, export"));
  }
  if (auto scope = args.last("--scope")) {
    if (*scope == "reachable") {
      request.scope = Scope::Reachable;
    } else if (*scope == "all") {
      request.scope = Scope::All;
    } else {
      throw UsageError(invalid(*scope, "--scope", "; possible values: reachable, all"));
    }
  }
  if (args.has("--select")) request.selection.select = selectors(args, "--select");
  request.selection.extend_select = selectors(args, "--extend-select");
  request.selection.ignore = selectors(args, "--ignore");
  if (auto config = args.last("--config")) request.config = *config;
  if (auto jobs = args.last("--jobs")) request.jobs = parse_jobs(*jobs);
  request.discovery.force_exclude = args.has("--force-exclude");
  request.discovery.respect_gitignore = !args.has("--no-respect-gitignore");
  return request;
}

}  // namespace fxlint::cli

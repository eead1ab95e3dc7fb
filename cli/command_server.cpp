#include "cli/command_server.h"

#include <algorithm>
#include <csignal>
#include <iostream>

#include "cli/arg_parser.h"
#include "cli/command_verify.h"
#include "cli/cli_error.h"
#include "cli/config_resolver.h"
#include "cli/file_discovery.h"
#include "cli/lint_run.h"
#include "cli/module_name.h"
#include "cli/python_environment.h"
#include "cli/verify_output.h"
#include "cli/verify_run.h"
#include "cli/version.h"
#include "lsp/server.h"

namespace fxlint::cli {

namespace fs = std::filesystem;

namespace {

constexpr OptionSpec kOptions[] = {
    {"--config", "", "FILE", "Use this config file for every document instead of searching for one"},
    {"--help", "-h", "", "Print this help"},
};

void print_help(std::ostream& out) {
  out << "Run the language server on standard input and output (JSON-RPC, as editors speak it).\n\n"
         "Usage: fxlint server [OPTIONS]\n\n"
         "Options:\n"
      << format_options(kOptions)
      << "\nSettings for each open file come from the config files `fxlint check` reads\n"
         "(the nearest pyproject.toml [tool.fxlint], fxlint.toml or .fxlint.toml).\n"
         "Exit status: 0 after the client's shutdown and exit, 1 when it left without shutdown.\n";
}

lsp::FileSettingsForLsp settings_for(const fs::path& cwd, const std::optional<fs::path>& forced,
                                     const std::string& path) {
  ConfigResolver configs(cwd, forced);  // fresh: config edits apply on the next lint
  fs::path file = normalize_path(path, cwd);
  const Config& config = configs.for_file(file);
  FileSettings resolved = file_settings(LintRequest{}, config, file);
  lsp::FileSettingsForLsp s;
  s.target = resolved.target;
  s.scope = resolved.scope;
  // Excluded as `check --force-exclude` would exclude it: the file or a directory above it.
  s.rules = is_excluded_by_config(file, configs) ? RuleSet{} : resolved.rules;
  s.torch_version = torch_version_for(config, nullptr);
  s.entry_points = config.entry_points;
  s.compile_functions = config.compile_functions;
  s.compile_decorators = config.compile_decorators;
  ModuleNamer modules;
  s.module_name = modules.name_of(file);
  s.module_aliases = modules.aliases_of(file);
  return s;
}

// The files `fxlint check ROOT` would lint: config excludes and .gitignore honoured.
std::vector<std::string> workspace_files(const fs::path& cwd, const std::optional<fs::path>& forced,
                                         const std::string& root) {
  ConfigResolver configs(cwd, forced);
  std::vector<fs::path> roots = {normalize_path(root, cwd)};
  Discovery found = discover_files(roots, configs, DiscoveryOptions{});
  std::vector<std::string> out;
  out.reserve(found.files.size());
  for (const fs::path& f : found.files) out.push_back(f.string());
  return out;
}

// The verify targets of the config governing `path` that are defined in it.
std::vector<lsp::RuntimeTarget> verify_targets_in(const fs::path& cwd, const std::optional<fs::path>& forced,
                                                  const std::string& path) {
  ConfigResolver configs(cwd, forced);
  fs::path file = normalize_path(path, cwd);
  const Config& config = configs.for_file(file);
  std::vector<lsp::RuntimeTarget> out;
  fs::path root = config.root.lexically_normal();
  for (const VerifyJob& job : config_verify_jobs(config.verify, root, std::nullopt, std::nullopt)) {
    size_t colon = job.target.rfind(':');
    if (colon == std::string::npos) continue;
    fs::path target_file = normalize_path(job.target.substr(0, colon), root);
    if (target_file != file) continue;
    out.push_back({job.target, job.inputs, job.backend, root.string(), target_file.string(), job.target.substr(colon + 1)});
  }
  return out;
}

// Runs one target as `fxlint verify` would, and places what it reports.
lsp::RuntimeVerification verify_target(const lsp::RuntimeTarget& target) {
  VerifyJob job;
  job.target = target.target;
  job.inputs = target.inputs;
  job.backend = target.backend;
  job.cwd = target.root;
  lsp::RuntimeVerification out;
  CaptureInstall install = capture_install();
  if (std::optional<std::string> why = capture_unavailable(install)) {
    out.summary = "cannot verify: " + *why;
    return out;
  }
  VerifyResult result = verify(install, job);
  out.ran = result.status != VerifyStatus::Error;
  out.passed = result.status == VerifyStatus::Passed;
  out.summary = verdict_text(result);
  for (const ReportedSite& site : reported_sites(result.report)) {
    fs::path file = normalize_path(site.file, target.root);
    out.findings.push_back({file.string(), static_cast<uint32_t>(std::max(site.line, 1)), site.source_line,
                            site.code, site.what});
  }
  return out;
}

}  // namespace

int run_server(std::span<const std::string> args, Io& io) {
  ParsedArgs parsed = parse_args(args, kOptions);
  if (parsed.has("--help")) {
    print_help(io.out);
    return 0;
  }
  if (!parsed.positionals().empty()) throw UsageError("unexpected argument '" + parsed.positionals()[0] + "'");
  std::optional<fs::path> forced;
  if (auto config = parsed.last("--config")) forced = normalize_path(*config, io.cwd);
  // A config named on the command line must load before the client connects.
  if (forced) ConfigResolver load_now(io.cwd, forced);

  lsp::ServerOptions options;
  options.version = kVersion;
  options.log = &io.err;
  options.settings = [cwd = io.cwd, forced](const std::string& path) { return settings_for(cwd, forced, path); };
  options.list_workspace = [cwd = io.cwd, forced](const std::string& root) { return workspace_files(cwd, forced, root); };
  options.verify_targets = [cwd = io.cwd, forced](const std::string& path) {
    return verify_targets_in(cwd, forced, path);
  };
  options.verify = verify_target;
  // An editor that closes its end of the pipe must not kill the server with
  // SIGPIPE: the write fails instead, and the server stops.
  std::signal(SIGPIPE, SIG_IGN);
  lsp::Server server(io.in, io.out, std::move(options));
  return server.run();
}

}  // namespace fxlint::cli

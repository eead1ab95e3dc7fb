#include "cli/command_verify.h"

#include <ostream>

#include "cli/arg_parser.h"
#include "cli/capture_process.h"
#include "cli/cli_error.h"
#include "cli/config_resolver.h"
#include "cli/file_discovery.h"
#include "cli/lint_run.h"
#include "cli/name_syntax.h"
#include "cli/verify_output.h"

namespace fxlint::cli {

namespace fs = std::filesystem;

const char* const kHowToConfigureVerify =
    "add targets to pyproject.toml:\n\n"
    "    [[tool.fxlint.verify.targets]]\n"
    "    target = \"path/to/model.py:Model\"\n"
    "    inputs = [\"float32[1,3,224,224]\"]\n\n"
    "(see docs/config.md), or name them: fxlint verify path/to/model.py:Model float32[1,3,224,224]";

namespace {

constexpr OptionSpec kOptions[] = {
    {"--backend", "", "BACKEND", "What verifies: capture (default), dynamo, export or onnx (see Backends)"},
    {"--mode", "", "MODE", "Capture mode: strict (one graph, no side effects; default) or dynamo (capture backend)"},
    {"--onnx", "", "PATH", "Write the ONNX model to PATH and validate it (one target; capture and onnx backends)"},
    {"--opset", "", "N", "ONNX opset for --onnx, config targets with `onnx` and the onnx backend (default 18)"},
    {"--output-format", "", "FORMAT", "Output format: full (default) or json"},
    {"--config", "", "FILE", "Read targets from this config file instead of the nearest one"},
    {"--help", "-h", "", "Print this help"},
};

void print_help(std::ostream& out) {
  out << "Capture targets with the bytecode capture, or run them through a real compiler, and report\n"
         "whether each traces into one graph.\n\n"
         "Usage: fxlint verify [OPTIONS] [TARGET [INPUT]...]...\n\n"
         "Arguments:\n"
         "  TARGET  path/to/file.py:Qualified.name: a function, Class.method or nn.Module class\n"
         "          (modules are built with no arguments and put in eval mode)\n"
         "  INPUT   the target's arguments, in order: a tensor float32[2,3] (any torch dtype,\n"
         "          float32[] for 0-d), int:3, float:0.5, bool:true, str:text, none, or a\n"
         "          factory module:make_inputs returning the arguments\n"
         "  Several targets may follow each other; without any, every target of the nearest\n"
         "  config's [tool.fxlint.verify] runs.\n\n"
         "Backends:\n"
         "  capture  the bundled bytecode capture: graphs, breaks, side effects, specializations\n"
         "  dynamo   torch._dynamo.explain: graph count, and each break with its reason and line\n"
         "  export   torch.export.export strict and non-strict: each passes, or its first failure and line\n"
         "  onnx     torch.onnx.export(dynamo=True) at --opset, then ONNX Runtime against eager\n"
         "  A break or failure carries the rule code it maps to (none when no rule matches).\n\n"
         "Options:\n"
      << format_options(kOptions)
      << "\nExit status: 0 every target captures in one graph with nothing failing (other backends:\n"
         "every stage passes), 1 a target breaks, fails strict checks or a backend's stage, raises or\n"
         "exports an invalid model, 2 usage or config error, a target that cannot be loaded, or the\n"
         "capture or backend cannot run.\n";
}

// "path/to/file.py:Qualified.name".
bool is_target(const std::string& word) {
  size_t colon = word.rfind(':');
  return colon != std::string::npos && colon > 3 && word.substr(0, colon).ends_with(".py") &&
         is_dotted_name(word.substr(colon + 1));
}

}  // namespace

std::optional<std::string> parse_backend(const ParsedArgs& args) {
  std::optional<std::string> backend = args.last("--backend");
  if (!backend) return std::nullopt;
  std::string names;
  for (std::string_view b : kVerifyBackends) {
    if (*backend == b) return backend;
    names += (names.empty() ? "" : ", ") + std::string(b);
  }
  throw UsageError("invalid value '" + *backend + "' for '--backend'; possible values: " + names);
}

namespace {

std::vector<VerifyJob> command_line_jobs(const std::vector<std::string>& words, const fs::path& cwd) {
  std::vector<VerifyJob> jobs;
  for (const std::string& word : words) {
    if (is_target(word)) {
      VerifyJob job;
      job.target = word;
      job.cwd = cwd;
      jobs.push_back(std::move(job));
      continue;
    }
    if (jobs.empty()) {
      throw UsageError("'" + word + "' is not a target; expected path/to/file.py:Qualified.name " +
                       "followed by its input specs (e.g. model.py:Net float32[1,3,224,224])");
    }
    jobs.back().inputs.push_back(word);
  }
  return jobs;
}

int parse_opset(const std::string& text) {
  bool digits = !text.empty() && text.size() < 4;
  for (char c : text) digits = digits && c >= '0' && c <= '9';
  int opset = digits ? std::stoi(text) : 0;
  if (opset < 7 || opset > 23) {
    throw UsageError("invalid value '" + text + "' for '--opset'; expected an ONNX opset from 7 to 23");
  }
  return opset;
}

// Where the target's file is, to report a missing one before starting Python.
fs::path target_file(const VerifyJob& job) {
  fs::path file = job.target.substr(0, job.target.rfind(':'));
  return file.is_absolute() ? file : job.cwd / file;
}

// Verifies every job (printing full results in the jobs' order as they come)
// and returns the exit status.
[[maybe_unused]] int run_jobs(const CaptureInstall& install, std::span<const VerifyJob> jobs, bool json, Io& io) {
  std::vector<std::optional<VerifyResult>> slots(jobs.size());
  std::vector<VerifyJob> runnable;
  std::vector<size_t> slot_of;
  for (size_t i = 0; i < jobs.size(); ++i) {
    std::error_code ec;
    if (fs::is_regular_file(target_file(jobs[i]), ec)) {
      runnable.push_back(jobs[i]);
      slot_of.push_back(i);
      continue;
    }
    VerifyResult missing;
    missing.job = jobs[i];
    missing.message = display_path(target_file(jobs[i]), io.cwd) + ": no such file (target " + jobs[i].target + ")";
    slots[i] = std::move(missing);
  }
  size_t shown = 0;
  auto show_ready = [&] {
    for (; shown < slots.size() && slots[shown]; ++shown) {
      if (json) continue;
      const VerifyJob& job = slots[shown]->job;
      PathShower show = [&](const std::string& p) {
        fs::path path(p);
        return display_path(path.is_absolute() ? path : job.cwd / path, io.cwd);
      };
      print_verify_result(io.out, *slots[shown], show);
      io.out.flush();
    }
  };
  show_ready();
  verify_all(install, runnable, [&](size_t k, VerifyResult result) {
    slots[slot_of[k]] = std::move(result);
    show_ready();
  });
  std::vector<VerifyResult> results;
  for (std::optional<VerifyResult>& r : slots) results.push_back(std::move(*r));
  if (json) {
    print_verify_json(io.out, results);
  } else {
    print_verify_summary(io.out, results);
  }
  for (const VerifyResult& r : results) {
    if (r.status == VerifyStatus::Error) io.err << "error: " << r.job.target << ": " << r.message << '\n';
  }
  int status = 0;
  for (const VerifyResult& r : results) {
    if (r.status == VerifyStatus::Error) return 2;
    if (r.status == VerifyStatus::Failed) status = 1;
  }
  return status;
}

}  // namespace

std::vector<VerifyJob> config_verify_jobs(const VerifyConfig& verify, const fs::path& root,
                                          const std::optional<std::string>& mode,
                                          const std::optional<std::string>& backend) {
  std::vector<VerifyJob> jobs;
  for (const VerifyTarget& t : verify.targets) {
    VerifyJob job;
    job.target = t.target;
    job.inputs = t.factory ? std::vector<std::string>{*t.factory} : t.inputs;
    job.mode = mode.value_or(t.mode.value_or(verify.mode));
    job.backend = backend.value_or(t.backend.value_or(verify.backend));
    // A path to write a model to means nothing to a backend that writes none.
    if (backend_exports_onnx(job.backend)) job.onnx = t.onnx;
    job.opset = verify.opset;
    job.cwd = root;
    jobs.push_back(std::move(job));
  }
  return jobs;
}

int run_verify(std::span<const std::string> argv, Io& io) {
  ParsedArgs args = parse_args(argv, kOptions);
  if (args.has("--help")) {
    print_help(io.out);
    return 0;
  }
  std::optional<std::string> mode = args.last("--mode");
  if (mode && *mode != "strict" && *mode != "dynamo") {
    throw UsageError("invalid value '" + *mode + "' for '--mode'; possible values: strict, dynamo");
  }
  std::optional<std::string> backend = parse_backend(args);
  if (mode && backend && *backend != "capture") {
    throw UsageError("'--mode' is the capture's; the " + *backend + " backend has no modes");
  }
  std::string format = args.last("--output-format").value_or("full");
  if (format != "full" && format != "json") {
    throw UsageError("invalid value '" + format + "' for '--output-format'; possible values: full, json");
  }
  std::optional<int> opset;
  if (auto text = args.last("--opset")) opset = parse_opset(*text);

  std::vector<VerifyJob> jobs = command_line_jobs(args.positionals(), io.cwd);
  if (jobs.empty()) {
    std::optional<fs::path> forced;
    if (auto config = args.last("--config")) forced = normalize_path(*config, io.cwd);
    ConfigResolver configs(io.cwd, forced);
    const Config& config = configs.for_directory(io.cwd.lexically_normal());
    if (config.verify.targets.empty()) {
      std::string where = config.file.empty() ? "no config file found"
                                              : display_path(config.file, io.cwd) + " has no verify targets";
      throw UsageError("nothing to verify: " + where + "; " + kHowToConfigureVerify);
    }
    jobs = config_verify_jobs(config.verify, config.root, mode, backend);
    if (opset) {
      for (VerifyJob& job : jobs) job.opset = *opset;
    }
  } else {
    for (VerifyJob& job : jobs) {
      job.mode = mode.value_or("strict");
      job.backend = backend.value_or("capture");
      job.opset = opset.value_or(VerifyConfig{}.opset);
    }
  }
  if (auto onnx = args.last("--onnx")) {
    for (const VerifyJob& job : jobs) {
      if (!backend_exports_onnx(job.backend)) {
        throw UsageError("'--onnx' writes an ONNX model, which the " + job.backend +
                         " backend does not make; use --backend onnx or capture");
      }
    }
    if (jobs.size() != 1) {
      throw UsageError("'--onnx' exports one target, but there are " + std::to_string(jobs.size()) +
                       "; give one target, or set `onnx` per target in [[tool.fxlint.verify.targets]]");
    }
    jobs.front().onnx = *onnx;
  }

#ifndef FXLINT_HAS_CAPTURE
  io.err << "error: this build of fxlint has no bytecode capture; reconfigure with "
            "-DFXLINT_BUILD_CAPTURE=ON (needs /usr/bin/python3 3.11 with torch and pybind11) and rebuild\n";
  return 2;
#else
  CaptureInstall install = capture_install();
  if (std::optional<std::string> why = capture_unavailable(install)) {
    io.err << "error: cannot verify: " << *why << '\n';
    return 2;
  }
  return run_jobs(install, jobs, format == "json", io);
#endif
}

}  // namespace fxlint::cli

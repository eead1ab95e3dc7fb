#include "cli/command_fix.h"

#include <unistd.h>

#include <algorithm>
#include <functional>
#include <set>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <tuple>

#include "cli/arg_parser.h"
#include "cli/cli_error.h"
#include "cli/capture_process.h"
#include "cli/command_verify.h"
#include "cli/config_resolver.h"
#include "cli/file_discovery.h"
#include "cli/fix_rollback.h"
#include "cli/fix_verify.h"
#include "cli/lint_options.h"
#include "cli/lint_run.h"
#include "cli/module_name.h"
#include "cli/python_environment.h"
#include "cli/rule_selection.h"
#include "cli/source_reader.h"
#include "cli/verify_output.h"
#include "core/source_encoding.h"
#include "rewriter/atomic_write.h"
#include "rewriter/fix_loop.h"
#include "rewriter/fix_summary.h"
#include "rewriter/text_style.h"
#include "rewriter/unified_diff.h"
#include "rules/check_session.h"

namespace fxlint::cli {

namespace fs = std::filesystem;

namespace {

constexpr OptionSpec kFixOptions[] = {
    {"--apply", "", "", "Write the fixed files (atomically) instead of showing the diff"},
    {"--unsafe-fixes", "", "", "Include unsafe fixes: they may change what the code computes"},
    {"--exit-non-zero-on-fix", "", "", "With --apply, exit 1 when anything was fixed, even if nothing remains"},
    {"--verify", "", "", "Capture the config's verify targets on the fixed code first, and compare their eager "
                         "outputs; roll back the fixes that make one worse or change its output"},
    {"--backend", "", "BACKEND", "With --verify: capture (strict; default), dynamo, export or onnx"},
};
const std::vector<OptionSpec> kOptions = with_lint_options(kFixOptions);

void print_help(std::ostream& out) {
  out << "Apply the fixes: show them as a unified diff, or write them with --apply.\n\n"
         "Usage: fxlint fix [OPTIONS] [PATH]...\n\n"
         "Arguments:\n  [PATH]...  Files or directories to fix (default: .)\n\n"
         "Options:\n"
      << format_options(kOptions)
      << "\nExit status: 0 nothing to change (with --apply: nothing left), 1 changes to show or\n"
         "diagnostics left after --apply, or --verify refused the fixes, 2 usage, config or\n"
         "internal error, or a file that could not be fixed or written (it is left as it was).\n";
}

LintRequest lint_request(const ParsedArgs& args) {
  LintRequest request = read_lint_request(args);
  for (const std::string& p : request.paths) {
    if (p == "-") throw UsageError("fix works on files; save standard input to a file to fix it");
  }
  return request;
}

// A file the loop may fix.
struct PlannedFile {
  fs::path path;
  std::string display;
  EncodedText encoded;
  std::optional<size_t> verify_targets;  // into FixPlan::verify_targets: its config's, when it has any
};

struct FixPlan {
  std::vector<PlannedFile> files;
  std::vector<SourceInput> inputs;  // per file, as check_sources takes them (the text set per pass)
  std::vector<SourceInput> context;  // the files they import, analysed with them (import_context.h)
  CheckOptions options;             // one analysis of every file, as `check` does it
  std::vector<std::string> problems;  // files that cannot be fixed, and why
  std::vector<std::string> warnings;  // about the settings
  std::vector<NestedVerifyTargets> verify_targets;  // of the configs that govern the files, where they have any
};

// The same config, discovery, rule selection and module naming as `check`.
FixPlan plan_fix(const LintRequest& request, const fs::path& cwd) {
  std::optional<fs::path> forced;
  if (request.config) forced = normalize_path(*request.config, cwd);
  ConfigResolver configs(cwd, forced);
  std::vector<fs::path> roots;
  for (const std::string& p : request.paths) roots.push_back(normalize_path(p, cwd));
  if (roots.empty()) roots.push_back(cwd);
  Discovery found = discover_files(roots, configs, request.discovery);

  FixPlan plan;
  for (const PathProblem& p : found.problems) {
    plan.problems.push_back(display_path(p.path, cwd) + ": " + p.message);
  }
  ModuleNamer modules;
  plan.options.jobs = request.jobs;
  std::set<const Config*> seen;
  std::map<fs::path, size_t> targets_of;  // by config root
  std::vector<SourceFile> sources = read_source_files(found.files, request.jobs);
  for (ImportedFile& f : imported_files(sources, modules)) {
    plan.context.push_back(context_input(request, configs.for_file(f.source.path), f, &plan.warnings));
  }
  for (SourceFile& source : sources) {
    std::string shown = display_path(source.path, cwd);
    if (source.error) {
      plan.problems.push_back(shown + ": " + *source.error + "; not fixed");
      continue;
    }
    EncodedText encoded = EncodedText::decode(std::move(source.text));
    if (first_invalid_utf8(encoded.text)) {
      plan.problems.push_back(shown + ": file is not valid UTF-8; not fixed");
      continue;
    }
    const Config& config = configs.for_file(source.path);
    if (seen.insert(&config).second) add_project_options(plan.options, config);
    std::optional<size_t> targets;
    if (!config.verify.targets.empty()) {
      auto [t, first] = targets_of.try_emplace(config.root.lexically_normal(), plan.verify_targets.size());
      if (first) plan.verify_targets.push_back({config.root.lexically_normal(), config.verify});
      targets = t->second;
    }
    plan.inputs.push_back(source_input(request, config, source.path, shown, modules.name_of(source.path), "",
                                       &plan.warnings));
    plan.inputs.back().module_aliases = modules.aliases_of(source.path);
    plan.files.push_back({source.path, shown, std::move(encoded), targets});
  }
  return plan;
}

// The config whose `[tool.fxlint.verify]` targets `--verify` runs; a usage
// error (saying how to add targets) when it has none.
Config config_for_verify(const LintRequest& request, const fs::path& cwd) {
  std::optional<fs::path> forced;
  if (request.config) forced = normalize_path(*request.config, cwd);
  ConfigResolver configs(cwd, forced);
  Config config = configs.for_directory(cwd.lexically_normal());
  if (config.verify.targets.empty()) {
    std::string where = config.file.empty() ? "no config file found"
                                            : display_path(config.file, cwd) + " has no verify targets";
    throw UsageError("'--verify' captures the config's verify targets, but " + where + "; " +
                     kHowToConfigureVerify);
  }
  return config;
}

// Captures the verify targets against the fixed code in a temporary copy of
// the project. Returns the exit status when verification refuses the fixes
// (nothing is written or shown then), nullopt to go on.
std::vector<FixedFile> fixed_files(const FixPlan& plan, const std::vector<FileFixResult>& results,
                                   const std::vector<size_t>* only = nullptr) {
  std::vector<FixedFile> fixed;
  for (size_t i = 0; i < results.size(); ++i) {
    if (results[i].status != FixStatus::Fixed) continue;
    if (only && std::find(only->begin(), only->end(), i) == only->end()) continue;
    fixed.push_back({plan.files[i].path, EncodedText{plan.files[i].encoded.bom, results[i].fixed}.encode()});
  }
  return fixed;
}

// A target the fixes made worse: its eager output changed, it passed and now
// fails, it ran and now cannot, or it reports more problems (breaks, side
// effects) than before.
bool regressed(const VerifyResult& now, const EagerCheck& eager, const VerifyResult& before) {
  if (eager.changed) return true;
  if (before.status == VerifyStatus::Passed) return now.status != VerifyStatus::Passed;
  if (now.status == VerifyStatus::Error) return before.status != VerifyStatus::Error;
  if (before.status == VerifyStatus::Error) return false;
  return report_problems(now.report).size() > report_problems(before.report).size();
}

std::vector<size_t> regressions(const FixVerification& now, const FixVerification& before) {
  std::vector<size_t> out;
  for (size_t t = 0; t < now.results.size() && t < before.results.size(); ++t) {
    if (regressed(now.results[t], now.eager[t], before.results[t])) out.push_back(t);
  }
  return out;
}

// Re-runs the fix loop with some rules' fixes left out, per file.
using Refix = std::function<std::vector<FileFixResult>(const std::vector<std::set<std::string>>& blocked)>;

// What passing means for `backend`, for the messages of `fix --verify`.
std::string passing(const std::string& backend) {
  if (backend == "dynamo") return "capture in one graph (Dynamo)";
  if (backend == "export") return "export (torch.export, strict and non-strict)";
  if (backend == "onnx") return "export to ONNX and agree with eager in ONNX Runtime";
  if (backend == "capture") return "capture in one graph (strict)";
  return "pass their backends";
}

// The backend every target runs with: `--backend`, else the config's own
// ("" when the targets' backends differ).
std::string common_backend(const Config& config, const std::optional<std::string>& backend) {
  if (backend) return *backend;
  for (const VerifyTarget& t : config.verify.targets) {
    if (t.backend.value_or(config.verify.backend) != config.verify.backend) return "";
  }
  return config.verify.backend;
}

// The targets of the configs that govern fixed files, other than `config`
// (the working directory's, whose root is the project copied): those in
// directories inside that project. Targets elsewhere have no copy to run in;
// their files are warned about as outside the project.
std::vector<NestedVerifyTargets> nested_verify_targets(const Config& config, const FixPlan& plan,
                                                       const std::vector<FileFixResult>& results) {
  std::vector<bool> wanted(plan.verify_targets.size(), false);
  for (size_t i = 0; i < results.size() && i < plan.files.size(); ++i) {
    if (results[i].status == FixStatus::Fixed && plan.files[i].verify_targets) {
      wanted[*plan.files[i].verify_targets] = true;
    }
  }
  const fs::path root = config.root.lexically_normal();
  std::vector<NestedVerifyTargets> nested;
  for (size_t k = 0; k < wanted.size(); ++k) {
    const NestedVerifyTargets& n = plan.verify_targets[k];
    fs::path relative = n.root.lexically_relative(root);
    if (!wanted[k] || relative.empty() || relative == "." || *relative.begin() == "..") continue;
    nested.push_back(n);
  }
  return nested;
}

// How target `t` of `run` is worse than before the fixes, after "verify target X".
std::string how_worse(const FixVerification& run, size_t t, const std::string& backend) {
  if (run.eager[t].changed) return "computes a different eager output";
  return backend == "capture" ? "captures worse" : "verifies worse";
}

// `fix --verify`: the verify targets are captured on a copy of the project
// with the fixes (or run through `backend`), and run eagerly there and on the
// unfixed project. A fix that makes a target worse than it was before the
// fixes (or changes its eager output) is rolled back (found by halving the
// fixed files, then rule by rule), and the rest is kept; nullopt to go on and
// write, else the exit status.
std::optional<int> verify_fixes(const Config& config, const FixPlan& plan, std::vector<FileFixResult>& results,
                                const Refix& refix, const std::optional<std::string>& backend_option, Io& io) {
  const std::string backend = common_backend(config, backend_option);
  std::vector<FixedFile> fixed = fixed_files(plan, results);
  if (fixed.empty()) return std::nullopt;  // nothing changes, so nothing to refuse
  FixVerifier verifier(capture_install(), config, nested_verify_targets(config, plan, results), backend_option);
  FixVerification all = verifier.verify(fixed);
  for (const fs::path& outside : all.outside) {
    io.err << "warning: " << display_path(outside, io.cwd) << " is outside " << display_path(config.root, io.cwd)
           << ", the project the verify targets run in; its fixes are not verified\n";
  }
  auto plural = [](size_t n) { return std::to_string(n) + (n == 1 ? " target" : " targets"); };
  // What the eager comparison of `run` found, for the last line.
  auto eager_summary = [&](const FixVerification& run) {
    size_t unchecked = 0;
    for (size_t t = 0; t < run.eager.size(); ++t) {
      if (run.eager[t].compared || run.eager[t].message.empty()) continue;  // compared, or nothing fixed in it
      ++unchecked;
      io.err << "warning: the eager output of verify target " << run.results[t].job.target
             << " was not compared: " << run.eager[t].message << '\n';
    }
    if (unchecked == 0) return std::string("eager outputs unchanged");
    return "eager outputs unchanged where compared (" + std::to_string(run.eager.size() - unchecked) + " of " +
           plural(run.eager.size()) + ")";
  };
  if (all.passed()) {
    std::string eager = eager_summary(all);
    io.err << "Verified the fixed code: " << plural(all.results.size()) << " " << passing(backend) << "; "
           << eager << ".\n";
    return std::nullopt;
  }
  FixVerification before = verifier.verify({});
  std::vector<size_t> worse = regressions(all, before);
  FixVerification final_run = std::move(all);
  if (!worse.empty()) {
    std::vector<std::set<std::string>> applied(results.size());
    for (size_t i = 0; i < results.size(); ++i) {
      if (results[i].status != FixStatus::Fixed) continue;
      for (const AppliedFix& a : results[i].applied) applied[i].insert(a.code);
    }
    RegressionTest test = [&](const std::vector<size_t>& files, const std::vector<std::set<std::string>>& blocked) {
      bool any_blocked = false;
      for (const auto& b : blocked) any_blocked = any_blocked || !b.empty();
      std::vector<FileFixResult> trial = any_blocked ? refix(blocked) : results;
      FixVerification trial_run = verifier.verify(fixed_files(plan, trial, &files));
      return !regressions(trial_run, before).empty();
    };
    std::vector<std::set<std::string>> rollback = find_rollback(applied, test);
    std::vector<FileFixResult> kept = refix(rollback);
    FixVerification checked = verifier.verify(fixed_files(plan, kept));
    PathShower show = original_path_shower(final_run, config.root, io.cwd);
    if (!regressions(checked, before).empty()) {
      for (size_t t : worse) {
        io.err << "error: verify target " << final_run.results[t].job.target << " "
               << how_worse(final_run, t, backend) << " with the fixes than without"
               << " (lines are those of the fixed code):\n";
        print_verify_result(io.err, final_run.results[t], show);
      }
      io.err << "Nothing was written or shown: verification of the fixed code failed.\n";
      return 1;
    }
    for (size_t i = 0; i < rollback.size(); ++i) {
      if (rollback[i].empty()) continue;
      std::string codes;
      for (const std::string& c : rollback[i]) codes += (codes.empty() ? "" : ", ") + c;
      io.err << "warning: rolled back the " << codes << " fixes in " << results[i].path
             << ": with them, verify target " << final_run.results[worse.front()].job.target << " "
             << how_worse(final_run, worse.front(), backend) << " than without:\n";
      print_verify_result(io.err, final_run.results[worse.front()], show);
    }
    results = std::move(kept);
    final_run = std::move(checked);
  }
  PathShower show = original_path_shower(final_run, config.root, io.cwd);
  size_t still = 0;
  for (size_t t = 0; t < final_run.results.size(); ++t) {
    const VerifyResult& r = final_run.results[t];
    if (r.status == VerifyStatus::Passed) continue;
    ++still;
    io.err << "warning: verify target " << r.job.target << " does not "
           << (backend == "capture" ? std::string("capture in one graph") : passing(backend))
           << ", with the fixes or without (lines are those of the fixed code):\n";
    print_verify_result(io.err, r, show);
  }
  std::string eager = eager_summary(final_run);
  io.err << "Verified the fixed code: " << plural(final_run.results.size() - still) << " of "
         << final_run.results.size() << " " << passing(backend) << "; none "
         << (backend == "capture" ? "captures" : "verifies") << " worse than before the fixes; " << eager << ".\n";
  return std::nullopt;
}

}  // namespace

int run_fix(std::span<const std::string> argv, Io& io, const CheckFunction& check, bool color) {
  ParsedArgs args = parse_args(argv, kOptions);
  if (args.has("--help")) {
    print_help(io.out);
    return 0;
  }
  LintRequest request = lint_request(args);
  const bool apply = args.has("--apply");
  const bool unsafe = args.has("--unsafe-fixes");
  const bool verify = args.has("--verify");
  std::optional<std::string> backend = parse_backend(args);
  if (backend && !verify) throw UsageError("'--backend' chooses what verifies the fixes; it needs '--verify'");
  // The targets come from the config that governs the working directory (or --config).
  std::optional<Config> verify_config;
  if (verify) {
    verify_config = config_for_verify(request, io.cwd);
#ifndef FXLINT_HAS_CAPTURE
    io.err << "error: '--verify' confirms fixes with the bytecode capture, which this build of fxlint "
              "does not include (reconfigure with -DFXLINT_BUILD_CAPTURE=ON); run `fxlint fix` without it\n";
    return 2;
#endif
    if (std::optional<std::string> why = capture_unavailable(capture_install())) {
      io.err << "error: cannot verify: " << *why << '\n';
      return 2;
    }
  }

  FixPlan plan = plan_fix(request, io.cwd);
  for (const std::string& w : plan.warnings) io.err << "warning: " << w << '\n';
  if (plan.files.empty() && plan.problems.empty()) {
    io.err << "warning: no Python files found under the given path(s)\n";
  }
  std::vector<FixInput> inputs;
  for (const PlannedFile& f : plan.files) inputs.push_back({f.display, f.encoded.text});
  // The context after the files, whose results are dropped.
  plan.inputs.insert(plan.inputs.end(), std::make_move_iterator(plan.context.begin()),
                     std::make_move_iterator(plan.context.end()));
  LintFunction lint = [&](std::span<const std::string> texts) {
    for (size_t k = 0; k < texts.size(); ++k) plan.inputs[k].text = texts[k];
    std::vector<std::vector<Diagnostic>> out = check(plan.inputs, plan.options);
    out.resize(texts.size());
    return out;
  };
  FixLoopOptions options;
  options.mode = unsafe ? FixMode::IncludeUnsafe : FixMode::SafeOnly;
  std::vector<FileFixResult> results = fix_until_stable(std::move(inputs), lint, options);

  if (verify_config) {
    Refix refix = [&](const std::vector<std::set<std::string>>& blocked) {
      FixLoopOptions again = options;
      again.blocked = blocked;
      std::vector<FixInput> texts;
      for (const PlannedFile& f : plan.files) texts.push_back({f.display, f.encoded.text});
      return fix_until_stable(std::move(texts), lint, again);
    };
    if (std::optional<int> refused =
            verify_fixes(*verify_config, plan, results, refix, backend, io)) {
      return *refused;
    }
  }

  // Files in display order, like check's output.
  std::vector<size_t> order(results.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return results[x].path < results[y].path; });
  for (size_t i : order) {
    FileFixResult& r = results[i];
    if (r.status != FixStatus::Fixed) continue;
    if (!apply) {
      io.out << unified_diff(r.original, r.fixed, r.path, {3, color});
      continue;
    }
    const std::string target = plan.files[i].path.string();
    EncodedText fixed{plan.files[i].encoded.bom, r.fixed};
    EncodedText read{plan.files[i].encoded.bom, r.original};
    if (std::optional<std::string> failed = write_file_atomically(target, fixed.encode(), read.encode())) {
      std::string why = failed->starts_with(target + ": ") ? failed->substr(target.size() + 2) : *failed;
      keep_original(r, FixStatus::Unchanged, r.path + ": " + why);
    }
  }

  FixSummary summary = summarize_fixes(results);
  std::vector<std::string> errors = plan.problems;
  errors.insert(errors.end(), summary.errors.begin(), summary.errors.end());
  for (const std::string& e : errors) io.err << "error: " << e << '\n';
  io.err << render_fix_summary(summary, apply);
  if (!apply && summary.fixed > 0) {
    io.err << "Run `fxlint fix --apply" << (unsafe ? " --unsafe-fixes" : "") << "` to write these changes.\n";
  }

  if (!errors.empty()) return 2;
  if (!apply) return summary.fixed > 0 ? 1 : 0;
  if (summary.remaining > 0) return 1;
  return args.has("--exit-non-zero-on-fix") && summary.fixed > 0 ? 1 : 0;
}

int run_fix(std::span<const std::string> args, Io& io) {
  bool color = &io.out == &std::cout && isatty(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr;
  // One session for every pass: a pass parses again only the files the one before rewrote,
  // and reuses the analysis of the others while no file's interface changed.
  CheckSession session;
  CheckFunction check = [&session](std::span<const SourceInput> inputs, const CheckOptions& options) {
    std::vector<SessionInput> in;
    in.reserve(inputs.size());
    for (const SourceInput& s : inputs) in.push_back({&s});
    return session.check(in, options);
  };
  return run_fix(args, io, check, color);
}

}  // namespace fxlint::cli

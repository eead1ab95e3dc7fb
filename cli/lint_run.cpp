#include "cli/lint_run.h"

#include <algorithm>
#include <istream>
#include <iterator>
#include <map>
#include <set>

#include "analyzer/project_model.h"
#include "cli/config_resolver.h"
#include "cli/import_context.h"
#include "cli/module_name.h"
#include "cli/python_environment.h"
#include "cli/source_reader.h"
#include "core/source_encoding.h"

namespace fxlint::cli {

namespace fs = std::filesystem;

namespace {

Diagnostic file_problem(std::string message, TextRange range = {}) {
  return {"FX900", std::move(message), range, Severity::Error, std::nullopt};
}

bool reads_stdin(const LintRequest& request) {
  return request.stdin_filename.has_value() || (request.paths.size() == 1 && request.paths[0] == "-");
}

}  // namespace

FileSettings file_settings(const LintRequest& request, const Config& config, const fs::path& file) {
  FileSettings s;
  s.target = request.target.value_or(config.target.value_or(Target::Fx2Onnx));
  s.scope = request.scope.value_or(config.scope.value_or(Scope::Reachable));
  RuleSelection from_config{config.select, config.extend_select, config.ignore};
  RuleSelection layers[] = {from_config, request.selection};
  s.rules = resolve_rules(s.target, layers);
  for (const PerFileIgnore& p : config.per_file_ignores) {
    if (p.pattern.matches(file)) s.rules = without_rules(s.rules, p.selectors);
  }
  return s;
}

SourceInput source_input(const LintRequest& request, const Config& config, const fs::path& file, std::string shown,
                         std::string module_name, std::string text, std::vector<std::string>* warnings) {
  FileSettings settings = file_settings(request, config, file);
  SourceInput in{std::move(shown), std::move(module_name), std::move(text), settings.rules, settings.target};
  in.scope = settings.scope;
  in.torch_version = torch_version_for(config, warnings);
  return in;
}

SourceInput context_input(const LintRequest& request, const Config& config, ImportedFile& file,
                          std::vector<std::string>* warnings) {
  SourceInput in = source_input(request, config, file.source.path, file.source.path.generic_string(),
                                std::move(file.module_name), std::move(file.source.text), warnings);
  in.enabled = {};  // analysed for the files that import it; nothing reported
  return in;
}

void add_project_options(CheckOptions& options, const Config& config) {
  add_compile_ways(options, config.entry_points, config.compile_functions, config.compile_decorators);
}

std::string display_path(const fs::path& path, const fs::path& cwd) {
  fs::path rel = path.lexically_relative(cwd);
  std::string r = rel.generic_string();
  if (rel.empty() || r.starts_with("..")) return path.generic_string();
  return r;
}

LintOutcome run_lint(const LintRequest& request, std::istream& stdin_stream, const fs::path& cwd) {
  std::optional<fs::path> forced;
  if (request.config) forced = normalize_path(*request.config, cwd);
  ConfigResolver configs(cwd, forced);

  std::vector<SourceFile> sources;
  std::vector<PathProblem> problems;
  if (reads_stdin(request)) {
    fs::path name = normalize_path(request.stdin_filename.value_or("-"), cwd);
    if (request.discovery.force_exclude && request.stdin_filename && is_excluded_by_config(name, configs)) {
      return {};
    }
    SourceFile s;
    s.path = name;
    s.error = read_stream(stdin_stream, s.text);
    sources.push_back(std::move(s));
  } else {
    std::vector<fs::path> roots;
    for (const std::string& p : request.paths) roots.push_back(normalize_path(p, cwd));
    if (roots.empty()) roots.push_back(cwd);
    Discovery found = discover_files(roots, configs, request.discovery);
    problems = std::move(found.problems);
    sources = read_source_files(found.files, request.jobs);
  }

  LintOutcome outcome;
  outcome.files_checked = sources.size();
  for (const PathProblem& p : problems) {
    outcome.files.push_back({p.path, display_path(p.path, cwd), "", {file_problem(p.message)}});
  }

  // One analysis of every file: settings that differ between configs are per
  // file, and the ways code reaches a compiler are those of every config.
  std::vector<SourceInput> inputs;
  std::vector<size_t> result_index;
  CheckOptions options;
  options.jobs = request.jobs;
  options.release_memory = request.release_memory;
  options.checked_functions = &outcome.functions_checked;
  std::set<const Config*> seen;
  ModuleNamer modules;
  std::vector<ImportedFile> context = imported_files(sources, modules);
  for (SourceFile& source : sources) {
    FileResult result{source.path, display_path(source.path, cwd), "", {}};
    if (source.error) {
      result.diagnostics.push_back(file_problem(*source.error));
      outcome.files.push_back(std::move(result));
      continue;
    }
    if (std::optional<size_t> bad = first_invalid_utf8(source.text)) {
      auto at = static_cast<uint32_t>(*bad);
      result.diagnostics.push_back(file_problem(not_utf8_message(source.text), {at, at + 1}));
      result.text = std::move(source.text);
      outcome.files.push_back(std::move(result));
      continue;
    }
    const Config& config = configs.for_file(source.path);
    if (seen.insert(&config).second) add_project_options(options, config);
    result_index.push_back(outcome.files.size());
    inputs.push_back(source_input(request, config, source.path, result.display_path, modules.name_of(source.path),
                                  std::move(source.text), &outcome.warnings));
    inputs.back().module_aliases = modules.aliases_of(source.path);
    outcome.files.push_back(std::move(result));
  }

  // The project files these import, analysed with them and not reported.
  size_t linted = inputs.size();
  for (const SourceInput& in : inputs) outcome.all_reachable = outcome.all_reachable && in.scope == Scope::Reachable;
  for (ImportedFile& f : context) {
    inputs.push_back(context_input(request, configs.for_file(f.source.path), f, &outcome.warnings));
  }

  std::vector<UnmatchedEntryPoint> unmatched;
  options.unmatched_entry_points = &unmatched;
  std::vector<std::vector<Diagnostic>> found = check_sources(inputs, options);
  // A module that is not among the files is expected when only some files are
  // checked (pre-commit passes the changed ones); a name a checked module lacks is not.
  bool whole_tree = std::none_of(request.paths.begin(), request.paths.end(),
                                 [&](const std::string& p) { return fs::is_regular_file(normalize_path(p, cwd)); });
  for (const UnmatchedEntryPoint& e : unmatched) {
    if (e.module_found) {
      outcome.warnings.push_back("entry point `" + e.entry + "` names no function or class of its module");
    } else if (whole_tree && !reads_stdin(request)) {
      outcome.warnings.push_back("entry point `" + e.entry + "` names a module that is not among the checked files");
    }
  }
  inputs.resize(linted);
  for (size_t i = 0; i < inputs.size(); ++i) {
    FileResult& result = outcome.files[result_index[i]];
    result.text = std::move(inputs[i].text);
    if (i < found.size()) result.diagnostics = std::move(found[i]);
  }

  std::stable_sort(outcome.files.begin(), outcome.files.end(),
                   [](const FileResult& a, const FileResult& b) { return a.display_path < b.display_path; });
  return outcome;
}

}  // namespace fxlint::cli

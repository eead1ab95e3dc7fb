#include "cli/show_settings.h"

#include <ostream>

#include "cli/config_resolver.h"
#include "cli/module_name.h"
#include "cli/python_environment.h"

namespace fxlint::cli {

namespace fs = std::filesystem;

namespace {

Discovery discover(const LintRequest& request, const fs::path& cwd, ConfigResolver& configs) {
  std::vector<fs::path> roots;
  if (request.stdin_filename) {
    roots.push_back(normalize_path(*request.stdin_filename, cwd));
    Discovery d;
    if (!(request.discovery.force_exclude && is_excluded_by_config(roots[0], configs))) d.files = roots;
    return d;
  }
  for (const std::string& p : request.paths) roots.push_back(normalize_path(p, cwd));
  if (roots.empty()) roots.push_back(cwd);
  return discover_files(roots, configs, request.discovery);
}

std::optional<fs::path> forced_config(const LintRequest& request, const fs::path& cwd) {
  if (!request.config) return std::nullopt;
  return normalize_path(*request.config, cwd);
}

std::string quote(std::string_view s) { return "\"" + std::string(s) + "\""; }

template <typename List, typename Fn>
std::string list_of(const List& items, Fn text) {
  std::string out = "[";
  for (const auto& item : items) {
    if (out.size() > 1) out += ", ";
    out += quote(text(item));
  }
  return out + "]";
}

const std::string& same(const std::string& s) { return s; }

}  // namespace

int show_files(const LintRequest& request, const fs::path& cwd, std::ostream& out, std::ostream& err) {
  ConfigResolver configs(cwd, forced_config(request, cwd));
  Discovery found = discover(request, cwd, configs);
  for (const fs::path& f : found.files) out << display_path(f, cwd) << '\n';
  for (const PathProblem& p : found.problems) err << "error: " << display_path(p.path, cwd) << ": " << p.message << '\n';
  return found.problems.empty() ? 0 : 1;
}

int show_settings(const LintRequest& request, const fs::path& cwd, std::ostream& out, std::ostream& err) {
  ConfigResolver configs(cwd, forced_config(request, cwd));
  Discovery found = discover(request, cwd, configs);
  if (found.files.empty()) {
    err << "error: no Python files found under the given path(s)\n";
    return 1;
  }
  const fs::path& file = found.files.front();
  const Config& config = configs.for_file(file);
  FileSettings settings = file_settings(request, config, file);
  std::vector<std::string> rules;
  for (const RuleInfo& r : all_rules()) {
    if (settings.rules.test(static_cast<size_t>(r.id))) rules.emplace_back(r.code);
  }
  ModuleNamer modules;
  out << "Resolved settings for: " << display_path(file, cwd) << '\n';
  out << "Config file: " << (config.file.empty() ? "none (built-in defaults)" : config.file.string()) << '\n';
  out << "Module name: " << quote(modules.name_of(file)) << '\n';
  std::vector<std::string> aliases = modules.aliases_of(file);
  if (!aliases.empty()) {
    out << "Also imported as:";
    for (const std::string& a : aliases) out << ' ' << quote(a);
    out << '\n';
  }
  out << '\n';
  out << "target = " << quote(target_name(settings.target)) << '\n';
  out << "scope = " << quote(settings.scope == Scope::All ? "all" : "reachable") << '\n';
  std::vector<std::string> warnings;
  std::string torch_version = torch_version_for(config, &warnings);
  const std::optional<TorchInstall>& torch = installed_torch();
  out << "torch-version = " << quote(torch_version);
  if (config.torch_version) {
    out << "  # pinned by the config\n";
  } else if (torch) {
    out << "  # the environment's torch " << torch->version << ", " << torch->package.string() << '\n';
  } else {
    out << "  # unknown: no torch beside " << (python_environment().python.empty() ? std::string("any Python")
                                                                                  : python_environment().python.string())
        << "; fixes use the guards every torch 2.x has\n";
  }
  out << "rules = " << list_of(rules, same) << '\n';
  if (config.exclude) {
    out << "exclude = " << list_of(*config.exclude, [](const PathPattern& p) { return p.text(); }) << '\n';
  } else {
    out << "exclude = " << list_of(default_excludes(), same) << '\n';
  }
  out << "extend-exclude = " << list_of(config.extend_exclude, [](const PathPattern& p) { return p.text(); })
      << '\n';
  out << "per-file-ignores = {";
  for (size_t i = 0; i < config.per_file_ignores.size(); ++i) {
    const PerFileIgnore& p = config.per_file_ignores[i];
    out << (i ? ", " : "") << quote(p.pattern.text()) << " = " << list_of(p.selectors, same);
  }
  out << "}\n";
  out << "entry-points = " << list_of(config.entry_points, same) << '\n';
  out << "compile-functions = " << list_of(config.compile_functions, same) << '\n';
  out << "compile-decorators = " << list_of(config.compile_decorators, same) << '\n';
  return 0;
}

}  // namespace fxlint::cli

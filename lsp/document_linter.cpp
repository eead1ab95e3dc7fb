#include "lsp/document_linter.h"

#include <algorithm>
#include <iterator>
#include <memory>

namespace fxlint::lsp {

DocumentLinter::Resolved DocumentLinter::resolve(const std::string& path) const {
  Resolved r;
  if (!settings_) return r;
  try {
    r.settings = settings_(path);
  } catch (const std::exception& e) {
    r.error = path + ": " + e.what();
  }
  return r;
}

namespace {

SourceInput source_input(const FileSettingsForLsp& s, std::string path, std::string text) {
  SourceInput in{std::move(path), s.module_name, std::move(text), s.rules, s.target};
  in.module_aliases = s.module_aliases;
  in.scope = s.scope;
  in.torch_version = s.torch_version;
  return in;
}

}  // namespace

LintRun DocumentLinter::lint(std::span<const Document* const> documents, const Workspace& workspace,
                             const CancelFlag* cancel) {
  // One analysis of every file, as `fxlint check` does it: per-file settings
  // stay per file, and the ways code reaches a compiler are those of every config.
  LintRun run;
  CheckOptions options;
  options.jobs = 1;  // keep the server to one thread beside the editor
  options.cancel = cancel;
  auto add_options = [&](const FileSettingsForLsp& s) {
    add_compile_ways(options, s.entry_points, s.compile_functions, s.compile_decorators);
  };
  std::vector<std::unique_ptr<SourceInput>> opened;  // stable addresses for SessionInput
  std::vector<SessionInput> inputs;
  std::map<std::string, bool> open_paths;
  for (const Document* doc : documents) {
    Resolved r = doc->path ? resolve(*doc->path) : Resolved{};
    if (!r.error.empty()) run.settings_errors.push_back(r.error);
    add_options(r.settings);
    opened.push_back(std::make_unique<SourceInput>(source_input(r.settings, doc->path.value_or(doc->uri), doc->text)));
    inputs.push_back({opened.back().get(), true, true, 0});
    run.documents.push_back({doc, {}});
    if (doc->path) open_paths[*doc->path] = true;
  }
  // Workspace inputs follow the workspace: new and changed files are taken
  // in, files gone from it are dropped.
  for (auto it = workspace_.begin(); it != workspace_.end();) {
    it = workspace.files().count(it->first) ? std::next(it) : workspace_.erase(it);
  }
  for (const auto& [path, file] : workspace.files()) {
    if (open_paths.count(path)) continue;  // the editor's text replaces the file on disk
    auto [it, added] = workspace_.try_emplace(path);
    WorkspaceInput& w = it->second;
    if (added) {
      w.resolved = resolve(path);
      w.source = source_input(w.resolved.settings, path, {});
    }
    if (added || w.revision != file.revision) {
      w.source.text = file.text;
      w.revision = file.revision;
    }
    if (!w.resolved.error.empty()) run.settings_errors.push_back(w.resolved.error);
    add_options(w.resolved.settings);
    inputs.push_back({&w.source, false, false, w.revision});
  }

  std::vector<std::vector<Diagnostic>> found = session_.check(inputs, options);
  run.files_analysed = inputs.size();
  run.files_parsed = session_.last_parsed();
  for (size_t i = 0; i < run.documents.size() && i < found.size(); ++i) {
    run.documents[i].diagnostics = std::move(found[i]);
  }
  return run;
}

}  // namespace fxlint::lsp

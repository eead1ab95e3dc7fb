#include "lsp/document_linter.h"

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

LintRun DocumentLinter::lint(std::span<const Document* const> documents, const Workspace& workspace,
                             const std::atomic<bool>* cancel) {
  struct Group {
    std::vector<std::unique_ptr<SourceInput>> documents;  // stable addresses for SessionInput
    std::vector<SessionInput> inputs;
    std::vector<size_t> result_index;  // per input: the document's slot, or kNone for a workspace file
    CheckOptions options;
  };
  constexpr size_t kNone = static_cast<size_t>(-1);
  LintRun run;
  std::map<OptionsKey, Group> groups;
  auto group_for = [&](const FileSettingsForLsp& s) -> Group& {
    Group& group = groups[OptionsKey{s.scope, s.torch_version, s.entry_points, s.compile_functions,
                                     s.compile_decorators}];
    if (group.inputs.empty()) {
      group.options.scope = s.scope;
      group.options.torch_version = s.torch_version;
      group.options.entry_points = s.entry_points;
      group.options.compile_functions = s.compile_functions;
      group.options.compile_decorators = s.compile_decorators;
      group.options.jobs = 1;  // keep the server to one thread beside the editor
      group.options.cancel = cancel;
    }
    return group;
  };

  std::map<std::string, bool> open_paths;
  for (const Document* doc : documents) {
    Resolved r = doc->path ? resolve(*doc->path) : Resolved{};
    if (!r.error.empty()) run.settings_errors.push_back(r.error);
    const FileSettingsForLsp& s = r.settings;
    Group& group = group_for(s);
    group.documents.push_back(
        std::make_unique<SourceInput>(SourceInput{doc->path.value_or(doc->uri), s.module_name, doc->text, s.rules, s.target}));
    group.inputs.push_back({group.documents.back().get(), true, true, 0});
    group.result_index.push_back(run.documents.size());
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
      const FileSettingsForLsp& s = w.resolved.settings;
      w.source = SourceInput{path, s.module_name, {}, s.rules, s.target};
    }
    if (added || w.revision != file.revision) {
      w.source.text = file.text;
      w.revision = file.revision;
    }
    if (!w.resolved.error.empty()) run.settings_errors.push_back(w.resolved.error);
    Group& group = group_for(w.resolved.settings);
    group.inputs.push_back({&w.source, false, false, w.revision});
    group.result_index.push_back(kNone);
  }

  // Sessions of options no file uses any more are dropped.
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    it = groups.count(it->first) ? std::next(it) : sessions_.erase(it);
  }
  for (auto& [key, group] : groups) {
    CheckSession& session = sessions_[key];
    std::vector<std::vector<Diagnostic>> found = session.check(group.inputs, group.options);
    run.files_analysed += group.inputs.size();
    run.files_parsed += session.last_parsed();
    for (size_t i = 0; i < found.size(); ++i) {
      if (group.result_index[i] != kNone) {
        run.documents[group.result_index[i]].diagnostics = std::move(found[i]);
      }
    }
  }
  return run;
}

}  // namespace fxlint::lsp

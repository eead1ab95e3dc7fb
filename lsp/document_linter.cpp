#include "lsp/document_linter.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace fxlint::lsp {

namespace {

// What check_sources takes once per call rather than once per file.
using OptionsKey = std::tuple<Scope, std::string, std::vector<std::string>, std::vector<std::string>,
                              std::vector<std::string>>;

OptionsKey options_key(const FileSettingsForLsp& s) {
  return {s.scope, s.torch_version, s.entry_points, s.compile_functions, s.compile_decorators};
}

struct Group {
  std::vector<SourceInput> inputs;
  std::vector<size_t> result_index;
  CheckOptions options;
};

}  // namespace

LintRun lint_documents(std::span<const Document* const> documents, const FileSettingsProvider& settings) {
  LintRun run;
  std::map<OptionsKey, Group> groups;
  for (const Document* doc : documents) {
    FileSettingsForLsp s;
    if (doc->path && settings) {
      try {
        s = settings(*doc->path);
      } catch (const std::exception& e) {
        run.settings_errors.push_back(*doc->path + ": " + e.what());
      }
    }
    Group& group = groups[options_key(s)];
    if (group.inputs.empty()) {
      group.options.scope = s.scope;
      group.options.torch_version = s.torch_version;
      group.options.entry_points = s.entry_points;
      group.options.compile_functions = s.compile_functions;
      group.options.compile_decorators = s.compile_decorators;
      group.options.jobs = 1;  // documents are few; keep the server to one thread
    }
    group.result_index.push_back(run.documents.size());
    group.inputs.push_back({doc->path.value_or(doc->uri), s.module_name, doc->text, s.rules, s.target});
    run.documents.push_back({doc, {}});
  }
  for (auto& [key, group] : groups) {
    std::vector<std::vector<Diagnostic>> found = check_sources(group.inputs, group.options);
    for (size_t i = 0; i < found.size() && i < group.result_index.size(); ++i) {
      run.documents[group.result_index[i]].diagnostics = std::move(found[i]);
    }
  }
  return run;
}

}  // namespace fxlint::lsp

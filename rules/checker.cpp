#include "rules/checker.h"

#include "rules/check_pipeline.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include "analyzer/file_model.h"
#include "analyzer/function_walker.h"
#include "analyzer/project_model.h"
#include "analyzer/python_syntax.h"
#include "analyzer/syntax_tree.h"
#include "core/line_index.h"
#include "core/source_encoding.h"
#include "core/parallel.h"
#include "rules/check.h"
#include "rules/suppressions.h"

namespace fxlint {

namespace {

bool is_package_path(std::string_view path) {
  return path.ends_with("/__init__.py") || path == "__init__.py" || path.ends_with("\\__init__.py") ||
         path.ends_with("/__init__.pyi");
}

// One file's analysis failed: that file gets this finding, the others run on.
Diagnostic internal_error(const std::string& what) {
  return {"FX900", "internal error while analyzing this file (" + what + "); please report it", {0, 0},
          Severity::Error, std::nullopt};
}

// The first node (in document order) below the analyzed depth.
Node first_too_deep(Node root) {
  std::vector<std::pair<Node, uint32_t>> stack = {{root, 1}};
  while (!stack.empty()) {
    auto [n, depth] = stack.back();
    stack.pop_back();
    if (depth > kMaxAnalyzedDepth) return n;
    for (uint32_t i = n.child_count(); i-- > 0;) stack.push_back({n.child(i), depth + 1});
  }
  return root;
}

class CompiledCodeDispatcher final : public CodeVisitor {
 public:
  explicit CompiledCodeDispatcher(std::vector<std::unique_ptr<Check>>& checks) : checks_(checks) {}
  void on_call(Node n, const SemanticModel& c) override { for (auto& k : checks_) k->on_call(n, c); }
  void on_subscript_load(Node n, const SemanticModel& c) override { for (auto& k : checks_) k->on_subscript_load(n, c); }
  void on_store(Node t, Node v, Node s, const SemanticModel& c) override { for (auto& k : checks_) k->on_store(t, v, s, c); }
  void on_augmented(Node n, const SemanticModel& c) override { for (auto& k : checks_) k->on_augmented(n, c); }
  void on_condition(Node t, ConditionKind kind, Node o, const SemanticModel& c) override {
    for (auto& k : checks_) k->on_condition(t, kind, o, c);
  }
  void on_name_load(Node n, const SemanticModel& c) override { for (auto& k : checks_) k->on_name_load(n, c); }
  void on_for(Node n, const SemanticModel& c) override { for (auto& k : checks_) k->on_for(n, c); }
  void on_statement(Node n, const SemanticModel& c) override { for (auto& k : checks_) k->on_statement(n, c); }
  void on_yield(Node n, const SemanticModel& c) override { for (auto& k : checks_) k->on_yield(n, c); }

 private:
  std::vector<std::unique_ptr<Check>>& checks_;
};

// Drops suppressed diagnostics and reports unused suppressions (FX901).
template <typename Enabled>
void apply_suppression_comments(std::vector<Diagnostic>& out, std::string_view text,
                                const std::vector<TextRange>& comments, Enabled&& enabled) {
  SuppressionSet suppressions = parse_suppressions(text, comments);
  if (suppressions.items.empty() && !suppressions.skip_file) return;  // most files: no line index needed
  apply_suppressions(out, suppressions, LineIndex(text));
  if (enabled(RuleId::FX901) && !suppressions.skip_file) {
    for (const Suppression& s : suppressions.items) {
      for (size_t i = 0; i < s.codes.size(); ++i) {
        auto id = find_rule(s.codes[i]);
        if (s.used[i] || !id || !enabled(*id)) continue;
        out.push_back({"FX901", "unused suppression for " + s.codes[i], s.range, Severity::Warning, std::nullopt});
      }
    }
  }
}

std::vector<Diagnostic> check_one(const ProjectModel& project, int index, const ParsedFile& file,
                                  const SourceInput& input, const ArgumentTypes& arguments, const CancelFlag* cancel) {
  std::vector<Diagnostic> out;
  const std::string& text = file.tree->text();
  auto enabled = [&](RuleId id) { return input.enabled.test(static_cast<size_t>(id)); };

  std::optional<SyntaxProblem> syntax = file.too_deep() ? std::nullopt : first_syntax_problem(*file.tree);
  bool overriding = syntax && syntax->explains_the_rest;
  if (std::optional<size_t> bad = first_invalid_utf8(text)) {
    auto at = static_cast<uint32_t>(*bad);
    out.push_back({"FX900", not_utf8_message(text), {at, at + 1}, Severity::Error, std::nullopt});
  } else if (overriding) {
    out.push_back({"FX900", syntax->message, syntax->range, Severity::Error, std::nullopt});
  } else if (file.model.indentation_error && !file.tree->has_error()) {
    out.push_back({"FX900", "syntax error: unexpected indent", *file.model.indentation_error, Severity::Error,
                   std::nullopt});
  } else if (file.too_deep()) {
    out.push_back({"FX900",
                   "nesting too deep to analyze: " + std::to_string(file.tree->depth()) + " levels (at most " +
                       std::to_string(kMaxAnalyzedDepth) + ")",
                   first_too_deep(file.tree->root()).range(), Severity::Error, std::nullopt});
  } else if (syntax) {
    out.push_back({"FX900", syntax->message, syntax->range, Severity::Error, std::nullopt});
  }

  CheckSettings settings{input.torch_version, input.target};
  DiagnosticSink sink;
  std::vector<std::unique_ptr<Check>> checks;
  for (const CheckEntry& e : check_factories()) {
    bool on = false;
    for (RuleId r : e.rules) on = on || enabled(r);
    if (on) checks.push_back(e.make(sink, settings));
  }
  if (!checks.empty()) {
    CompiledCodeDispatcher dispatcher(checks);
    // fx2onnx traces with torch.fx; dynamo and export with TorchDynamo.
    Tracer tracer = input.target == Target::Fx2Onnx ? Tracer::Fx : Tracer::Dynamo;
    for (size_t f = 0; f < file.model.functions.size(); ++f) {
      int fi = static_cast<int>(f);
      bool walk = input.scope == Scope::All ? !file.model.functions[f].opaque_for(tracer)
                                              : project.in_region(index, fi, tracer);
      if (!walk) continue;
      throw_if_cancelled(cancel);  // one large file is one task: it stops between its functions too
      walk_function(project, index, fi, dispatcher, &arguments);
    }
  }
  for (Diagnostic& d : sink.diagnostics()) {
    auto id = find_rule(d.code);
    if (id && enabled(*id)) out.push_back(std::move(d));
  }
  if (!enabled(RuleId::FX900)) {
    out.erase(std::remove_if(out.begin(), out.end(), [](const Diagnostic& d) { return d.code == "FX900"; }), out.end());
  }

  if (!file.model.comments.empty()) apply_suppression_comments(out, text, file.model.comments, enabled);
  // `fix` never edits a file CPython would refuse (see the fix loop), so its
  // fixes are not offered: [*] promises only what `fix` applies.
  if (syntax || file.tree->has_error() || file.model.indentation_error) {
    for (Diagnostic& d : out) d.fix.reset();
  }
  for (Diagnostic& d : out) {
    auto id = find_rule(d.code);
    if (id) d.severity = rule_info(*id).severity_for(input.target);
    if (d.severity == Severity::Off) d.severity = Severity::Warning;  // selected explicitly
  }
  std::stable_sort(out.begin(), out.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.range.start != b.range.start) return a.range.start < b.range.start;
    return a.code < b.code;
  });
  return out;
}

}  // namespace

bool ParsedFile::too_deep() const { return tree && tree->depth() > kMaxAnalyzedDepth; }

ParsedFile parse_file(const SourceInput& input, const IndexOptions& options, const SyntaxTree* previous,
                      SyntaxTree::Keep keep, const CancelFlag* cancel) {
  ParsedFile file;
  bool package = is_package_path(input.path);
  try {
    file.tree = std::make_unique<SyntaxTree>(previous ? previous->reparse(input.text, cancel)
                                                      : SyntaxTree::parse(input.text, keep, cancel));
    throw_if_cancelled(cancel);
    if (!file.too_deep()) {
      file.model = index_file(*file.tree, input.module_name, package, options, cancel);
      return file;
    }
  } catch (const std::exception& e) {
    file.failure = e.what();
  }
  // Not analyzed: the file takes part in the project with no functions.
  file.model = FileModel{};
  if (file.tree) file.model.source = file.tree->text();
  file.model.module_name = input.module_name;
  file.model.is_package = package;
  return file;
}

std::vector<std::vector<Diagnostic>> analyze_files(std::span<const ParsedFile* const> files,
                                                   std::span<const SourceInput* const> inputs,
                                                   const std::vector<bool>& report, const CheckOptions& options,
                                                   ArgumentMemo* memo, const std::vector<bool>* reparsed) {
  auto cancelled = [&] { return options.cancel && options.cancel->is_set(); };
  if (cancelled()) throw CheckCancelled{};
  std::vector<std::optional<std::string>> failure(files.size());
  for (size_t i = 0; i < files.size(); ++i) failure[i] = files[i]->failure;
  std::vector<const FileModel*> models;
  models.reserve(files.size());
  for (const ParsedFile* f : files) models.push_back(&f->model);
  ProjectModel project(models, options.entry_points);

  // The project as other files see it: while it is the same, an unchanged
  // file's walks record the same again.
  uint64_t fingerprint = files.size();
  for (size_t i = 0; memo && i < files.size(); ++i) {
    fingerprint = fingerprint * 0x100000001b3ULL + files[i]->interface;
    fingerprint = fingerprint * 0x100000001b3ULL + std::hash<std::string>{}(inputs[i]->path);
  }
  for (const std::string& e : options.entry_points) fingerprint = fingerprint * 31 + std::hash<std::string>{}(e);
  bool same_project = memo && memo->project == fingerprint && reparsed;

  // What compiled callers pass to helpers: silent walks of the compiled
  // functions, each using what the one before learned, so a value reaches
  // one call level deeper per walk; they stop when a walk learns nothing new.
  // Each file records apart, so that what an unchanged file recorded is reused;
  // within a file, a function whose parameters the walk before saw the same
  // records the same again, so only the functions whose callers changed walk.
  constexpr size_t kMaxPasses = 3;
  class Silent final : public CodeVisitor {} silent;
  std::vector<std::vector<std::optional<ArgumentTypes>>> recorded;
  std::vector<ArgumentTypes> known{ArgumentTypes{}};  // known[p]: what pass p walks with
  // Each walked function's own records in the last pass, by file.
  std::vector<std::vector<std::optional<ArgumentTypes>>> by_function(files.size()), by_function_next(files.size());
  for (size_t pass = 0; pass < kMaxPasses; ++pass) {
    if (cancelled()) throw CheckCancelled{};
    const ArgumentTypes* walk_known = pass == 0 ? nullptr : &known[pass];
    // What an unchanged file recorded last time, when its walk would see the same.
    const std::vector<std::optional<ArgumentTypes>>* kept = nullptr;
    if (same_project && pass < memo->recorded.size() && memo->recorded[pass].size() == files.size() &&
        memo->known[pass] == known[pass]) {
      kept = &memo->recorded[pass];
    }
    recorded.emplace_back(files.size(), std::nullopt);
    std::vector<std::optional<ArgumentTypes>>& mine_all = recorded.back();
    parallel_for(files.size(), options.jobs, [&](size_t i) {
      by_function_next[i].clear();
      if (failure[i]) return;
      if (kept && !(*reparsed)[i] && (*kept)[i]) {
        mine_all[i] = (*kept)[i];
        return;
      }
      ArgumentTypes mine;
      const std::vector<std::optional<ArgumentTypes>>& before = by_function[i];
      std::vector<std::optional<ArgumentTypes>>& now = by_function_next[i];
      now.resize(files[i]->model.functions.size());
      try {
        for (size_t f = 0; f < files[i]->model.functions.size(); ++f) {
          if (cancelled()) throw CheckCancelled{};
          int file = static_cast<int>(i), function = static_cast<int>(f);
          if (!project.in_region(file, function)) continue;
          if (pass > 0 && f < before.size() && before[f] && known[pass].same_calls(known[pass - 1], file, function)) {
            now[f] = before[f];
          } else {
            now[f].emplace();
            walk_function(project, file, function, silent, walk_known, &*now[f]);
          }
          mine.merge(*now[f]);
        }
        mine_all[i] = std::move(mine);
      } catch (const std::exception& e) {
        failure[i] = e.what();
      }
    });
    std::swap(by_function, by_function_next);
    ArgumentTypes learned;
    for (const auto& r : mine_all) {
      if (r) learned.merge(*r);
    }
    bool settled = learned == known[pass];
    known.push_back(std::move(learned));
    if (settled) break;
  }
  if (memo) {
    memo->project = fingerprint;
    memo->known.assign(known.begin(), known.end() - 1);
    memo->recorded = std::move(recorded);
  }
  const ArgumentTypes& second = known.back();

  std::vector<std::vector<Diagnostic>> out(files.size());
  parallel_for(files.size(), options.jobs, [&](size_t i) {
    if (!report[i]) return;
    if (cancelled()) throw CheckCancelled{};
    if (!failure[i]) {
      try {
        out[i] = check_one(project, static_cast<int>(i), *files[i], *inputs[i], second, options.cancel);
        return;
      } catch (const std::exception& e) {
        failure[i] = e.what();
      }
    }
    out[i] = {internal_error(*failure[i])};
  });
  return out;
}

std::vector<std::vector<Diagnostic>> check_sources(std::span<const SourceInput> inputs, const CheckOptions& options) {
  auto files = std::make_unique<std::vector<ParsedFile>>(inputs.size());
  IndexOptions index_options{options.compile_decorators, options.compile_functions};
  parallel_for(inputs.size(), options.jobs, [&](size_t i) {
    (*files)[i] = parse_file(inputs[i], index_options, nullptr, SyntaxTree::Keep::TableOnly, options.cancel);
  });
  std::vector<const ParsedFile*> parsed;
  std::vector<const SourceInput*> sources;
  for (size_t i = 0; i < inputs.size(); ++i) {
    parsed.push_back(&(*files)[i]);
    sources.push_back(&inputs[i]);
  }
  auto out = analyze_files(parsed, sources, std::vector<bool>(inputs.size(), true), options, nullptr, nullptr);
  if (!options.release_memory) files.release();  // see CheckOptions
  return out;
}

}  // namespace fxlint

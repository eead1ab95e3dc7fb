#include "rules/checker.h"

#include "rules/check_pipeline.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "analyzer/file_model.h"
#include "analyzer/function_walker.h"
#include "analyzer/project_model.h"
#include "analyzer/python_syntax.h"
#include "analyzer/reexports.h"
#include "analyzer/syntax_tree.h"
#include "core/line_index.h"
#include "core/source_encoding.h"
#include "core/parallel.h"
#include "rules/check.h"
#include "rules/check_support.h"
#include "rules/suppressions.h"
#include "rules/top_statements.h"

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
  CompiledCodeDispatcher(std::vector<std::unique_ptr<Check>>& checks, DiagnosticSink& sink)
      : checks_(checks), sink_(sink) {}
  void on_call(Node n, const SemanticModel& c) override { each(c, [&](Check& k) { k.on_call(n, c); }); }
  void on_subscript_load(Node n, const SemanticModel& c) override {
    each(c, [&](Check& k) { k.on_subscript_load(n, c); });
  }
  void on_attribute_load(Node n, const SemanticModel& c) override {
    each(c, [&](Check& k) { k.on_attribute_load(n, c); });
  }
  void on_store(Node t, Node v, Node s, const SemanticModel& c) override {
    each(c, [&](Check& k) { k.on_store(t, v, s, c); });
  }
  void on_augmented(Node n, const SemanticModel& c) override { each(c, [&](Check& k) { k.on_augmented(n, c); }); }
  void on_condition(Node t, ConditionKind kind, Node o, const SemanticModel& c) override {
    each(c, [&](Check& k) { k.on_condition(t, kind, o, c); });
  }
  void on_name_load(Node n, const SemanticModel& c) override { each(c, [&](Check& k) { k.on_name_load(n, c); }); }
  void on_for(Node n, const SemanticModel& c) override { each(c, [&](Check& k) { k.on_for(n, c); }); }
  void on_statement(Node n, const SemanticModel& c) override { each(c, [&](Check& k) { k.on_statement(n, c); }); }
  void on_yield(Node n, const SemanticModel& c) override { each(c, [&](Check& k) { k.on_yield(n, c); }); }

 private:
  template <typename Event>
  void each(const SemanticModel& c, Event&& event) {
    sink_.walking(&c);
    for (auto& k : checks_) event(*k);
  }
  std::vector<std::unique_ptr<Check>>& checks_;
  DiagnosticSink& sink_;
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

// Shifts a finding kept from a statement that began at `from` to one at `to`.
Diagnostic moved(Diagnostic d, uint32_t from, uint32_t to) {
  auto shift = [&](TextRange& r) { r = {r.start - from + to, r.end - from + to}; };
  shift(d.range);
  if (d.fix) {
    for (Edit& e : d.fix->edits) shift(e.range);
  }
  return d;
}

bool inside(const Diagnostic& d, TextRange r) {
  if (!r.contains(d.range)) return false;
  if (d.fix) {
    for (const Edit& e : d.fix->edits) {
      if (!r.contains(e.range)) return false;
    }
  }
  return true;
}

bool same_settings(const FindingsMemo::File& m, const SourceInput& in) {
  return m.enabled == in.enabled && m.target == in.target && m.scope == in.scope &&
         m.torch_version == in.torch_version;
}

// What a file's checks walk, with what an earlier analysis found (`before`,
// when the project and the file's settings are the same; `before_arguments`:
// what they walked with then). A top-level statement that is unchanged, with
// the same functions walked and their callers passing the same, gets the
// findings it had, moved to where it is now; the others are walked. What each
// statement found goes to `after`.
struct FindingsReuse {
  const FindingsMemo::File* before = nullptr;
  const ArgumentTypes* before_arguments = nullptr;
  FindingsMemo::File* after = nullptr;
  const TopStatements* tops = nullptr;  // the file's, set with `after`
};

// fx2onnx traces with torch.fx; dynamo and export with TorchDynamo.
Tracer tracer_of(const SourceInput& input) { return input.target == Target::Fx2Onnx ? Tracer::Fx : Tracer::Dynamo; }

// Whether the checks walk function `f` of input `index`: it is compiled code.
bool checked(const ProjectModel& project, size_t index, size_t f, const SourceInput& input) {
  Tracer tracer = tracer_of(input);
  return input.scope == Scope::All ? !project.opaque(static_cast<int>(index), static_cast<int>(f), tracer)
                                   : project.in_region(static_cast<int>(index), static_cast<int>(f), tracer);
}

std::vector<Diagnostic> check_one(const ProjectModel& project, int index, const ParsedFile& file,
                                  const SourceInput& input, const ArgumentTypes& arguments, const CancelFlag* cancel,
                                  const FindingsReuse& reuse) {
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
    CompiledCodeDispatcher dispatcher(checks, sink);
    TraceTarget target{tracer_of(input), input.target == Target::Export,
                       support::dynamo_traces_numpy(input.torch_version, input.target)};
    auto walked = [&](size_t f) { return checked(project, static_cast<size_t>(index), f, input); };
    std::vector<std::pair<int, int>> consulted;  // by the walks of the statement being checked
    auto walk = [&](size_t f) {
      throw_if_cancelled(cancel);  // one large file is one task: it stops between its functions too
      walk_function(project, index, static_cast<int>(f), dispatcher, &arguments, nullptr,
                    reuse.after ? &consulted : nullptr, target);
      sink.walking(nullptr);  // the walk's model is gone
    };
    // Where findings were reported from outside their own statement: a
    // statement holding one does not keep what it found, since what the sink
    // took from its walk depended on that report (one finding per place).
    std::set<uint32_t> foreign;
    auto note_foreign = [&](size_t from, TextRange own) {
      const auto& all = sink.diagnostics();
      for (size_t k = from; k < all.size(); ++k) {
        if (!inside(all[k], own)) foreign.insert(all[k].range.start);
      }
    };
    for (size_t f = 0; f < file.model.functions.size();) {
      int s = reuse.after ? reuse.tops->of_function[f] : -1;
      if (s < 0) {
        size_t mark = sink.diagnostics().size();
        if (walked(f)) walk(f);
        if (reuse.after) note_foreign(mark, TextRange{});  // `fxlint check` keeps nothing
        ++f;
        continue;
      }
      const TopStatement& top = reuse.tops->statements[static_cast<size_t>(s)];
      std::vector<uint8_t> walks;
      for (int g = top.first; g < top.end; ++g) walks.push_back(walked(static_cast<size_t>(g)));
      const StatementFindings* kept = nullptr;
      if (reuse.before) {
        auto it = reuse.before->statements.find(top.text_hash);
        // Its walks also saw what the functions they call return.
        if (it != reuse.before->statements.end() && it->second.length == top.range.length() &&
            it->second.walked == walks && arguments.same_returns(*reuse.before_arguments, it->second.consulted)) {
          kept = &it->second;
          for (int g = top.first; kept && g < top.end; ++g) {
            if (!walks[static_cast<size_t>(g - top.first)]) continue;
            if (!arguments.same_calls(*reuse.before_arguments, index, g)) kept = nullptr;
          }
        }
      }
      StatementFindings now{top.range.start, top.range.length(), walks, {}, {}};
      if (kept) {
        for (const Diagnostic& d : kept->found) sink.replay(moved(d, kept->start, top.range.start));
        now.found = kept->found;
        now.consulted = kept->consulted;
        for (Diagnostic& d : now.found) d = moved(std::move(d), kept->start, top.range.start);
        reuse.after->statements[top.text_hash] = std::move(now);
      } else {
        size_t mark = sink.diagnostics().size();
        consulted.clear();
        for (int g = top.first; g < top.end; ++g) {
          if (walks[static_cast<size_t>(g - top.first)]) walk(static_cast<size_t>(g));
        }
        auto& all = sink.diagnostics();
        bool keep = std::all_of(all.begin() + static_cast<std::ptrdiff_t>(mark), all.end(),
                                [&](const Diagnostic& d) { return inside(d, top.range); });
        auto earlier = foreign.lower_bound(top.range.start);
        keep = keep && (earlier == foreign.end() || *earlier >= top.range.end);
        note_foreign(mark, top.range);
        if (keep) {
          now.found.assign(all.begin() + static_cast<std::ptrdiff_t>(mark), all.end());
          std::sort(consulted.begin(), consulted.end());
          consulted.erase(std::unique(consulted.begin(), consulted.end()), consulted.end());
          now.consulted = consulted;
          reuse.after->statements[top.text_hash] = std::move(now);
        }
      }
      f = static_cast<size_t>(top.end);
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
      file.model.module_aliases = input.module_aliases;
      return file;
    }
  } catch (const std::exception& e) {
    file.failure = e.what();
  }
  // Not analyzed: the file takes part in the project with no functions.
  file.model = FileModel{};
  if (file.tree) file.model.source = file.tree->text();
  file.model.module_name = input.module_name;
  file.model.module_aliases = input.module_aliases;
  file.model.is_package = package;
  return file;
}

std::vector<std::vector<Diagnostic>> analyze_files(std::span<const ParsedFile* const> files,
                                                   std::span<const SourceInput* const> inputs,
                                                   const std::vector<bool>& report, const CheckOptions& options,
                                                   ArgumentMemo* memo, FindingsMemo* findings,
                                                   const std::vector<bool>* reparsed) {
  auto cancelled = [&] { return options.cancel && options.cancel->is_set(); };
  if (cancelled()) throw CheckCancelled{};
  std::vector<std::optional<std::string>> failure(files.size());
  for (size_t i = 0; i < files.size(); ++i) failure[i] = files[i]->failure;
  std::vector<const FileModel*> parsed;
  parsed.reserve(files.size());
  for (const ParsedFile* f : files) parsed.push_back(&f->model);
  // A file that imports names through other project modules is indexed again with
  // what they mean (`from models.common import *` binding `nn` to torch.nn).
  std::vector<const FileModel*> models = parsed;
  std::deque<FileModel> reindexed;
  std::vector<ImportMap> through = reexported_names(parsed);
  for (size_t i = 0; i < files.size(); ++i) {
    const FileModel& was = files[i]->model;
    // A module with no functions or classes (a package's `__init__` of star imports)
    // has nothing those names would change.
    if (through[i].bindings().empty() || (was.functions.empty() && was.classes.empty())) continue;
    if (!files[i]->tree || files[i]->too_deep()) continue;
    IndexOptions index{options.compile_decorators, options.compile_functions};
    reindexed.push_back(index_file(*files[i]->tree, was.module_name, was.is_package, index, options.cancel,
                                   &through[i]));
    reindexed.back().module_aliases = was.module_aliases;
    models[i] = &reindexed.back();
  }
  ProjectModel project(models, options.entry_points);
  if (options.unmatched_entry_points) *options.unmatched_entry_points = project.unmatched_entry_points();

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
  // Across calls, a function of a changed file whose top-level statement is
  // unchanged, walking with what it walked with then, records the same again.
  // Values only grow by joins, so the walks settle; the cap guards the time.
  // torchvision and transformers settle after 10 and 11 walks, and a walk
  // after the first re-walks only the functions whose callers changed.
  constexpr size_t kMaxPasses = 32;
  class Silent final : public CodeVisitor {} silent;
  using Records = ArgumentMemo::Records;
  std::vector<std::vector<Records>> recorded;
  std::vector<Records> known{std::make_shared<const ArgumentTypes>()};  // known[p]: what pass p walks with
  using FunctionRecords = ArgumentMemo::FunctionRecords;
  // Per pass and file: each walked function's own records.
  std::vector<std::vector<std::shared_ptr<const FunctionRecords>>> by_function;
  // Per file, computed once for the walks and the checks: its top-level
  // statements, and the text hash of each function's (0: none).
  std::vector<std::optional<TopStatements>> tops(files.size());
  std::vector<std::shared_ptr<const std::vector<uint64_t>>> statement_hash(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    if (failure[i] || (!memo && !findings)) continue;
    bool unchanged = same_project && !(*reparsed)[i] && i < memo->statement_hash.size() && memo->statement_hash[i];
    if (unchanged) statement_hash[i] = memo->statement_hash[i];
    if (unchanged && !(findings && report[i])) continue;
    tops[i] = top_statements(files[i]->model);
    if (unchanged) continue;
    auto hashes = std::make_shared<std::vector<uint64_t>>(tops[i]->of_function.size(), 0);
    for (size_t f = 0; f < tops[i]->of_function.size(); ++f) {
      int s = tops[i]->of_function[f];
      if (s >= 0) (*hashes)[f] = tops[i]->statements[static_cast<size_t>(s)].text_hash;
    }
    statement_hash[i] = std::move(hashes);
  }
  auto before_call = [&](size_t pass, size_t i, size_t f) -> const Records* {
    if (!same_project || pass >= memo->by_function.size() || i >= memo->by_function[pass].size()) return nullptr;
    const auto& then = memo->by_function[pass][i];
    const auto& hash_then = i < memo->statement_hash.size() ? memo->statement_hash[i] : nullptr;
    if (!then || !hash_then || f >= then->size() || f >= hash_then->size() || !(*then)[f]) return nullptr;
    if (!statement_hash[i] || (*hash_then)[f] == 0 || (*hash_then)[f] != (*statement_hash[i])[f]) return nullptr;
    if (pass > 0 && (!known[pass]->same_calls(*memo->known[pass], static_cast<int>(i), static_cast<int>(f)) ||
                     !(*then)[f]->same_consulted(*known[pass], *memo->known[pass]))) {
      return nullptr;
    }
    return &(*then)[f];
  };
  for (size_t pass = 0; pass < kMaxPasses; ++pass) {
    if (cancelled()) throw CheckCancelled{};
    const ArgumentTypes* walk_known = pass == 0 ? nullptr : known[pass].get();
    // What an unchanged file recorded last time, when its walk would see the same.
    const std::vector<Records>* kept = nullptr;
    if (same_project && pass < memo->recorded.size() && memo->recorded[pass].size() == files.size() &&
        *memo->known[pass] == *known[pass]) {
      kept = &memo->recorded[pass];
    }
    recorded.emplace_back(files.size());
    std::vector<Records>& mine_all = recorded.back();
    by_function.emplace_back(files.size());
    parallel_for(files.size(), options.jobs, [&](size_t i) {
      if (failure[i]) return;
      if (kept && !(*reparsed)[i] && (*kept)[i]) {
        mine_all[i] = (*kept)[i];
        if (pass < memo->by_function.size() && i < memo->by_function[pass].size()) {
          by_function[pass][i] = memo->by_function[pass][i];
        }
        return;
      }
      auto mine = std::make_shared<ArgumentTypes>();
      const FunctionRecords* before = pass > 0 ? by_function[pass - 1][i].get() : nullptr;
      auto now = std::make_shared<FunctionRecords>(files[i]->model.functions.size());
      try {
        for (size_t f = 0; f < files[i]->model.functions.size(); ++f) {
          if (cancelled()) throw CheckCancelled{};
          int file = static_cast<int>(i), function = static_cast<int>(f);
          if (!project.in_region(file, function)) continue;
          // A walk also sees what the functions it calls return.
          if (before && f < before->size() && (*before)[f] &&
              known[pass]->same_calls(*known[pass - 1], file, function) &&
              (*before)[f]->same_consulted(*known[pass], *known[pass - 1])) {
            (*now)[f] = (*before)[f];
          } else if (const Records* then = before_call(pass, i, f)) {
            (*now)[f] = *then;
          } else {
            auto walked = std::make_shared<ArgumentTypes>();
            walk_function(project, file, function, silent, walk_known, walked.get());
            (*now)[f] = std::move(walked);
          }
        }
        // Each function recorded what it recorded last time (an edit that changed
        // no types): the file's records are last time's, without joining them again.
        const FunctionRecords* last = same_project && pass < memo->by_function.size() &&
                                              i < memo->by_function[pass].size() && pass < memo->recorded.size() &&
                                              i < memo->recorded[pass].size() && memo->recorded[pass][i]
                                          ? memo->by_function[pass][i].get()
                                          : nullptr;
        bool as_last_time = last && last->size() == now->size();
        for (size_t f = 0; as_last_time && f < now->size(); ++f) {
          const Records& a = (*now)[f];
          const Records& b = (*last)[f];
          as_last_time = a == b || (a && b && *a == *b);
        }
        if (as_last_time) {
          mine_all[i] = memo->recorded[pass][i];
        } else {
          for (const Records& r : *now) {
            if (r) mine->merge(*r);
          }
          mine_all[i] = std::move(mine);
        }
        by_function[pass][i] = std::move(now);
      } catch (const std::exception& e) {
        failure[i] = e.what();
      }
    });
    // Every file recorded what it recorded last time: the pass learns what it learned then.
    bool as_last_time = same_project && pass + 1 < memo->known.size() && pass < memo->recorded.size() &&
                        memo->recorded[pass].size() == files.size();
    for (size_t i = 0; as_last_time && i < files.size(); ++i) {
      const Records& now = mine_all[i];
      const Records& then = memo->recorded[pass][i];
      as_last_time = now == then || (now && then && *now == *then);
    }
    Records learned = as_last_time ? memo->known[pass + 1] : nullptr;
    if (!learned) {
      auto joined = std::make_shared<ArgumentTypes>();
      for (const auto& r : mine_all) {
        if (r) joined->merge(*r);
      }
      learned = std::move(joined);
    }
    bool settled = *learned == *known[pass];
    known.push_back(std::move(learned));
    if (settled) break;
  }
  if (memo) {
    memo->project = fingerprint;
    memo->known.assign(known.begin(), known.end() - 1);
    memo->recorded = std::move(recorded);
    memo->by_function = std::move(by_function);
    memo->statement_hash = std::move(statement_hash);
  }
  const ArgumentTypes& second = *known.back();

  // What the checks found is kept only when this whole call gets through: a
  // cancelled call leaves the last complete one's.
  std::vector<FindingsMemo::File> found_now(findings ? files.size() : 0);
  bool same_findings = findings && findings->project == fingerprint && findings->files.size() == files.size();
  std::vector<std::vector<Diagnostic>> out(files.size());
  parallel_for(files.size(), options.jobs, [&](size_t i) {
    if (!report[i]) return;
    if (cancelled()) throw CheckCancelled{};
    if (!failure[i]) {
      try {
        FindingsReuse reuse;
        if (findings) {
          FindingsMemo::File& mine = found_now[i];
          mine = {inputs[i]->enabled, inputs[i]->target, inputs[i]->scope, inputs[i]->torch_version, {}};
          reuse.after = &mine;
          reuse.tops = &*tops[i];
          if (same_findings && same_settings(findings->files[i], *inputs[i])) {
            reuse.before = &findings->files[i];
            reuse.before_arguments = &findings->arguments;
          }
        }
        out[i] = check_one(project, static_cast<int>(i), *files[i], *inputs[i], second, options.cancel, reuse);
        return;
      } catch (const std::exception& e) {
        failure[i] = e.what();
      }
    }
    out[i] = {internal_error(*failure[i])};
  });
  if (options.checked_functions) {
    for (size_t i = 0; i < files.size(); ++i) {
      if (!report[i] || failure[i]) continue;
      for (size_t f = 0; f < files[i]->model.functions.size(); ++f) {
        *options.checked_functions += checked(project, i, f, *inputs[i]);
      }
    }
  }
  if (findings) {
    findings->project = fingerprint;
    findings->arguments = second;
    findings->files = std::move(found_now);
  }
  return out;
}

void add_compile_ways(CheckOptions& options, const std::vector<std::string>& entry_points,
                      const std::vector<std::string>& compile_functions,
                      const std::vector<std::string>& compile_decorators) {
  auto append_unique = [](std::vector<std::string>& to, const std::vector<std::string>& from) {
    for (const std::string& s : from) {
      if (std::find(to.begin(), to.end(), s) == to.end()) to.push_back(s);
    }
  };
  append_unique(options.entry_points, entry_points);
  append_unique(options.compile_functions, compile_functions);
  append_unique(options.compile_decorators, compile_decorators);
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
  auto out = analyze_files(parsed, sources, std::vector<bool>(inputs.size(), true), options, nullptr, nullptr, nullptr);
  if (!options.release_memory) files.release();  // see CheckOptions
  return out;
}

}  // namespace fxlint

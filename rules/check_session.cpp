#include "rules/check_session.h"

#include "analyzer/file_interface.h"
#include "core/parallel.h"
#include "rules/check_pipeline.h"

namespace fxlint {

struct CheckSession::Cached {
  ParsedFile file;
  std::string module_name;
  IndexOptions index_options;
  bool editing = false;
  uint64_t revision = 0;
  // The memo holds what the walks of this very parse recorded: false from the
  // parse until a call's analysis gets through, so that a parse made by a
  // cancelled call is walked again, and the memo of the others outlives it.
  bool recorded = false;
};

struct CheckSession::Memo {
  ArgumentMemo arguments;
  FindingsMemo findings;
};

CheckSession::CheckSession() : memo_(std::make_unique<Memo>()) {}
CheckSession::~CheckSession() = default;
CheckSession::CheckSession(CheckSession&&) noexcept = default;
CheckSession& CheckSession::operator=(CheckSession&&) noexcept = default;

namespace {

bool same_index_options(const IndexOptions& a, const IndexOptions& b) {
  return a.compile_decorators == b.compile_decorators && a.compile_functions == b.compile_functions;
}

}  // namespace

std::vector<std::vector<Diagnostic>> CheckSession::check(std::span<const SessionInput> inputs,
                                                         const CheckOptions& options) {
  throw_if_cancelled(options.cancel);
  IndexOptions index_options{options.compile_decorators, options.compile_functions};
  std::unordered_map<std::string, std::unique_ptr<Cached>> kept;
  std::vector<Cached*> entries(inputs.size(), nullptr);
  std::vector<size_t> stale;  // inputs to parse
  std::vector<std::unique_ptr<Cached>> duplicates;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const SourceInput& in = *inputs[i].source;
    auto found = files_.find(in.path);
    std::unique_ptr<Cached> entry;
    if (found != files_.end()) entry = std::move(found->second);
    if (!entry) entry = std::make_unique<Cached>();
    bool same_text = (inputs[i].revision != 0 && inputs[i].revision == entry->revision) ||
                     (entry->file.tree && entry->file.tree->text() == in.text);
    bool fresh = entry->file.tree && same_text && entry->module_name == in.module_name &&
                 entry->file.model.module_aliases == in.module_aliases &&
                 same_index_options(entry->index_options, index_options) && entry->editing == inputs[i].editing;
    if (!fresh) stale.push_back(i);
    entries[i] = entry.get();
    // A path given twice is parsed twice; the first is kept for the next call.
    if (kept.count(in.path)) duplicates.push_back(std::move(entry));
    else kept[in.path] = std::move(entry);
  }
  auto parse = [&](size_t k) {
    size_t i = stale[k];
    Cached& entry = *entries[i];
    // Only a tree of the same module and options, kept for editing, is a base for reparsing.
    const SyntaxTree* previous = nullptr;
    if (inputs[i].editing && entry.editing && entry.file.tree && entry.module_name == inputs[i].source->module_name &&
        same_index_options(entry.index_options, index_options)) {
      previous = entry.file.tree.get();
    }
    // Cancelled here, the entry keeps its last parse: the next call reparses from it.
    ParsedFile parsed = parse_file(*inputs[i].source, index_options, previous,
                                   inputs[i].editing ? SyntaxTree::Keep::ParserTree : SyntaxTree::Keep::TableOnly,
                                   options.cancel);
    // Only a session compares interfaces between calls: `fxlint check` never pays for it.
    throw_if_cancelled(options.cancel);  // a large file's fingerprint takes a millisecond
    parsed.interface = interface_fingerprint(parsed.model);
    entry.file = std::move(parsed);
    entry.recorded = false;
    entry.module_name = inputs[i].source->module_name;
    entry.index_options = index_options;
    entry.editing = inputs[i].editing;
  };
  try {
    parallel_for(stale.size(), options.jobs, parse);
  } catch (const CheckCancelled&) {
    // What was parsed is kept (a cancelled file keeps its last parse), and
    // the memo: after a burst of keystrokes, the lint of the last one re-walks
    // the edited statements only, not the project.
    files_ = std::move(kept);
    throw;
  }
  for (size_t i = 0; i < inputs.size(); ++i) entries[i]->revision = inputs[i].revision;
  last_parsed_ = stale.size();
  files_ = std::move(kept);

  std::vector<const ParsedFile*> parsed;
  std::vector<const SourceInput*> sources;
  std::vector<bool> report;
  std::vector<bool> unrecorded;  // parsed since the memo's analysis
  for (size_t i = 0; i < inputs.size(); ++i) {
    parsed.push_back(&entries[i]->file);
    sources.push_back(inputs[i].source);
    report.push_back(inputs[i].report);
    unrecorded.push_back(!entries[i]->recorded);
  }
  if (!memo_) memo_ = std::make_unique<Memo>();  // a moved-from session
  // Cancelled, the memo is either the last complete analysis's or this one's;
  // the files parsed since stay unrecorded either way.
  auto out = analyze_files(parsed, sources, report, options, &memo_->arguments, &memo_->findings, &unrecorded);
  for (Cached* entry : entries) entry->recorded = true;
  return out;
}

}  // namespace fxlint

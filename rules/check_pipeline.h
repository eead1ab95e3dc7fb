#pragma once
// The two halves of a check, shared by check_sources (one call) and
// CheckSession (which keeps the first half between calls): parsing and
// indexing one file, which depends on that file alone, and analysing a set of
// parsed files together (compile regions and argument types cross files).
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyzer/argument_types.h"
#include "analyzer/file_model.h"
#include "analyzer/syntax_tree.h"
#include "core/diagnostic.h"
#include "rules/checker.h"

namespace fxlint {

// Deeper syntax trees are not analyzed: the analysis recurses over
// expressions, and a thread's stack would not hold tens of thousands of
// levels. CPython 3.11 already refuses to compile about 3000 nested operators.
inline constexpr uint32_t kMaxAnalyzedDepth = 5000;

struct ParsedFile {
  std::unique_ptr<SyntaxTree> tree;  // in place: `model` holds views into it
  FileModel model;
  std::optional<std::string> failure;  // why the analysis of this file stopped
  uint64_t interface = 0;              // interface_fingerprint(model), set by a CheckSession only
  bool too_deep() const;
};

// What the silent walks of each file recorded in the last analysis of a
// project (see analyze_files): kept by a CheckSession between calls.
struct ArgumentMemo {
  uint64_t project = 0;  // fingerprint of the files' interfaces and paths, in order
  // Per pass: what the walks knew (the previous pass's records, joined), and
  // what each file recorded (empty after a failure).
  // Records are shared, never changed once made: a record reused by a later
  // pass or call is the same object.
  using Records = std::shared_ptr<const ArgumentTypes>;
  std::vector<Records> known;
  std::vector<std::vector<Records>> recorded;
  // Per pass and file: each function's own records (shared with later calls
  // while the file is unchanged), and per file the text hash of each
  // function's top-level statement when it walked (rules/top_statements.h).
  using FunctionRecords = std::vector<Records>;
  std::vector<std::vector<std::shared_ptr<const FunctionRecords>>> by_function;
  std::vector<std::shared_ptr<const std::vector<uint64_t>>> statement_hash;
};

// What the checks found in one top-level statement of a file.
struct StatementFindings {
  uint32_t start = 0, length = 0;  // the statement when they ran
  std::vector<uint8_t> walked;     // per function of the statement: whether the checks walked it
  std::vector<Diagnostic> found;   // every one inside the statement
  // The project functions (file, function) whose returns its walks read.
  std::vector<std::pair<int, int>> consulted;
};

// What the checks found in each reported file in the last analysis that got
// through, by top-level statement: kept by a CheckSession between calls, so
// that an edit re-checks only the statement it touched.
struct FindingsMemo {
  struct File {
    RuleSet enabled;
    Target target = Target::Fx2Onnx;
    Scope scope = Scope::Reachable;
    std::string torch_version;
    std::unordered_map<uint64_t, StatementFindings> statements;  // by text hash
  };
  uint64_t project = 0;     // as ArgumentMemo::project
  ArgumentTypes arguments;  // what the checks walked with
  std::vector<File> files;  // by input (empty for inputs not reported)
};

// Parses and indexes one input; with `previous` (that file's last tree, left
// as it was), an incremental reparse. A failure is recorded in the result;
// only a set `cancel` throws (CheckCancelled, in the parse or after it).
ParsedFile parse_file(const SourceInput& input, const IndexOptions& options, const SyntaxTree* previous,
                      SyntaxTree::Keep keep, const CancelFlag* cancel);

// Diagnostics of the files whose `report` is set (the others get an empty
// list but still take part in the project), in input order. With `memo` and
// `findings` (the last analysis of these files) and `reparsed` (which files
// changed since), what was recorded and found is reused while no file's
// interface changed: an unchanged file's walks, and in a changed file each
// function whose top-level statement did not change and whose callers pass it
// the same. An edit inside a function body re-analyses that statement only.
std::vector<std::vector<Diagnostic>> analyze_files(std::span<const ParsedFile* const> files,
                                                   std::span<const SourceInput* const> inputs,
                                                   const std::vector<bool>& report, const CheckOptions& options,
                                                   ArgumentMemo* memo, FindingsMemo* findings,
                                                   const std::vector<bool>* reparsed);

}  // namespace fxlint

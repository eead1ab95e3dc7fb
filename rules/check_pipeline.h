#pragma once
// The two halves of a check, shared by check_sources (one call) and
// CheckSession (which keeps the first half between calls): parsing and
// indexing one file, which depends on that file alone, and analysing a set of
// parsed files together (compile regions and argument types cross files).
#include <memory>
#include <optional>
#include <span>
#include <string>
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
  std::vector<ArgumentTypes> known;
  std::vector<std::vector<std::optional<ArgumentTypes>>> recorded;
};

// Parses and indexes one input; with `previous` (that file's last tree, left
// as it was), an incremental reparse. A failure is recorded in the result;
// only a set `cancel` throws (CheckCancelled, in the parse or after it).
ParsedFile parse_file(const SourceInput& input, const IndexOptions& options, const SyntaxTree* previous,
                      SyntaxTree::Keep keep, const CancelFlag* cancel);

// Diagnostics of the files whose `report` is set (the others get an empty
// list but still take part in the project), in input order. With `memo` (the
// last analysis of these files) and `reparsed` (which files changed since),
// what an unchanged file's walks recorded is reused while no file's interface
// changed: an edit inside a function body re-walks only its own file.
std::vector<std::vector<Diagnostic>> analyze_files(std::span<const ParsedFile* const> files,
                                                   std::span<const SourceInput* const> inputs,
                                                   const std::vector<bool>& report, const CheckOptions& options,
                                                   ArgumentMemo* memo, const std::vector<bool>* reparsed);

}  // namespace fxlint

#pragma once
// A check that remembers its files between calls, for the language server:
// a file whose text, module name and index options are unchanged is not
// parsed or indexed again, and an edited text is reparsed incrementally
// (tree-sitter keeps what the edit did not touch). The analysis across files
// runs on every call, reusing, while no file's interface changed, what
// unchanged files recorded and what each unchanged top-level statement of an
// edited file recorded and found; the result is always what check_sources
// gives for the same inputs.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/diagnostic.h"
#include "rules/checker.h"

namespace fxlint {

struct SessionInput {
  const SourceInput* source = nullptr;  // keyed by its path
  // False: the file takes part in the project (it may call or be called by
  // compiled code) but its diagnostics are not wanted.
  bool report = true;
  // The text is being edited (an open document): keep what an incremental
  // reparse needs, which costs memory.
  bool editing = false;
  // Nonzero: the caller's version of the text. The same revision as the last
  // call's means the same text, which is then not compared byte by byte (a
  // workspace holds megabytes that rarely change).
  uint64_t revision = 0;
};

class CheckSession {
 public:
  CheckSession();
  ~CheckSession();
  CheckSession(CheckSession&&) noexcept;
  CheckSession& operator=(CheckSession&&) noexcept;

  // Diagnostics per input, in input order (empty for inputs not reported).
  // Files of earlier calls that are not among `inputs` are forgotten.
  std::vector<std::vector<Diagnostic>> check(std::span<const SessionInput> inputs, const CheckOptions& options);

  // How many files the last call parsed (in full or incrementally); the rest were reused.
  size_t last_parsed() const { return last_parsed_; }

 private:
  struct Cached;
  struct Memo;
  std::unordered_map<std::string, std::unique_ptr<Cached>> files_;
  std::unique_ptr<Memo> memo_;
  size_t last_parsed_ = 0;
};

}  // namespace fxlint

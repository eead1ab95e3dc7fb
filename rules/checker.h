#pragma once
// The one entry point for linting: the CLI and the language server both call
// check_sources. Takes in-memory text; never prints, never touches the disk.
#include <span>
#include <string>
#include <vector>

#include "core/cancel.h"
#include "core/diagnostic.h"
#include "rules/registry.h"

namespace fxlint {
struct UnmatchedEntryPoint;
}

namespace fxlint {

enum class Scope { Reachable, All };

// One file and the settings that decide what is reported in it. They are
// per file because they do not change the analysis of the project: files with
// different targets, scopes or torch versions are still analysed together
// (compile regions cross files whatever a sub-package's config says).
struct SourceInput {
  std::string path;         // as shown to the user
  std::string module_name;  // dotted import name ("pkg.sub.mod"), "" when unknown
  std::string text;         // file contents as read (bytes)
  RuleSet enabled;          // rules on for this file (select/ignore/per-file-ignores applied)
  Target target = Target::Fx2Onnx;
  Scope scope = Scope::Reachable;  // which of its functions are checked
  // torch version the fixes target ("2.14"): decides the compile-guard spelling.
  // Empty when unknown: fixes then use spellings every torch 2.x has.
  std::string torch_version = {};
  // Other names it is imported by, through directories above its package that
  // have no `__init__.py` (namespace packages): "ldm.modules.pkg.mod".
  std::vector<std::string> module_aliases = {};
};

// What applies to the whole project being analysed: the ways code is handed
// to a compiler, which decide the compile regions across files.
struct CheckOptions {
  // "package.module:Qualified.name" functions that are compile entry points.
  std::vector<std::string> entry_points;
  // Dotted names of callables whose first argument gets compiled (e.g. "vendor.Context.compile").
  std::vector<std::string> compile_functions;
  // Dotted names of decorators that mark a function as compiled.
  std::vector<std::string> compile_decorators;
  unsigned jobs = 1;  // 0 = all cores
  // False when the process ends right after this call (`fxlint check`): the
  // parsed trees are then left to the operating system, which takes them back
  // at exit faster than freeing them node by node (clang's -disable-free).
  bool release_memory = true;
  // Set by another thread when the result is no longer wanted (the language
  // server got a newer text): the analysis then stops with CheckCancelled, in
  // a parse or between two steps (indexing a file, walking a function).
  const CancelFlag* cancel = nullptr;
  // When set: how many functions of the reported inputs the checks walked (those in a
  // compile region, or every traceable one under Scope::All). None says the files hold
  // no compiled code, so nothing in them was checked.
  size_t* checked_functions = nullptr;
  // When set: the entry points that name no function or class of the files.
  std::vector<UnmatchedEntryPoint>* unmatched_entry_points = nullptr;
};

// Adds one config's ways code reaches a compiler to the project's, each
// once: every config of a project contributes them (the settings that only
// decide what is reported in a file stay per file).
void add_compile_ways(CheckOptions& options, const std::vector<std::string>& entry_points,
                      const std::vector<std::string>& compile_functions,
                      const std::vector<std::string>& compile_decorators);

// Diagnostics per input, in input order, each list sorted by position (then
// code). Severities are the target's; a rule the target has off but the user
// selected is reported as a warning, never Off.
// Suppression comments are honored and FX901 reported here.
std::vector<std::vector<Diagnostic>> check_sources(std::span<const SourceInput> inputs,
                                                   const CheckOptions& options);

}  // namespace fxlint

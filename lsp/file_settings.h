#pragma once
// What applies to one file, as the caller's config resolution decides it. The
// server asks through a callback so that it never depends on how settings are
// found (the `fxlint server` command answers from the same config files as
// `fxlint check`).
#include <functional>
#include <string>
#include <vector>

#include "rules/checker.h"
#include "rules/registry.h"

namespace fxlint::lsp {

struct FileSettingsForLsp {
  Target target = Target::Fx2Onnx;
  Scope scope = Scope::Reachable;
  RuleSet rules = default_rules(Target::Fx2Onnx);
  std::string torch_version;  // empty when unknown
  std::vector<std::string> entry_points;  // "package.module:Qualified.name"
  std::vector<std::string> compile_functions;
  std::vector<std::string> compile_decorators;
  std::string module_name;  // dotted import name, "" when unknown
  std::vector<std::string> module_aliases;  // its names through namespace packages
};

// Called with an absolute filesystem path. May throw (a broken config file):
// the server then reports the message and lints that file with the defaults.
using FileSettingsProvider = std::function<FileSettingsForLsp(const std::string& path)>;

}  // namespace fxlint::lsp

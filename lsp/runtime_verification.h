#pragma once
// Running a target through a compiler from the editor (`fxlint.verify`), and
// what comes back: the breaks and failures at their source lines. The server
// asks through callbacks, so that it never depends on how verification runs
// (the `fxlint server` command answers with `fxlint verify`'s own code).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fxlint::lsp {

// A target as a config's [tool.fxlint.verify] names it, ready to run.
struct RuntimeTarget {
  std::string target;               // "path/to/file.py:Qualified.name", relative to `root`
  std::vector<std::string> inputs;  // input specs, or one factory
  std::string backend;              // capture, dynamo, export or onnx
  std::string root;                 // the config's directory
  std::string file;                 // absolute path of the target's file
  std::string name;                 // "Qualified.name"
};

// One break or failure the compiler reported in user code.
struct RuntimeFinding {
  std::string path;         // absolute
  uint32_t line = 0;        // 1-based
  std::string source_line;  // as the compiler's stack shows it
  std::string code;         // the fxlint rule it maps to, "" when none
  std::string message;
};

struct RuntimeVerification {
  bool ran = false;     // false: it could not run (see summary)
  bool passed = false;  // one graph / every stage passed
  std::string summary;  // one line, as `fxlint verify` ends its report
  std::vector<RuntimeFinding> findings;
};

// The verify targets of the config that governs `path` whose file is `path`.
using RuntimeTargetsProvider = std::function<std::vector<RuntimeTarget>(const std::string& path)>;
// Runs one target (blocking; the server calls it off its loop).
using RuntimeVerifier = std::function<RuntimeVerification(const RuntimeTarget& target)>;

}  // namespace fxlint::lsp

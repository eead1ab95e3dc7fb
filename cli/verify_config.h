#pragma once
// `[tool.fxlint.verify]`: what `fxlint verify` captures when run without
// arguments. Parsed and validated with the rest of the config.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fxlint::cli {

// What a target is verified with: the bundled capture (the default), or a
// real compiler: TorchDynamo's explain, torch.export (strict and non-strict),
// or the ONNX exporter checked with ONNX Runtime.
inline constexpr std::string_view kVerifyBackends[] = {"capture", "dynamo", "export", "onnx"};

// Whether `backend` writes an ONNX model (so that a target's `onnx` path means something).
inline bool backend_exports_onnx(std::string_view backend) { return backend == "capture" || backend == "onnx"; }

struct VerifyTarget {
  std::string target;                  // "path/to/file.py:Qualified.name"
  std::vector<std::string> inputs;     // specs: "float32[2,3]", "int64[4]", "bool[8]", "int:3"
  std::optional<std::string> factory;  // "module:make_inputs", instead of inputs
  std::optional<std::string> mode;     // "strict" or "dynamo"; default from the table
  std::optional<std::string> backend;  // one of kVerifyBackends; default from the table
  std::optional<std::string> onnx;     // path to write the exported model to
};

struct VerifyConfig {
  std::string mode = "strict";       // the capture's mode
  std::string backend = "capture";   // one of kVerifyBackends
  int opset = 18;  // the ONNX exporter's own (torch.onnx.export(dynamo=True)); lower ones are converted
  std::vector<VerifyTarget> targets;
};

// Whether `spec` is a valid input spec; on failure `why` says what is allowed.
bool is_valid_input_spec(const std::string& spec, std::string* why);

}  // namespace fxlint::cli

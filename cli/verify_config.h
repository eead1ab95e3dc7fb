#pragma once
// `[tool.fxlint.verify]`: what `fxlint verify` captures when run without
// arguments. Parsed and validated with the rest of the config.
#include <optional>
#include <string>
#include <vector>

namespace fxlint::cli {

struct VerifyTarget {
  std::string target;                 // "path/to/file.py:Qualified.name"
  std::vector<std::string> inputs;    // specs: "float32[2,3]", "int64[4]", "bool[8]", "int:3"
  std::optional<std::string> factory; // "module:make_inputs", instead of inputs
  std::optional<std::string> mode;    // "strict" or "dynamo"; default from the table
  std::optional<std::string> onnx;    // path to write the exported model to
};

struct VerifyConfig {
  std::string mode = "strict";
  int opset = 18;  // the ONNX exporter's own (torch.onnx.export(dynamo=True)); lower ones are converted
  std::vector<VerifyTarget> targets;
};

// Whether `spec` is a valid input spec; on failure `why` says what is allowed.
bool is_valid_input_spec(const std::string& spec, std::string* why);

}  // namespace fxlint::cli

#pragma once
// `fxlint verify [TARGET [INPUT ...]] ...`: run the bytecode capture on each
// target (from the command line, or every `[[tool.fxlint.verify.targets]]` of
// the nearest config) and report its graphs, breaks, side effects,
// specializations and, when exported, the ONNX model's validity.
//
// Exit status: 0 every target captures in one graph with nothing failing;
// 1 a target breaks, fails strict checks, raises, or exports an invalid
// model; 2 usage or config error, a target or input that cannot be loaded,
// or a capture that cannot run (not built: the message says how to build it).
#include <span>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/config.h"
#include "cli/verify_run.h"

namespace fxlint::cli {

int run_verify(std::span<const std::string> args, Io& io);

// The jobs for a config's targets: paths relative to the config's directory
// `root`; `mode` (when given) overrides the table's and each target's mode.
std::vector<VerifyJob> config_verify_jobs(const VerifyConfig& verify, const std::filesystem::path& root,
                                          const std::optional<std::string>& mode);

// Shown when verification has no targets: how to configure them.
extern const char* const kHowToConfigureVerify;

}  // namespace fxlint::cli

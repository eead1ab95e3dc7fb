#pragma once
// `fxlint verify [TARGET [INPUT ...]] ...`: run the bytecode capture (or, with
// --backend, Dynamo's explain, torch.export or the ONNX exporter) on each
// target (from the command line, or every `[[tool.fxlint.verify.targets]]` of
// the nearest config) and report its graphs, breaks, side effects,
// specializations and, when exported, the ONNX model's validity; a real
// compiler's breaks and failures, each with the rule code it maps to.
//
// Exit status: 0 every target captures in one graph with nothing failing;
// 1 a target breaks, fails strict checks, raises, or exports an invalid
// model; 2 usage or config error, a target or input that cannot be loaded,
// or a capture that cannot run (not built: the message says how to build it).
#include <span>
#include <string>
#include <vector>

#include "cli/arg_parser.h"
#include "cli/command.h"
#include "cli/config.h"
#include "cli/verify_run.h"

namespace fxlint::cli {

int run_verify(std::span<const std::string> args, Io& io);

// The jobs for a config's targets: paths relative to the config's directory
// `root`; `mode` and `backend` (when given) override the table's and each
// target's.
std::vector<VerifyJob> config_verify_jobs(const VerifyConfig& verify, const std::filesystem::path& root,
                                          const std::optional<std::string>& mode,
                                          const std::optional<std::string>& backend = std::nullopt);

// `--backend NAME` when given, checked against kVerifyBackends (UsageError otherwise).
std::optional<std::string> parse_backend(const ParsedArgs& args);

// Shown when verification has no targets: how to configure them.
extern const char* const kHowToConfigureVerify;

}  // namespace fxlint::cli

#pragma once
// `fxlint server`: the language server on stdin/stdout. Per-file settings come
// from the same config files `fxlint check` reads, resolved again on every
// lint so that edits to them take effect without a restart.
#include <span>
#include <string>

#include "cli/command.h"

namespace fxlint::cli {

// The subcommand for main's command table: `args` are the words after `server`.
// Returns 0 after shutdown + exit, 1 when the client left without shutdown.
int run_server(std::span<const std::string> args, Io& io);

}  // namespace fxlint::cli

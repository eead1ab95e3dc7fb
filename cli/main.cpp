// fxlint's entry point: finds the subcommand and runs it. Every error that
// reaches here becomes a message on stderr and exit status 2.
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "cli/cli_error.h"
#include "cli/command.h"
#ifdef FXLINT_HAS_FIX
#include "cli/command_fix.h"
#endif
#ifdef FXLINT_HAS_SERVER
#include "cli/command_server.h"
#endif
#include "cli/command_verify.h"
#include "cli/version.h"

namespace {

using fxlint::cli::Command;
using fxlint::cli::Io;

int run_help(std::span<const std::string> args, Io& io);

// Each subcommand lives in its own cli/command_*.cpp.
constexpr Command kCommands[] = {
    {"check", "Lint Python files for code that breaks graph capture", fxlint::cli::run_check},
#ifdef FXLINT_HAS_FIX
    {"fix", "Show the fixes as a diff, or write them (--apply)",
     static_cast<fxlint::cli::CommandFn>(fxlint::cli::run_fix)},
#endif
    {"verify", "Capture targets and check that each traces into one graph", fxlint::cli::run_verify},
#ifdef FXLINT_HAS_SERVER
    {"server", "Run the language server on stdin/stdout", fxlint::cli::run_server},
#endif
    {"rule", "Show a rule's documentation, or list every rule (--all)", fxlint::cli::run_rule},
    {"help", "Print this message or the help of a command", run_help},
};

void print_usage(std::ostream& out) {
  out << "fxlint: find PyTorch code that will not trace into one graph "
         "(torch.compile, torch.export, ONNX).\n\n"
         "Usage: fxlint <COMMAND> [OPTIONS]\n\nCommands:\n";
  for (const Command& c : kCommands) {
    out << "  " << c.name << std::string(8 - c.name.size(), ' ') << c.summary << '\n';
  }
  out << "\nOptions:\n  -h, --help     Print help\n  -V, --version  Print version\n\n"
         "Run `fxlint <COMMAND> --help` for a command's options.\n";
}

const Command* find_command(std::string_view name) {
  for (const Command& c : kCommands) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

int run_help(std::span<const std::string> args, Io& io) {
  if (args.empty()) {
    print_usage(io.out);
    return 0;
  }
  const Command* c = find_command(args[0]);
  if (!c || c->run == run_help) throw fxlint::cli::UsageError("unknown command '" + args[0] + "'");
  std::vector<std::string> help = {"--help"};
  return c->run(help, io);
}

int dispatch(const std::vector<std::string>& args, Io& io) {
  if (args.empty()) {
    print_usage(io.err);
    return 2;
  }
  const std::string& first = args[0];
  if (first == "--version" || first == "-V") {
    io.out << "fxlint " << fxlint::cli::kVersion << '\n';
    return 0;
  }
  if (first == "--help" || first == "-h") return run_help({}, io);
  const Command* c = find_command(first);
  if (!c) {
    std::string names;
    for (const Command& cmd : kCommands) names += (names.empty() ? "" : ", ") + std::string(cmd.name);
    throw fxlint::cli::UsageError("unrecognized command '" + first + "'; commands: " + names);
  }
  return c->run(std::span<const std::string>(args).subspan(1), io);
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv + 1, argv + argc);
  std::error_code ec;
  Io io{std::cin, std::cout, std::cerr, std::filesystem::current_path(ec), ::isatty(1) == 1};
  int status = 2;
  try {
    status = dispatch(args, io);
  } catch (const fxlint::cli::UsageError& e) {
    std::cerr << "error: " << e.what() << "\n\nFor more information, try '--help'.\n";
    status = 2;
  } catch (const fxlint::cli::ConfigError& e) {
    std::cerr << "error: " << e.what() << '\n';
    status = 2;
  } catch (const std::exception& e) {
    std::cerr << "error: internal error: " << e.what() << '\n';
    status = 2;
  }
  std::cout.flush();
  return status;
}

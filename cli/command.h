#pragma once
// What every subcommand gets: its arguments (after the subcommand name), the
// standard streams and the working directory. Returns the exit status
// (0 clean, 1 diagnostics, 2 error); throws UsageError or ConfigError for the
// caller to print and turn into status 2.
#include <filesystem>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>

namespace fxlint::cli {

struct Io {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
  std::filesystem::path cwd;
  bool out_is_terminal = false;  // color output by default
};

using CommandFn = int (*)(std::span<const std::string> args, Io& io);

struct Command {
  std::string_view name;
  std::string_view summary;
  CommandFn run;
};

int run_check(std::span<const std::string> args, Io& io);
int run_rule(std::span<const std::string> args, Io& io);

}  // namespace fxlint::cli

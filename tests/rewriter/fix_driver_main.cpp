// Runs the fix command as a process, for the end-to-end tests:
//   fxlint_fix_driver [--toy-rules] ARGS...
// With --toy-rules the lint step is tests/rewriter/toy_rules.h (which can
// offer a fix that breaks the syntax); without it, the real check_sources.
#include <filesystem>
#include <iostream>

#include "cli/cli_error.h"
#include "cli/command_fix.h"
#include "toy_rules.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  bool toy = !args.empty() && args.front() == "--toy-rules";
  if (toy) args.erase(args.begin());
  std::error_code ec;
  fxlint::cli::Io io{std::cin, std::cout, std::cerr, std::filesystem::current_path(ec)};
  try {
    if (toy) return fxlint::cli::run_fix(args, io, fxlint::test::toy_check, false);
    return fxlint::cli::run_fix(args, io, fxlint::check_sources, false);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  }
}

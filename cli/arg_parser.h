#pragma once
// A small GNU-style option parser shared by the subcommands: `--name value`,
// `--name=value`, short aliases (`-j 4`), flags, `--` ending options and `-`
// as a positional. Unknown options and missing values throw UsageError.
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fxlint::cli {

struct OptionSpec {
  std::string_view name;        // "--select"
  std::string_view short_name;  // "-j" or ""
  std::string_view value_name;  // "CODES"; empty for a flag
  std::string_view help;
};

class ParsedArgs {
 public:
  bool has(std::string_view name) const { return values_.count(std::string(name)) > 0; }
  // The last value given (options given twice: the later wins).
  std::optional<std::string> last(std::string_view name) const;
  // Every value given, comma-separated lists split ("--select A,B --select C").
  std::vector<std::string> list(std::string_view name) const;
  const std::vector<std::string>& positionals() const { return positionals_; }

 private:
  friend ParsedArgs parse_args(std::span<const std::string>, std::span<const OptionSpec>);
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positionals_;
};

ParsedArgs parse_args(std::span<const std::string> args, std::span<const OptionSpec> specs);

// The options as an aligned help table.
std::string format_options(std::span<const OptionSpec> specs);

}  // namespace fxlint::cli

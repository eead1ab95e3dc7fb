// `fxlint rule CODE|NAME` prints a rule's documentation; `--all` lists the catalog.
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/arg_parser.h"
#include "cli/cli_error.h"
#include "cli/command.h"
#include "rules/registry.h"
#include "rules/rule_page.h"

namespace fxlint::cli {

namespace {

constexpr OptionSpec kOptions[] = {
    {"--all", "", "", "List every rule: code, name, severity per target, summary"},
    {"--output-format", "", "FORMAT", "text (default) or json"},
    {"--help", "-h", "", "Print this help"},
};


nlohmann::json rule_json(const RuleInfo& r) {
  nlohmann::json severity = nlohmann::json::object();
  for (Target t : kTargets) severity[target_name(t)] = severity_name(r.severity_for(t));
  return {{"code", r.code}, {"name", r.name},  {"summary", r.summary},
          {"severity", severity}, {"doc", r.doc}};
}

std::string padded(std::string_view s, size_t width) {
  std::string out(s);
  if (out.size() < width) out.append(width - out.size(), ' ');
  return out;
}

void print_rule(const RuleInfo& r, std::ostream& out) { out << rule_page(r); }

void print_table(std::ostream& out) {
  size_t name_width = 4;
  for (const RuleInfo& r : all_rules()) name_width = std::max(name_width, r.name.size());
  out << padded("CODE", 7) << padded("NAME", name_width + 2) << padded("FX2ONNX", 9)
      << padded("DYNAMO", 9) << padded("EXPORT", 9) << "SUMMARY\n";
  for (const RuleInfo& r : all_rules()) {
    out << padded(r.code, 7) << padded(r.name, name_width + 2);
    for (Target t : kTargets) out << padded(severity_name(r.severity_for(t)), 9);
    out << r.summary << '\n';
  }
}

}  // namespace

int run_rule(std::span<const std::string> argv, Io& io) {
  ParsedArgs args = parse_args(argv, kOptions);
  if (args.has("--help")) {
    io.out << "Show a rule's documentation, or list every rule.\n\n"
              "Usage: fxlint rule <CODE|NAME>\n       fxlint rule --all\n\nOptions:\n"
           << format_options(kOptions);
    return 0;
  }
  std::string format = args.last("--output-format").value_or("text");
  if (format != "text" && format != "json") {
    throw UsageError("invalid value '" + format + "' for '--output-format'; possible values: text, json");
  }
  bool all = args.has("--all");
  if (all == !args.positionals().empty() || args.positionals().size() > 1) {
    throw UsageError("give one rule code or name, or --all");
  }
  if (all) {
    if (format == "json") {
      nlohmann::json list = nlohmann::json::array();
      for (const RuleInfo& r : all_rules()) list.push_back(rule_json(r));
      io.out << list.dump(2) << '\n';
    } else {
      print_table(io.out);
    }
    return 0;
  }
  const std::string& wanted = args.positionals().front();
  std::optional<RuleId> id = find_rule(wanted);
  if (!id) throw UsageError("unknown rule '" + wanted + "'; `fxlint rule --all` lists them");
  if (format == "json") {
    io.out << rule_json(rule_info(*id)).dump(2) << '\n';
  } else {
    print_rule(rule_info(*id), io.out);
  }
  return 0;
}

}  // namespace fxlint::cli

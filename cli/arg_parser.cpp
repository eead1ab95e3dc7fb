#include "cli/arg_parser.h"

#include <vector>

#include "cli/cli_error.h"
#include "cli/spelling.h"

namespace fxlint::cli {

std::optional<std::string> ParsedArgs::last(std::string_view name) const {
  auto it = values_.find(std::string(name));
  if (it == values_.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> ParsedArgs::list(std::string_view name) const {
  std::vector<std::string> out;
  auto it = values_.find(std::string(name));
  if (it == values_.end()) return out;
  for (const std::string& v : it->second) {
    size_t pos = 0;
    while (pos <= v.size()) {
      size_t comma = v.find(',', pos);
      if (comma == std::string::npos) comma = v.size();
      std::string item = v.substr(pos, comma - pos);
      while (!item.empty() && item.front() == ' ') item.erase(0, 1);
      while (!item.empty() && item.back() == ' ') item.pop_back();
      if (!item.empty()) out.push_back(item);
      pos = comma + 1;
    }
  }
  return out;
}

namespace {

// "unexpected argument '--selcet'", with the option probably meant (as clap suggests).
std::string unexpected(const std::string& arg, const std::string& name, std::span<const OptionSpec> specs) {
  std::string message = "unexpected argument '" + arg + "'";
  std::vector<std::string_view> names;
  for (const OptionSpec& s : specs) names.push_back(s.name);
  std::string_view best = closest_spelling(name, names);
  if (!best.empty()) message += "; did you mean '" + std::string(best) + "'?";
  return message;
}

}  // namespace

ParsedArgs parse_args(std::span<const std::string> args, std::span<const OptionSpec> specs) {
  ParsedArgs parsed;
  bool options_done = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (options_done || arg == "-" || arg.empty() || arg[0] != '-') {
      parsed.positionals_.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_done = true;
      continue;
    }
    std::string name = arg;
    std::optional<std::string> inline_value;
    if (size_t eq = arg.find('='); arg.starts_with("--") && eq != std::string::npos) {
      name = arg.substr(0, eq);
      inline_value = arg.substr(eq + 1);
    } else if (!arg.starts_with("--") && arg.size() > 2) {
      name = arg.substr(0, 2);  // "-j4": a short option with its value attached
      inline_value = arg.substr(2);
    }
    const OptionSpec* spec = nullptr;
    for (const OptionSpec& s : specs) {
      if (s.name == name || (!s.short_name.empty() && s.short_name == name)) spec = &s;
    }
    if (!spec) throw UsageError(unexpected(arg, name, specs));
    std::string key(spec->name);
    if (spec->value_name.empty()) {
      if (inline_value) throw UsageError("option '" + key + "' takes no value");
      parsed.values_[key].push_back("");
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= args.size()) {
        throw UsageError("option '" + key + " <" + std::string(spec->value_name) + ">' needs a value");
      }
      inline_value = args[++i];
    }
    parsed.values_[key].push_back(*inline_value);
  }
  return parsed;
}

std::string format_options(std::span<const OptionSpec> specs) {
  std::vector<std::string> heads;
  size_t width = 0;
  for (const OptionSpec& s : specs) {
    std::string head = s.short_name.empty() ? "    " : std::string(s.short_name) + ", ";
    head += s.name;
    if (!s.value_name.empty()) head += " <" + std::string(s.value_name) + ">";
    width = std::max(width, head.size());
    heads.push_back(head);
  }
  std::string out;
  for (size_t i = 0; i < specs.size(); ++i) {
    out += "  " + heads[i] + std::string(width - heads[i].size() + 2, ' ') + std::string(specs[i].help) + "\n";
  }
  return out;
}

}  // namespace fxlint::cli

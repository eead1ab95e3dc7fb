#include "cli/toml_reader.h"

#include <algorithm>

#include "cli/cli_error.h"
#include "cli/spelling.h"

namespace fxlint::cli {

namespace {

std::string quoted_list(std::initializer_list<std::string_view> items) {
  std::string out;
  for (std::string_view s : items) {
    if (!out.empty()) out += ", ";
    out += '"';
    out += s;
    out += '"';
  }
  return out;
}

std::string did_you_mean(std::string_view value, std::initializer_list<std::string_view> allowed) {
  std::string_view best = closest_spelling(value, std::span<const std::string_view>(allowed.begin(), allowed.size()));
  return best.empty() ? "" : "did you mean \"" + std::string(best) + "\"? ";
}

}  // namespace

std::string toml_type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date:
    case toml::node_type::time:
    case toml::node_type::date_time: return "a date or time";
    default: return "nothing";
  }
}

std::string TomlReader::full_key(std::string_view key) const {
  // Keys that TOML cannot write bare (globs in per-file-ignores) are quoted.
  bool bare = !key.empty();
  for (char c : key) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '[' || c == ']';
    bare = bare && ok;
  }
  std::string k = bare ? std::string(key) : "\"" + std::string(key) + "\"";
  return prefix_.empty() ? k : prefix_ + "." + k;
}

void TomlReader::fail(const toml::node* node, std::string_view key, const std::string& problem) const {
  std::string where = file_;
  if (node && node->source().begin) {
    where += ":" + std::to_string(node->source().begin.line) + ":" +
             std::to_string(node->source().begin.column);
  }
  throw ConfigError(where + ": `" + full_key(key) + "`: " + problem);
}

void TomlReader::reject_unknown_keys(std::initializer_list<std::string_view> allowed) const {
  for (auto&& [k, v] : table_) {
    bool known = false;
    for (std::string_view a : allowed) known = known || k.str() == a;
    if (!known) {
      fail(&v, k.str(), "unknown key; " + did_you_mean(k.str(), allowed) + "allowed keys: " + quoted_list(allowed));
    }
  }
}

std::optional<std::string> TomlReader::string(std::string_view key) const {
  const toml::node* n = get(key);
  if (!n) return std::nullopt;
  if (!n->is_string()) fail(n, key, "expected a string, got " + toml_type_name(*n));
  return n->as_string()->get();
}

std::optional<std::string> TomlReader::choice(std::string_view key,
                                              std::initializer_list<std::string_view> allowed) const {
  std::optional<std::string> value = string(key);
  if (!value) return std::nullopt;
  for (std::string_view a : allowed) {
    if (*value == a) return value;
  }
  fail(get(key), key,
       "\"" + *value + "\" is not allowed; " + did_you_mean(*value, allowed) + "expected one of " +
           quoted_list(allowed));
}

std::optional<int64_t> TomlReader::integer(std::string_view key) const {
  const toml::node* n = get(key);
  if (!n) return std::nullopt;
  if (!n->is_integer()) fail(n, key, "expected an integer, got " + toml_type_name(*n));
  return n->as_integer()->get();
}

std::optional<std::vector<std::string>> TomlReader::string_list(std::string_view key) const {
  const toml::node* n = get(key);
  if (!n) return std::nullopt;
  const toml::array* arr = n->as_array();
  if (!arr) fail(n, key, "expected an array of strings, got " + toml_type_name(*n));
  std::vector<std::string> out;
  for (const toml::node& item : *arr) {
    if (!item.is_string()) {
      fail(&item, key, "expected an array of strings, but an item is " + toml_type_name(item));
    }
    out.push_back(item.as_string()->get());
  }
  return out;
}

const toml::table* TomlReader::table(std::string_view key) const {
  const toml::node* n = get(key);
  if (!n) return nullptr;
  if (!n->is_table()) fail(n, key, "expected a table, got " + toml_type_name(*n));
  return n->as_table();
}

}  // namespace fxlint::cli

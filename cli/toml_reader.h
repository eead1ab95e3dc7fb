#pragma once
// Typed, validating access to one TOML table of a config file. Every failure
// throws ConfigError naming the file (with line and column), the full key and
// what is allowed.
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

namespace fxlint::cli {

class TomlReader {
 public:
  // `prefix` is the dotted name of `table` as the user wrote it ("tool.fxlint"), or "".
  TomlReader(const toml::table& table, std::string file, std::string prefix)
      : table_(table), file_(std::move(file)), prefix_(std::move(prefix)) {}

  // Rejects keys outside `allowed`, listing the allowed ones.
  void reject_unknown_keys(std::initializer_list<std::string_view> allowed) const;

  const toml::node* get(std::string_view key) const { return table_.get(key); }
  std::optional<std::string> string(std::string_view key) const;
  std::optional<std::string> choice(std::string_view key,
                                    std::initializer_list<std::string_view> allowed) const;
  std::optional<int64_t> integer(std::string_view key) const;
  std::optional<std::vector<std::string>> string_list(std::string_view key) const;
  // A sub-table (or nullptr when absent); throws when the key is not a table.
  const toml::table* table(std::string_view key) const;

  std::string full_key(std::string_view key) const;
  [[noreturn]] void fail(const toml::node* node, std::string_view key, const std::string& problem) const;
  const std::string& file() const { return file_; }

 private:
  const toml::table& table_;
  std::string file_;
  std::string prefix_;
};

// "a string", "an array", ... for messages.
std::string toml_type_name(const toml::node& node);

}  // namespace fxlint::cli

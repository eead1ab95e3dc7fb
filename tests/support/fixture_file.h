#pragma once
// Reading rule fixtures (tests/fixtures/rules): the file, its
// `# fxlint-test: target=NAME` line and its `# expect: CODE[, CODE]` markers.
// Shared by the rule tests and the fix tests.
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "rules/checker.h"
#include "rules/registry.h"

namespace fxlint::test {

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::filesystem::path rule_fixtures_dir() {
  return std::filesystem::path(FXLINT_SOURCE_DIR) / "tests" / "fixtures" / "rules";
}

// Checks fixtures. Their fixes are written for the torch the project pins
// (requirements/runtime.txt), the one equivalence/run.py then runs them on.
inline std::vector<std::vector<Diagnostic>> check_fixtures(std::vector<SourceInput> inputs) {
  for (SourceInput& in : inputs) in.torch_version = "2.14";
  return check_sources(inputs, CheckOptions{});
}

// The target a fixture is checked for (fx2onnx unless it names one).
inline Target fixture_target(const std::string& text) {
  auto p = text.find("# fxlint-test: target=");
  if (p == std::string::npos) return Target::Fx2Onnx;
  std::string name;
  for (size_t i = p + 22; i < text.size() && std::isalnum(static_cast<unsigned char>(text[i])); ++i) name += text[i];
  return parse_target(name).value_or(Target::Fx2Onnx);
}

// Line (1-based) -> the codes its `# expect:` marker names.
inline std::map<uint32_t, std::multiset<std::string>> expected_codes(const std::string& text) {
  std::map<uint32_t, std::multiset<std::string>> out;
  std::istringstream in(text);
  std::string line;
  uint32_t row = 0;
  while (std::getline(in, line)) {
    ++row;
    auto p = line.find("# expect:");
    if (p == std::string::npos) continue;
    std::string code;
    for (char c : line.substr(p + 9) + ",") {
      if (c == ',' || c == ' ') {
        if (!code.empty()) out[row].insert(code);
        code.clear();
      } else {
        code += c;
      }
    }
  }
  return out;
}

// The text without its markers: a marker after code is cut, a line holding
// only a marker (one a fix moved) is dropped.
inline std::string without_expect_markers(const std::string& text) {
  std::string out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    size_t marker = line.find("# expect:");
    if (marker != std::string::npos) {
      size_t code_end = line.find_last_not_of(" \t", marker == 0 ? std::string::npos : marker - 1);
      if (marker == 0 || code_end == std::string::npos) continue;
      line.erase(code_end + 1);
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace fxlint::test

// `fxlint fix --unsafe-fixes` on each rule fixture gives exactly CODE.fixed.py,
// and fixing the result again changes nothing.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "rewriter/fix_loop.h"
#include "rules/checker.h"

namespace fs = std::filesystem;
using namespace fxlint;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string without_markers(const std::string& text) {
  static const std::regex marker("[ \\t]*# expect:[^\\n]*");
  return std::regex_replace(text, marker, "");
}

LintFunction default_lint(const std::string& path) {
  return [path](std::span<const std::string> texts) {
    std::vector<SourceInput> inputs;
    for (const std::string& t : texts) {
      inputs.push_back({path, fs::path(path).stem().string(), t, default_rules(Target::Fx2Onnx), Target::Fx2Onnx});
    }
    return check_sources(inputs, CheckOptions{});
  };
}

std::string fix(const std::string& path, const std::string& text) {
  FixLoopOptions options;
  options.mode = FixMode::IncludeUnsafe;
  auto results = fix_until_stable({FixInput{path, text}}, default_lint(path), options);
  INFO(results[0].error);
  CHECK((results[0].status == FixStatus::Fixed || results[0].status == FixStatus::Unchanged));
  return results[0].fixed;
}

}  // namespace

TEST_CASE("fixing each rule fixture gives its .fixed.py") {
  fs::path dir = fs::path(FXLINT_SOURCE_DIR) / "tests" / "fixtures" / "rules";
  std::vector<fs::path> expected_files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().ends_with(".fixed.py")) expected_files.push_back(e.path());
  }
  std::sort(expected_files.begin(), expected_files.end());
  REQUIRE(expected_files.size() >= 8);
  for (const fs::path& expected_path : expected_files) {
    std::string code = expected_path.filename().string();
    code = code.substr(0, code.find('.'));
    DYNAMIC_SECTION(code) {
      fs::path source = dir / (code + ".py");
      std::string original = without_markers(read_file(source));
      std::string expected = without_markers(read_file(expected_path));
      std::string fixed = fix(source.string(), original);
      CHECK(fixed == expected);
      CHECK(fix(source.string(), fixed) == fixed);
    }
  }
}

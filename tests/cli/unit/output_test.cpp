// Rendered output of each format for fixed diagnostics, compared with the
// snapshots in tests/cli/snapshots (FXLINT_UPDATE_SNAPSHOTS=1 rewrites them).
#include "tests/support/catch.h"

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/output/file_uri.h"
#include "cli/output/output_format.h"

using namespace fxlint;
using namespace fxlint::cli;

namespace {

uint32_t offset_of(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return static_cast<uint32_t>(at);
}

// Two files: one with an ASCII span, a tab and a fix; one with non-ASCII text.
std::vector<FileResult> sample() {
  FileResult model;
  model.path = "/project/pkg/model.py";
  model.display_path = "pkg/model.py";
  model.text =
      "import torch\n\n\nclass Net(torch.nn.Module):\n    def forward(self, x):\n"
      "\tif x.sum() > 0:\n            return x.item()\n        return x\n";
  uint32_t item = offset_of(model.text, "x.item()");
  uint32_t cond = offset_of(model.text, "x.sum() > 0");
  Fix fix{"Return the tensor instead of `.item()`", Applicability::Safe,
          {{{item + 1, item + 8}, ""}}};
  model.diagnostics.push_back({"FX103", "`if` on a tensor value", {cond, cond + 11}, Severity::Error, std::nullopt});
  model.diagnostics.push_back({"FX101", "`.item()` turns a tensor into a Python number", {item, item + 8},
                               Severity::Error, fix});

  FileResult util;
  util.path = "/project/util.py";
  util.display_path = "util.py";
  util.text = "# noqa: FX101\nnom = \"héllo\"; y = nom.item()\n";
  uint32_t noqa = offset_of(util.text, "# noqa");
  uint32_t call = offset_of(util.text, "nom.item()");
  util.diagnostics.push_back({"FX901", "unused suppression: `FX101`", {noqa, noqa + 13}, Severity::Warning, std::nullopt});
  Fix unsafe{"Remove the call", Applicability::Unsafe, {{{call + 3, call + 10}, ""}}};
  util.diagnostics.push_back({"FX101", "`.item()` turns a tensor into a Python number", {call, call + 10},
                              Severity::Error, unsafe});

  FileResult unreadable;
  unreadable.path = "/project/secret.py";
  unreadable.display_path = "secret.py";
  unreadable.diagnostics.push_back({"FX900", "cannot read file: permission denied", {}, Severity::Error, std::nullopt});
  return {model, unreadable, util};
}

void check_snapshot(const std::string& name, const std::string& actual) {
  std::string path = std::string(FXLINT_CLI_SNAPSHOTS) + "/" + name;
  const char* update = std::getenv("FXLINT_UPDATE_SNAPSHOTS");
  if (update && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  std::ifstream in(path, std::ios::binary);
  INFO("snapshot " << path << " (run with FXLINT_UPDATE_SNAPSHOTS=1 to create or update it)");
  REQUIRE(in.good());
  std::stringstream expected;
  expected << in.rdbuf();
  CHECK(actual == expected.str());
}

std::string render(OutputFormat format, bool show_fixes = false) {
  std::vector<FileResult> files = sample();
  OutputOptions options;
  options.show_fixes = show_fixes;
  std::ostringstream out;
  write_diagnostics(format, files, options, out);
  return out.str();
}

}  // namespace

TEST_CASE("full output: header, underlined span, fix title, summary") {
  check_snapshot("full.txt", render(OutputFormat::Full));
  check_snapshot("full_show_fixes.txt", render(OutputFormat::Full, true));
}

TEST_CASE("concise output") { check_snapshot("concise.txt", render(OutputFormat::Concise)); }

TEST_CASE("github annotations") { check_snapshot("github.txt", render(OutputFormat::Github)); }

TEST_CASE("json uses ruff's field names, 1-based rows and character columns") {
  std::string text = render(OutputFormat::Json);
  check_snapshot("json.json", text);
  nlohmann::json all = nlohmann::json::parse(text);
  REQUIRE(all.size() == 5);
  const nlohmann::json& accented = all[4];  // the .item() after "héllo": 20 characters in, 21 bytes
  CHECK(accented["code"] == "FX101");
  CHECK(accented["location"] == nlohmann::json({{"row", 2}, {"column", 20}}));
  CHECK(accented["end_location"] == nlohmann::json({{"row", 2}, {"column", 30}}));
  CHECK(accented["fix"]["applicability"] == "unsafe");
  CHECK(accented["filename"] == "/project/util.py");
  CHECK(all[3]["severity"] == "warning");
}

TEST_CASE("sarif 2.1.0: every rule with docs, results with level, region and fixes") {
  nlohmann::json sarif = nlohmann::json::parse(render(OutputFormat::Sarif));
  CHECK(sarif["version"] == "2.1.0");
  const nlohmann::json& run = sarif["runs"][0];
  CHECK(run["tool"]["driver"]["name"] == "fxlint");
  CHECK(run["tool"]["driver"]["rules"].size() == kRuleCount);
  CHECK(run["tool"]["driver"]["rules"][0]["id"] == "FX101");
  CHECK(run["columnKind"] == "unicodeCodePoints");
  REQUIRE(run["results"].size() == 5);
  const nlohmann::json& first = run["results"][0];
  CHECK(first["ruleId"] == "FX103");
  CHECK(first["level"] == "error");
  CHECK(first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "file:///project/pkg/model.py");
  CHECK(first["locations"][0]["physicalLocation"]["region"] ==
        nlohmann::json({{"startLine", 6}, {"startColumn", 5}, {"endLine", 6}, {"endColumn", 16}}));
  CHECK(run["results"][1]["fixes"][0]["artifactChanges"][0]["replacements"].size() == 1);
  CHECK(run["results"][3]["level"] == "warning");
}

TEST_CASE("statistics count diagnostics per rule") {
  std::vector<FileResult> files = sample();
  std::ostringstream text;
  write_statistics(OutputFormat::Full, files, text);
  check_snapshot("statistics.txt", text.str());
  std::ostringstream json;
  write_statistics(OutputFormat::Json, files, json);
  nlohmann::json stats = nlohmann::json::parse(json.str());
  CHECK(stats[0] == nlohmann::json({{"code", "FX101"}, {"name", "tensor-item"}, {"count", 2}, {"severity", "error"}, {"fixable", true}}));
}

TEST_CASE("summary wording") {
  std::ostringstream none;
  write_summary({}, none);
  CHECK(none.str() == "All checks passed!\n");
  std::vector<FileResult> files = sample();
  std::ostringstream some;
  write_summary(files, some);
  CHECK(some.str() ==
        "Found 4 errors and 1 warning (1 fixable with `fxlint fix --apply`, 1 more with `--unsafe-fixes`).\n");
  // Warnings are named as such: a run with only warnings found no error.
  FileResult warned;
  warned.path = warned.display_path = "w.py";
  warned.text = "x = 1\n";
  warned.diagnostics.push_back({"FX201", "m", {0, 1}, Severity::Warning, std::nullopt});
  warned.diagnostics.push_back({"FX201", "m", {0, 1}, Severity::Warning, std::nullopt});
  std::ostringstream only_warnings;
  write_summary(std::span<const FileResult>(&warned, 1), only_warnings);
  CHECK(only_warnings.str() == "Found 2 warnings.\n");
}

TEST_CASE("file URIs are percent-encoded") {
  CHECK(file_uri("/a b/c#d.py") == "file:///a%20b/c%23d.py");
}

TEST_CASE("full output cuts very long lines to a window around the span") {
  FileResult f;
  f.path = "/p/min.py";
  f.display_path = "min.py";
  f.text = "y = [" + std::string(2000, '1') + ", x.item(), " + std::string(2000, '2') + "]\n";
  uint32_t at = offset_of(f.text, "x.item()");
  f.diagnostics.push_back({"FX101", "m", {at, at + 8}, Severity::Error, std::nullopt});
  std::ostringstream out;
  write_full(std::span<const FileResult>(&f, 1), {}, out);
  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  REQUIRE(lines.size() >= 4);
  CHECK(lines[2].size() < 200);
  CHECK(lines[2].starts_with("1 | ..."));
  CHECK(lines[2].ends_with("..."));
  size_t caret = lines[3].find('^');
  CHECK(lines[2].substr(caret, 8) == "x.item()");
}

#include "tests/support/catch.h"

#include "cli/cli_error.h"
#include "cli/config.h"
#include "cli/config_resolver.h"
#include "temp_dir.h"

using namespace fxlint;
using namespace fxlint::cli;
using fxlint::cli::test::TempDir;

TEST_CASE("every key of [tool.fxlint] is read") {
  TempDir dir;
  auto file = dir.write("pyproject.toml", R"(
[project]
name = "demo"

[tool.fxlint]
target = "dynamo"
torch-version = "2.1"
select = ["FX1", "FX501"]
extend-select = ["FX201"]
ignore = ["FX104"]
exclude = ["generated"]
extend-exclude = ["legacy/*.py"]
scope = "all"
entry-points = ["pkg.model:Net.forward"]
compile-functions = ["vendor.Context.compile"]
compile-decorators = ["vendor.jit"]

[tool.fxlint.per-file-ignores]
"tests/*" = ["FX1"]
"__init__.py" = ["tensor-item"]

[tool.fxlint.verify]
mode = "dynamo"
opset = 18
[[tool.fxlint.verify.targets]]
target = "pkg/model.py:Net.forward"
inputs = ["float32[2,3]", "int:3", "bool[8]"]
[[tool.fxlint.verify.targets]]
target = "pkg/model.py:make"
factory = "pkg.inputs:make_inputs"
onnx = "out/model.onnx"
)");
  Config c = load_config_file(file);
  CHECK(c.file == file);
  CHECK(c.root == dir.path());
  CHECK(c.target == Target::Dynamo);
  CHECK(c.torch_version == "2.1");
  CHECK(c.select == std::vector<std::string>{"FX1", "FX501"});
  CHECK(c.extend_select == std::vector<std::string>{"FX201"});
  CHECK(c.ignore == std::vector<std::string>{"FX104"});
  CHECK(c.scope == Scope::All);
  CHECK(c.entry_points == std::vector<std::string>{"pkg.model:Net.forward"});
  CHECK(c.compile_functions == std::vector<std::string>{"vendor.Context.compile"});
  CHECK(c.compile_decorators == std::vector<std::string>{"vendor.jit"});
  REQUIRE(c.per_file_ignores.size() == 2);
  CHECK(c.is_excluded(dir.path() / "generated"));
  CHECK(c.is_excluded(dir.path() / "legacy" / "old.py"));
  CHECK_FALSE(c.is_excluded(dir.path() / "build"));  // `exclude` replaced the defaults
  CHECK(c.verify.mode == "dynamo");
  CHECK(c.verify.opset == 18);
  REQUIRE(c.verify.targets.size() == 2);
  CHECK(c.verify.targets[0].inputs.size() == 3);
  CHECK(c.verify.targets[1].factory == "pkg.inputs:make_inputs");
  CHECK(c.verify.targets[1].onnx == "out/model.onnx");
}

TEST_CASE("fxlint.toml uses the same keys at top level; defaults exclude build dirs") {
  TempDir dir;
  auto file = dir.write("fxlint.toml", "target = \"export\"\n[per-file-ignores]\n\"a.py\" = [\"FX101\"]\n");
  Config c = load_config_file(file);
  CHECK(c.target == Target::Export);
  CHECK(c.is_excluded(dir.path() / "sub" / "build"));
  CHECK(c.is_excluded(dir.path() / ".venv"));
  CHECK(c.per_file_ignores.front().pattern.matches(dir.path() / "deep" / "a.py"));
}

namespace {
std::string error_of(const std::string& name, const std::string& text) {
  TempDir dir;
  auto file = dir.write(name, text);
  try {
    load_config_file(file);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("broken config names the file, the key and what is allowed") {
  using Catch::Contains;
  std::string e = error_of("pyproject.toml", "[tool.fxlint]\ntarget = \"onnx\"\n");
  CHECK_THAT(e, Contains("pyproject.toml:2:10: `tool.fxlint.target`"));
  CHECK_THAT(e, Contains("\"fx2onnx\", \"dynamo\", \"export\""));

  e = error_of("fxlint.toml", "selct = [\"FX1\"]\n");
  CHECK_THAT(e, Contains("fxlint.toml:1:9: `selct`: unknown key; did you mean \"select\"? allowed keys: \"target\""));
  CHECK_THAT(error_of("fxlint.toml", "unrelated = 1\n"), Contains("unknown key; allowed keys:"));
  CHECK_THAT(error_of("fxlint.toml", "target = \"dynamic\"\n"), Contains("did you mean \"dynamo\"?"));
  // A pyproject-style table in a file of another name (`--config ep.toml`).
  CHECK_THAT(error_of("ep.toml", "[tool.fxlint]\ntarget = \"dynamo\"\n"),
             Contains("ep.toml: a `[tool.fxlint]` table is read from a file named pyproject.toml; in ep.toml write the "
                      "settings at the top level"));

  e = error_of("fxlint.toml", "select = [\"FX999\"]\n");
  CHECK_THAT(e, Contains("`select`: unknown rule selector \"FX999\""));

  e = error_of("fxlint.toml", "ignore = \"FX101\"\n");
  CHECK_THAT(e, Contains("`ignore`: expected an array of strings, got a string"));

  e = error_of("fxlint.toml", "scope = \"some\"\n");
  CHECK_THAT(e, Contains("\"reachable\", \"all\""));

  e = error_of("fxlint.toml", "torch-version = \"latest\"\n");
  CHECK_THAT(e, Contains("`torch-version`: \"latest\" is not a version"));

  e = error_of("fxlint.toml", "entry-points = [\"pkg.model.Net\"]\n");
  CHECK_THAT(e, Contains("expected \"package.module:Qualified.name\""));

  e = error_of("fxlint.toml", "[per-file-ignores]\n\"tests/*\" = [\"FX1000\"]\n");
  CHECK_THAT(e, Contains("`per-file-ignores.\"tests/*\"`: unknown rule selector \"FX1000\""));

  e = error_of("fxlint.toml", "exclude = [\"a[b\"]\n");
  CHECK_THAT(e, Contains("invalid glob \"a[b\": unclosed `[`"));

  e = error_of("fxlint.toml", "target = \n");
  CHECK_THAT(e, Contains("fxlint.toml:1:"));
  CHECK_THAT(e, Contains("invalid TOML"));
}

TEST_CASE("broken verify tables are errors too") {
  using Catch::Contains;
  CHECK_THAT(error_of("fxlint.toml", "[[verify.targets]]\ntarget = \"m.py:f\"\ninputs = [\"float33[2]\"]\n"),
             Contains("`verify.targets[0].inputs`: invalid input spec \"float33[2]\""));
  CHECK_THAT(error_of("fxlint.toml", "[[verify.targets]]\ntarget = \"m.py:f\"\n"),
             Contains("missing `inputs`"));
  CHECK_THAT(error_of("fxlint.toml", "[[verify.targets]]\ntarget = \"model:f\"\ninputs = []\n"),
             Contains("expected \"path/to/file.py:Qualified.name\""));
  CHECK_THAT(error_of("fxlint.toml", "[verify]\nmode = \"fast\"\n"), Contains("\"strict\", \"dynamo\""));
  CHECK_THAT(error_of("fxlint.toml", "[verify]\ntimeout = 3\n"), Contains("`verify.timeout`: unknown key"));
}

TEST_CASE("verify backends: the table's, a target's own, and what they allow") {
  using Catch::Contains;
  TempDir dir;
  auto file = dir.write("fxlint.toml", R"([verify]
backend = "export"
[[verify.targets]]
target = "m.py:f"
inputs = ["float32[2]"]
[[verify.targets]]
target = "m.py:g"
inputs = ["float32[2]"]
backend = "onnx"
onnx = "g.onnx"
)");
  Config c = load_config_file(file);
  CHECK(c.verify.backend == "export");
  REQUIRE(c.verify.targets.size() == 2);
  CHECK_FALSE(c.verify.targets[0].backend.has_value());
  CHECK(c.verify.targets[1].backend == "onnx");
  CHECK(Config{}.verify.backend == "capture");
  CHECK_THAT(error_of("fxlint.toml", "[verify]\nbackend = \"tvm\"\n"),
             Contains("`verify.backend`: \"tvm\" is not allowed"));
  CHECK_THAT(error_of("fxlint.toml", "[[verify.targets]]\ntarget = \"m.py:f\"\ninputs = []\nbackend = \"jit\"\n"),
             Contains("\"capture\", \"dynamo\", \"export\", \"onnx\""));
  // A model path means nothing to a backend that writes no model, the table's or the target's own.
  CHECK_THAT(error_of("fxlint.toml", "[verify]\nbackend = \"dynamo\"\n[[verify.targets]]\ntarget = \"m.py:f\"\n"
                                     "inputs = []\nonnx = \"f.onnx\"\n"),
             Contains("the \"dynamo\" backend writes no ONNX model"));
  CHECK_THAT(error_of("fxlint.toml", "[[verify.targets]]\ntarget = \"m.py:f\"\ninputs = []\nbackend = \"export\"\n"
                                     "onnx = \"f.onnx\"\n"),
             Contains("`verify.targets[0].onnx`"));
}

TEST_CASE("the nearest config wins; .fxlint.toml before fxlint.toml before pyproject.toml") {
  TempDir dir;
  dir.write("pyproject.toml", "[tool.fxlint]\ntarget = \"dynamo\"\n");
  dir.write("a/pyproject.toml", "[project]\nname = \"no fxlint table\"\n");
  dir.write("a/b/fxlint.toml", "target = \"export\"\n");
  dir.write("c/fxlint.toml", "target = \"export\"\n");
  dir.write("c/.fxlint.toml", "target = \"fx2onnx\"\n");
  ConfigResolver r(dir.path(), std::nullopt);
  CHECK(r.for_directory(dir.path()).target == Target::Dynamo);
  CHECK(r.for_directory(dir.path() / "a").target == Target::Dynamo);
  CHECK(r.for_directory(dir.path() / "a" / "b" / "x").target == Target::Export);
  CHECK(r.for_directory(dir.path() / "c").target == Target::Fx2Onnx);

  ConfigResolver forced(dir.path(), dir.path() / "c" / "fxlint.toml");
  CHECK(forced.for_directory(dir.path()).target == Target::Export);
}

TEST_CASE("a missing --config file is an error naming it") {
  TempDir dir;
  CHECK_THROWS_WITH(ConfigResolver(dir.path(), dir.path() / "nope.toml"),
                    Catch::Contains("nope.toml: cannot read the config file"));
}

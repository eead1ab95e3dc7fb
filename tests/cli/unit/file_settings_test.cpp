#include "tests/support/catch.h"

#include "cli/lint_run.h"
#include "temp_dir.h"

using namespace fxlint;
using namespace fxlint::cli;
using fxlint::cli::test::TempDir;

namespace {
bool on(const FileSettings& s, RuleId id) { return s.rules.test(static_cast<size_t>(id)); }
}  // namespace

TEST_CASE("a file's settings: config first, the command line over it, per-file-ignores last") {
  TempDir dir;
  auto file = dir.write("fxlint.toml",
                        "target = \"dynamo\"\nscope = \"all\"\nignore = [\"FX501\"]\n"
                        "[per-file-ignores]\n\"tests/*\" = [\"FX1\"]\n");
  Config config = load_config_file(file);
  LintRequest request;
  FileSettings model = file_settings(request, config, dir.path() / "model.py");
  CHECK(model.target == Target::Dynamo);
  CHECK(model.scope == Scope::All);
  CHECK_FALSE(on(model, RuleId::FX501));
  CHECK_FALSE(on(model, RuleId::FX401));  // off for dynamo
  CHECK(on(model, RuleId::FX101));
  CHECK_FALSE(on(file_settings(request, config, dir.path() / "tests" / "a" / "t.py"), RuleId::FX101));

  request.target = Target::Export;
  request.scope = Scope::Reachable;
  request.selection.extend_select = {"FX501"};
  FileSettings cli = file_settings(request, config, dir.path() / "model.py");
  CHECK(cli.target == Target::Export);
  CHECK(cli.scope == Scope::Reachable);
  CHECK(on(cli, RuleId::FX401));
  CHECK(on(cli, RuleId::FX501));  // named by code: on even though export has it off
}

TEST_CASE("display paths are relative inside the working directory, absolute outside") {
  CHECK(display_path("/work/p/a/b.py", "/work/p") == "a/b.py");
  CHECK(display_path("/elsewhere/b.py", "/work/p") == "/elsewhere/b.py");
  CHECK(display_path("/work/p2/b.py", "/work/p") == "/work/p2/b.py");
}

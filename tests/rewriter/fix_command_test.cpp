// `fxlint fix` run in-process on temporary files, with toy rules standing in
// for check_sources so that every path of the command can be reached: a fix
// that breaks the syntax, an unwritable file, unsafe and unfixable findings.
#include "tests/support/catch.h"

#include <sys/stat.h>

#include <sstream>

#include "cli/cli_error.h"
#include "cli/command_fix.h"
#include "temp_dir.h"
#include "toy_rules.h"

using namespace fxlint;
using namespace fxlint::cli;
using namespace fxlint::test;

namespace {

struct Run {
  int status = 0;
  std::string out;
  std::string err;
  std::vector<SourceInput> seen_inputs;
};

Run fix(const TempDir& dir, std::vector<std::string> args) {
  Run run;
  std::istringstream in;
  std::ostringstream out, err;
  Io io{in, out, err, dir.path()};
  CheckFunction check = [&](std::span<const SourceInput> inputs, const CheckOptions&) {
    run.seen_inputs.assign(inputs.begin(), inputs.end());
    std::vector<std::vector<Diagnostic>> found;
    for (const SourceInput& input : inputs) found.push_back(toy_rules(input));
    return found;
  };
  run.status = run_fix(args, io, check, false);
  run.out = out.str();
  run.err = err.str();
  return run;
}

}  // namespace

TEST_CASE("without --apply: the diff, exit 1, the file untouched", "[fix-command]") {
  TempDir dir;
  std::string p = dir.write("m.py", "x = old\ny = 1\n");
  Run r = fix(dir, {"m.py"});
  CHECK(r.status == 1);
  CHECK(r.out == "--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n-x = old\n+x = new\n y = 1\n");
  CHECK_THAT(r.err, Catch::Contains("Would fix 1 error (FX104) in 1 file."));
  CHECK(TempDir::read(p) == "x = old\ny = 1\n");
}

TEST_CASE("--apply writes; a second run changes nothing", "[fix-command]") {
  TempDir dir;
  std::string p = dir.write("pkg/m.py", "x = old  # old comment kept? no: fixed too\n");
  chmod(p.c_str(), 0754);
  Run first = fix(dir, {"--apply", "."});
  CHECK(first.status == 0);
  CHECK(first.out.empty());
  CHECK_THAT(first.err, Catch::Contains("Fixed 2 errors (FX104 \xC3\x97" "2) in 1 file."));
  std::string fixed = TempDir::read(p);
  CHECK(fixed == "x = new  # new comment kept? no: fixed too\n");
  struct stat st;
  stat(p.c_str(), &st);
  CHECK((st.st_mode & 07777) == 0754);

  Run second = fix(dir, {"--apply", "."});
  CHECK(second.status == 0);
  CHECK(TempDir::read(p) == fixed);
  CHECK_THAT(second.err, Catch::Contains("No fixes applied."));
  Run dry = fix(dir, {"."});
  CHECK(dry.status == 0);
  CHECK(dry.out.empty());
}

TEST_CASE("--exit-non-zero-on-fix", "[fix-command]") {
  TempDir dir;
  dir.write("m.py", "x = old\n");
  CHECK(fix(dir, {"--apply", "--exit-non-zero-on-fix", "m.py"}).status == 1);
  CHECK(fix(dir, {"--apply", "--exit-non-zero-on-fix", "m.py"}).status == 0);
}

TEST_CASE("unsafe fixes need --unsafe-fixes; what is left is explained", "[fix-command]") {
  TempDir dir;
  std::string p = dir.write("m.py", "a = risky\nb = mask\nc = old\n");
  Run safe = fix(dir, {"--apply", "m.py"});
  CHECK(safe.status == 1);  // diagnostics remain
  CHECK(TempDir::read(p) == "a = risky\nb = mask\nc = new\n");
  CHECK_THAT(safe.err, Catch::Contains("2 errors remain:") &&
                           Catch::Contains("1 fix available with --unsafe-fixes (FX103)") &&
                           Catch::Contains("FX301 has no automatic fix (1 error)"));

  Run unsafe = fix(dir, {"--apply", "--unsafe-fixes", "m.py"});
  CHECK(unsafe.status == 1);  // FX301 is still there
  CHECK(TempDir::read(p) == "a = where\nb = mask\nc = new\n");
}

TEST_CASE("rule selection and config apply as in check", "[fix-command]") {
  TempDir dir;
  std::string p = dir.write("m.py", "x = old\n");
  dir.write("fxlint.toml", "torch-version = \"1.13\"\n");
  Run ignored = fix(dir, {"--ignore", "FX104", "m.py"});
  CHECK(ignored.status == 0);
  CHECK(ignored.out.empty());
  REQUIRE(ignored.seen_inputs.size() == 1);
  CHECK(ignored.seen_inputs[0].torch_version == "1.13");
  CHECK_THROWS_AS(fix(dir, {"--select", "NOPE", "m.py"}), UsageError);
}

TEST_CASE("a read-only file is an error that names it; nothing is lost", "[fix-command]") {
  TempDir dir;
  std::string ro = dir.write("ro.py", "x = old\n");
  std::string rw = dir.write("rw.py", "y = old\n");
  chmod(ro.c_str(), 0444);
  Run r = fix(dir, {"--apply", "."});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("error: ro.py: file is read-only"));
  CHECK_THAT(r.err, Catch::Contains("Fixed 1 error (FX104) in 1 file."));
  CHECK(TempDir::read(ro) == "x = old\n");
  CHECK(TempDir::read(rw) == "y = new\n");  // the other file is still fixed
}

TEST_CASE("a fix that would break the syntax leaves the file and says which", "[fix-command]") {
  TempDir dir;
  const std::string text = "x = old\nbreakme\n";
  std::string p = dir.write("m.py", text);
  Run r = fix(dir, {"--apply", "m.py"});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("error: m.py: the fix for FX502 at 2:1") &&
                        Catch::Contains("left as it was"));
  CHECK(TempDir::read(p) == text);
}

TEST_CASE("CRLF, BOM, tabs, comments and other bytes survive a fix", "[fix-command]") {
  TempDir dir;
  const std::string text =
      "\xEF\xBB\xBF# caf\xC3\xA9\r\ndef f(x):\r\n\tif x:\r\n\t\treturn old  # keep\r\n\treturn x\r\n";
  std::string p = dir.write("m.py", text);
  Run r = fix(dir, {"--apply", "m.py"});
  CHECK(r.status == 0);
  std::string expected = text;
  expected.replace(expected.find("old"), 3, "new");
  CHECK(TempDir::read(p) == expected);
}

TEST_CASE("--verify is refused with an explanation, --help describes the options", "[fix-command]") {
  TempDir dir;
  dir.write("m.py", "x = old\n");
  CHECK_THROWS_WITH(fix(dir, {"--verify", "m.py"}), Catch::Contains("capture"));
  Run help = fix(dir, {"--help"});
  CHECK(help.status == 0);
  CHECK_THAT(help.out, Catch::Contains("--unsafe-fixes") && Catch::Contains("--apply"));
}

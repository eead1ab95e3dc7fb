#include "tests/support/catch.h"

#include "cli/arg_parser.h"
#include "cli/cli_error.h"

using namespace fxlint::cli;

namespace {
constexpr OptionSpec kSpecs[] = {
    {"--select", "", "CODES", ""},
    {"--jobs", "-j", "N", ""},
    {"--exit-zero", "", "", ""},
};
ParsedArgs parse(std::vector<std::string> args) { return parse_args(args, kSpecs); }
}  // namespace

TEST_CASE("options take values separately or after =, lists split on commas") {
  ParsedArgs a = parse({"src", "--select", "FX1,FX2", "--select=FX501", "-j", "3", "--exit-zero", "b.py"});
  CHECK(a.list("--select") == std::vector<std::string>{"FX1", "FX2", "FX501"});
  CHECK(a.last("--jobs") == "3");
  CHECK(a.has("--exit-zero"));
  CHECK(a.positionals() == std::vector<std::string>{"src", "b.py"});
  CHECK(parse({"-j2"}).last("--jobs") == "2");
}

TEST_CASE("-- ends options and - is a path") {
  ParsedArgs a = parse({"-", "--", "--exit-zero"});
  CHECK(a.positionals() == std::vector<std::string>{"-", "--exit-zero"});
  CHECK_FALSE(a.has("--exit-zero"));
}

TEST_CASE("unknown options, missing values and values on flags are usage errors") {
  CHECK_THROWS_WITH(parse({"--selct", "FX1"}), "unexpected argument '--selct'; did you mean '--select'?");
  CHECK_THROWS_WITH(parse({"--exit-zreo"}), "unexpected argument '--exit-zreo'; did you mean '--exit-zero'?");
  CHECK_THROWS_WITH(parse({"--frobnicate"}), "unexpected argument '--frobnicate'");  // nothing close
  CHECK_THROWS_WITH(parse({"--select"}), Catch::Contains("needs a value"));
  CHECK_THROWS_WITH(parse({"--exit-zero=1"}), Catch::Contains("takes no value"));
}

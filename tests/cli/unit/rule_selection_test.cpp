#include "tests/support/catch.h"

#include "cli/rule_selection.h"

using namespace fxlint;
using namespace fxlint::cli;

namespace {
bool on(const RuleSet& s, RuleId id) { return s.test(static_cast<size_t>(id)); }
RuleSet resolve(Target t, std::vector<RuleSelection> layers) { return resolve_rules(t, layers); }
}  // namespace

TEST_CASE("target defaults: rules off for a target stay off") {
  RuleSet dynamo = resolve(Target::Dynamo, {});
  CHECK_FALSE(on(dynamo, RuleId::FX104));
  CHECK_FALSE(on(dynamo, RuleId::FX401));
  CHECK(on(dynamo, RuleId::FX101));
  CHECK_FALSE(on(resolve(Target::Export, {}), RuleId::FX501));
  CHECK(on(resolve(Target::Fx2Onnx, {}), RuleId::FX104));
}

TEST_CASE("select replaces, extend-select adds, ignore removes") {
  RuleSet s = resolve(Target::Fx2Onnx, {{std::vector<std::string>{"FX1"}, {"FX501"}, {"FX104"}}});
  CHECK(on(s, RuleId::FX101));
  CHECK(on(s, RuleId::FX501));
  CHECK_FALSE(on(s, RuleId::FX104));
  CHECK_FALSE(on(s, RuleId::FX201));
}

TEST_CASE("the more specific selector wins; ignore wins a tie") {
  RuleSet s = resolve(Target::Fx2Onnx, {{std::vector<std::string>{"FX101"}, {}, {"FX1"}}});
  CHECK(on(s, RuleId::FX101));
  CHECK_FALSE(on(s, RuleId::FX102));
  RuleSet t = resolve(Target::Fx2Onnx, {{std::vector<std::string>{"FX1"}, {}, {"FX1"}}});
  CHECK_FALSE(on(t, RuleId::FX101));
}

TEST_CASE("the command line layer overrides the config layer") {
  RuleSelection config{std::vector<std::string>{"FX2"}, {}, {}};
  RuleSelection cli{std::nullopt, {"FX101"}, {"FX201"}};
  RuleSet s = resolve(Target::Fx2Onnx, {config, cli});
  CHECK(on(s, RuleId::FX101));
  CHECK(on(s, RuleId::FX202));
  CHECK_FALSE(on(s, RuleId::FX201));
  CHECK_FALSE(on(s, RuleId::FX102));
  RuleSelection cli_select{std::vector<std::string>{"FX3"}, {}, {}};
  RuleSet t = resolve(Target::Fx2Onnx, {config, cli_select});
  CHECK(on(t, RuleId::FX301));
  CHECK_FALSE(on(t, RuleId::FX202));
}

TEST_CASE("ALL and prefixes skip rules the target has off; a full code turns one on") {
  CHECK_FALSE(on(resolve(Target::Dynamo, {{std::vector<std::string>{"ALL"}, {}, {}}}), RuleId::FX104));
  CHECK(on(resolve(Target::Dynamo, {{std::nullopt, {"FX104"}, {}}}), RuleId::FX104));
  CHECK(on(resolve(Target::Dynamo, {{std::nullopt, {"tensor-assert"}, {}}}), RuleId::FX104));
}

TEST_CASE("selectors: codes, prefixes, names and ALL; nothing else") {
  CHECK(is_valid_selector("ALL"));
  CHECK(is_valid_selector("FX"));
  CHECK(is_valid_selector("FX3"));
  CHECK(is_valid_selector("FX901"));
  CHECK(is_valid_selector("tensor-item"));
  CHECK_FALSE(is_valid_selector(""));
  CHECK_FALSE(is_valid_selector("F"));
  CHECK_FALSE(is_valid_selector("FX6"));
  CHECK_FALSE(is_valid_selector("fx101"));
  CHECK_FALSE(is_valid_selector("E501"));
}

TEST_CASE("per-file ignores remove matched rules") {
  RuleSet s = without_rules(default_rules(Target::Fx2Onnx), std::vector<std::string>{"FX1", "host-sync"});
  CHECK_FALSE(on(s, RuleId::FX105));
  CHECK_FALSE(on(s, RuleId::FX503));
  CHECK(on(s, RuleId::FX201));
}

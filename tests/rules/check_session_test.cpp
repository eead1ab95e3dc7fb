// A session must always give what check_sources gives for the same inputs,
// whatever it reused from earlier calls.
#include "tests/support/catch.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "rules/check_session.h"
#include "rules/checker.h"
#include "tests/support/fixture_file.h"

namespace fs = std::filesystem;
using namespace fxlint;

namespace {

SourceInput input(std::string path, std::string module, std::string text) {
  return {std::move(path), std::move(module), std::move(text), default_rules(Target::Dynamo), Target::Dynamo};
}

std::vector<std::string> codes(const std::vector<Diagnostic>& ds) {
  std::vector<std::string> out;
  // Everything a client sees of a finding: where, what, and its fix's edits.
  for (const Diagnostic& d : ds) {
    std::string s = d.code + "@" + std::to_string(d.range.start) + "-" + std::to_string(d.range.end) + " " +
                    d.message + " " + severity_name(d.severity);
    if (d.fix) {
      for (const Edit& e : d.fix->edits) {
        s += " [" + std::to_string(e.range.start) + "-" + std::to_string(e.range.end) + ":" + e.content + "]";
      }
    }
    out.push_back(s);
  }
  return out;
}

std::vector<std::vector<std::string>> session_codes(CheckSession& s, const std::vector<SourceInput>& in,
                                                    std::vector<bool> report = {}) {
  std::vector<SessionInput> si;
  for (size_t i = 0; i < in.size(); ++i) si.push_back({&in[i], report.empty() || report[i], true});
  std::vector<std::vector<std::string>> out;
  for (const auto& ds : s.check(si, CheckOptions{})) out.push_back(codes(ds));
  return out;
}

std::vector<std::vector<std::string>> fresh_codes(const std::vector<SourceInput>& in) {
  std::vector<std::vector<std::string>> out;
  for (const auto& ds : check_sources(in, CheckOptions{})) out.push_back(codes(ds));
  return out;
}

const char* kModel =
    "import torch\n"
    "from pkg.helpers import scale\n"
    "class M(torch.nn.Module):\n"
    "    def forward(self, x):\n"
    "        return scale(x)\n";
// A model that passes ARG to a helper two calls deep (pkg.middle.relay -> pkg.leaf.use).
const char* kRelayModel =
    "import torch\n"
    "from pkg.middle import relay\n"
    "class M(torch.nn.Module):\n"
    "    def forward(self, x):\n"
    "        return relay(ARG)\n";
const char* kHelpers =
    "def scale(x):\n"
    "    n = x.sum().item()\n"
    "    return x * n\n";

}  // namespace

TEST_CASE("a session reuses unchanged files and equals a fresh check") {
  CheckSession session;
  std::vector<SourceInput> files = {input("pkg/model.py", "pkg.model", kModel),
                                    input("pkg/helpers.py", "pkg.helpers", kHelpers)};
  CHECK(session_codes(session, files) == fresh_codes(files));
  CHECK(session.last_parsed() == 2);
  CHECK(session_codes(session, files) == fresh_codes(files));
  CHECK(session.last_parsed() == 0);

  // The helper is compiled only through the model: renaming the call takes it out.
  files[0].text = std::string(kModel).replace(std::string(kModel).find("scale(x)"), 5, "float");
  auto after = session_codes(session, files);
  CHECK(session.last_parsed() == 1);
  CHECK(after == fresh_codes(files));
  CHECK(after[1].empty());
}

TEST_CASE("a file not reported still makes its callees compiled") {
  CheckSession session;
  std::vector<SourceInput> files = {input("pkg/model.py", "pkg.model", kModel),
                                    input("pkg/helpers.py", "pkg.helpers", kHelpers)};
  auto out = session_codes(session, files, {false, true});
  CHECK(out[0].empty());
  REQUIRE(out[1].size() == 1);
  CHECK(out[1][0].starts_with("FX101@"));
  // Without the model, the helper is not compiled code.
  std::vector<SourceInput> alone = {files[1]};
  CHECK(session_codes(session, alone) == std::vector<std::vector<std::string>>{{}});
}

TEST_CASE("random edits of the rule fixtures give what a fresh check gives") {
  fs::path dir = fxlint::test::rule_fixtures_dir();
  std::mt19937 rng(7);
  static const char* pieces[] = {" ", "x", "\n", ".item()", "(", ":", "    ", "if x.sum() > 0:\n        pass\n"};
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".py") names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  REQUIRE(names.size() > 40);
  for (const std::string& name : names) {
    CheckSession session;
    const std::string original = fxlint::test::read_file(dir / name);
    std::vector<SourceInput> files = {input(name, "fixture", original)};
    for (int step = 0; step < 30; ++step) {
      // Each version is one edit away from the original, so the session
      // reparses between arbitrary versions, broken ones included.
      std::string& text = files[0].text;
      text = original;
      size_t at = std::uniform_int_distribution<size_t>(0, text.size())(rng);
      size_t len = std::min<size_t>(text.size() - at, std::uniform_int_distribution<size_t>(0, 6)(rng));
      text.replace(at, len, pieces[std::uniform_int_distribution<size_t>(0, std::size(pieces) - 1)(rng)]);
      auto got = session_codes(session, files);
      auto fresh = fresh_codes(files);
      bool broken = std::any_of(fresh[0].begin(), fresh[0].end(), [](const std::string& c) { return c.starts_with("FX900"); });
      INFO(name << " step " << step << "\n" << text);
      // Error recovery of a broken text may group it differently; a text that parses must not differ.
      if (!broken) CHECK(got == fresh);
    }
  }
}

TEST_CASE("edits that build on each other give what a fresh check gives") {
  // Each step edits the last text that parsed, so statements move, change and
  // come back, and what the session kept of each is reused many edits later.
  fs::path dir = fxlint::test::rule_fixtures_dir();
  std::mt19937 rng(11);
  static const char* pieces[] = {" ", "x", "1", ".item()", "# c\n", "\n", "y = x.sum().item()\n",
                                 "if x.sum() > 0:\n    x = x + 1\n", "print(x)\n"};
  for (const char* name : {"FX101.py", "FX103.py", "FX104.py", "FX201.py", "FX301.py", "FX401.py", "FX403.py",
                           "FX502.py"}) {
    CheckSession session;
    std::vector<SourceInput> files = {input(name, "fixture", fxlint::test::read_file(dir / name))};
    std::string last_good = files[0].text;
    for (int step = 0; step < 60; ++step) {
      std::string& text = files[0].text;
      text = last_good;
      size_t at = std::uniform_int_distribution<size_t>(0, text.size())(rng);
      // At a line start half the time, so whole statements come and go.
      if (step % 2 == 0) {
        size_t nl = at == 0 ? std::string::npos : text.rfind('\n', at - 1);
        at = nl == std::string::npos ? 0 : nl + 1;
      }
      size_t len = std::min<size_t>(text.size() - at, std::uniform_int_distribution<size_t>(0, 3)(rng));
      text.replace(at, len, pieces[std::uniform_int_distribution<size_t>(0, std::size(pieces) - 1)(rng)]);
      auto got = session_codes(session, files);
      auto fresh = fresh_codes(files);
      bool broken = std::any_of(fresh[0].begin(), fresh[0].end(), [](const std::string& c) { return c.starts_with("FX900"); });
      INFO(name << " step " << step << "\n" << text);
      if (!broken) {
        CHECK(got == fresh);
        last_good = text;
      }
    }
  }
}

TEST_CASE("a path given twice is checked twice") {
  CheckSession session;
  std::vector<SourceInput> files = {input("a.py", "a", "import torch\n@torch.compile\ndef f(x):\n    return x.item()\n"),
                                    input("a.py", "a", "x = 1\n")};
  auto out = session_codes(session, files);
  CHECK(out == fresh_codes(files));
  CHECK(session_codes(session, files) == out);
}

TEST_CASE("a cancelled check stops, and the next call still gives the full result") {
  CheckSession session;
  std::vector<SourceInput> files = {input("pkg/model.py", "pkg.model", kModel),
                                    input("pkg/helpers.py", "pkg.helpers", kHelpers)};
  std::vector<SessionInput> si = {{&files[0], true, true}, {&files[1], true, true}};
  CancelFlag cancel;
  cancel.set();
  CheckOptions options;
  options.cancel = &cancel;
  CHECK_THROWS_AS(session.check(si, options), CheckCancelled);
  CHECK(check_sources(files, CheckOptions{})[1].size() == 1);
  CHECK(session_codes(session, files) == fresh_codes(files));
  CHECK(session.last_parsed() == 2);  // cancelled before it parsed anything
}

TEST_CASE("what unchanged files recorded is reused only while it holds") {
  // The model passes a tensor or a shape to a helper two calls deep; the
  // helper's parameter is a tensor only through what its callers pass.
  const std::string model = kRelayModel;
  const std::string middle =
      "from pkg.leaf import use\n"
      "def relay(v):\n"
      "    w = v\n"
      "    return use(w)\n";
  const std::string leaf =
      "def use(t):\n"
      "    if t.sum() > 0:\n"
      "        return t\n"
      "    return t\n";
  std::vector<SourceInput> files = {input("pkg/model.py", "pkg.model", model),
                                    input("pkg/middle.py", "pkg.middle", middle),
                                    input("pkg/leaf.py", "pkg.leaf", leaf)};
  auto set_arg = [&](const char* arg) {
    files[0].text = model;
    files[0].text.replace(files[0].text.find("ARG"), 3, arg);
  };
  CheckSession session;
  struct Step {
    int file;
    std::string text;  // "" keeps it
    const char* arg;
  };
  std::vector<Step> steps = {
      {0, "", "x"},
      {0, "", "x.shape[0]"},                                                  // the leaf's t is no longer a tensor
      {0, "", "x"},                                                           // and is again
      {2, "def use(t):\n    if t.sum() > 1:\n        return t\n    return t\n", "x"},  // body edit in the leaf
      {1, "from pkg.leaf import use\ndef relay(v):\n    w = 3\n    return use(w)\n", "x"},  // body edit changes what is passed on
      {1, "from pkg.leaf import use\ndef relay(v, k=1):\n    w = v\n    return use(w)\n", "x"},  // signature edit
      {2, "def use(t, u=None):\n    if t.sum() > 0:\n        return t\n    return t\n", "x"},
      {1, "from pkg.leaf import use as other\ndef relay(v):\n    return v\n", "x"},  // the call goes away
  };
  for (size_t k = 0; k < steps.size(); ++k) {
    set_arg(steps[k].arg);
    if (!steps[k].text.empty()) files[steps[k].file].text = steps[k].text;
    INFO("step " << k);
    CHECK(session_codes(session, files) == fresh_codes(files));
  }
  // The leaf is reported through two levels of calls while the model passes a tensor.
  set_arg("x");
  files[1].text = middle;
  files[2].text = leaf;
  auto out = session_codes(session, files);
  REQUIRE(out[2].size() == 1);
  CHECK(out[2][0].starts_with("FX103@"));
}

TEST_CASE("a function whose statement is unchanged is analysed again when its callers pass something else") {
  // The model's edit changes neither its interface (the argument is not in a
  // return statement and binds no local) nor the helpers' text: only what the
  // helpers' parameters hold, two calls deep.
  const std::string model =
      "import torch\n"
      "from pkg.middle import relay\n"
      "class M(torch.nn.Module):\n"
      "    def forward(self, x):\n"
      "        relay(ARG)\n"
      "        return x\n";
  const std::string middle = "from pkg.leaf import use\ndef relay(v):\n    use(v)\n    return v\n";
  const std::string leaf = "def use(t):\n    if t.sum() > 0:\n        return t\n    return t\n";
  std::vector<SourceInput> files = {input("pkg/model.py", "pkg.model", model),
                                    input("pkg/middle.py", "pkg.middle", middle),
                                    input("pkg/leaf.py", "pkg.leaf", leaf)};
  CheckSession session;
  size_t reported = 0;
  for (const char* arg : {"x", "x.shape[0]", "x", "3", "x + 1", "x.shape[0]"}) {
    files[0].text = model;
    files[0].text.replace(files[0].text.find("ARG"), 3, arg);
    INFO(arg);
    auto got = session_codes(session, files);
    CHECK(got == fresh_codes(files));
    reported += got[2].size();
  }
  CHECK(reported == 3);  // FX103 in the leaf while a tensor reaches it: x (twice) and x + 1
}

TEST_CASE("checks cancelled at any point leave the session equal to a fresh check") {
  // An editor's burst: each text's check is cancelled by the next one, at a
  // point that varies (in a parse, between the parse and the analysis, in the
  // walks); every check that gets through must still be a fresh check's.
  const std::string model = kRelayModel;
  const std::string middle = "from pkg.leaf import use\ndef relay(v):\n    w = v\n    return use(w)\n";
  const std::string leaf = "def use(t):\n    if t.sum() > 0:\n        return t\n    return t\n";
  const char* args[] = {"x", "x.shape[0]", "x + 1", "3"};
  std::vector<SourceInput> files = {input("pkg/model.py", "pkg.model", model),
                                    input("pkg/middle.py", "pkg.middle", middle),
                                    input("pkg/leaf.py", "pkg.leaf", leaf)};
  std::vector<SessionInput> si = {{&files[0], true, true}, {&files[1], true, true}, {&files[2], true, true}};
  CheckSession session;
  session.check(si, CheckOptions{});
  auto started = std::chrono::steady_clock::now();
  files[0].text = model;
  files[0].text.replace(files[0].text.find("ARG"), 3, "y");
  session.check(si, CheckOptions{});
  auto one_check = std::chrono::steady_clock::now() - started;  // of one edited file
  std::mt19937 rng(20261130);
  int cancelled = 0;
  for (int step = 0; step < 400; ++step) {
    files[0].text = model;
    files[0].text.replace(files[0].text.find("ARG"), 3, args[step % 4]);
    // Now and then the leaf's body changes too, so that more than one file is parsed again.
    if (step % 5 == 0) files[2].text = step % 10 == 0 ? leaf : "def use(t):\n    return t.item()\n";
    CancelFlag cancel;
    CheckOptions options;
    options.cancel = &cancel;
    auto delay = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        one_check * std::uniform_real_distribution<double>(0, 1.2)(rng));
    std::atomic<bool> go{false};
    std::thread canceller([&] {
      while (!go.load()) {
      }
      for (auto until = std::chrono::steady_clock::now() + delay; std::chrono::steady_clock::now() < until;) {
      }
      cancel.set();
    });
    bool stopped = false;
    // Some checks are cancelled before they start, so that a loaded machine,
    // where the delays above may all come too late, still cancels some.
    if (step % 8 == 7) cancel.set();
    go = true;
    try {
      session.check(si, options);
    } catch (const CheckCancelled&) {
      stopped = true;
      ++cancelled;
    }
    canceller.join();
    // The same texts again: what the cancelled check parsed must not be taken for recorded.
    if (stopped || step % 4 == 0) {
      INFO("step " << step);
      REQUIRE(session_codes(session, files) == fresh_codes(files));
    }
  }
  CHECK(cancelled > 0);
}

TEST_CASE("editing a function that reports the tracing state re-walks the files that call it") {
  // Under Dynamo, `tracing()` is true, so the model never calls `use` and
  // passes it nothing. Once `tracing()` no longer reports the tracing state,
  // the model's call is traced and `use` gets its tensor: what the model's
  // unchanged file recorded must be walked again.
  std::vector<SourceInput> files = {
      input("pkg/guard.py", "pkg.guard", "import torch\ndef tracing():\n    return torch.compiler.is_compiling()\n"),
      input("pkg/model.py", "pkg.model",
            "import torch\nfrom pkg.guard import tracing\nfrom pkg.leaf import use\n"
            "class M(torch.nn.Module):\n"
            "    def forward(self, x):\n"
            "        if not tracing():\n"
            "            return use(x)\n"
            "        return x\n"),
      input("pkg/leaf.py", "pkg.leaf", "def use(t):\n    if t.sum() > 0:\n        return t\n    return t\n")};
  CheckSession session;
  REQUIRE(session_codes(session, files) == fresh_codes(files));
  CHECK(fresh_codes(files)[2].empty());
  // The same calls, names and imports: only what the body returns changes.
  files[0].text = "import torch\ndef tracing():\n    return torch.compiler.is_compiling() and False\n";
  std::vector<std::vector<std::string>> fresh = fresh_codes(files);
  CHECK_FALSE(fresh[2].empty());  // `use` is compiled now, with a tensor
  CHECK(session_codes(session, files) == fresh);
}

TEST_CASE("a caller is analysed again when what its callee returns changes") {
  // Neither the model's file nor the leaf's changes, nor the helper's
  // interface (its return statement is the same): only what the returned
  // local holds. The model passes it on to the leaf, where it decides whether
  // `x[m]` reads a boolean mask (FX301).
  std::vector<SourceInput> files = {
      input("pkg/model.py", "pkg.model",
            "import torch\nfrom pkg.helpers import pick\nfrom pkg.leaf import use\n"
            "class M(torch.nn.Module):\n"
            "    def forward(self, x):\n"
            "        m, n = pick(x)\n"
            "        return use(x, m) * n\n"),
      input("pkg/helpers.py", "pkg.helpers", ""),
      input("pkg/leaf.py", "pkg.leaf", "def use(x, m):\n    return x[m]\n")};
  CheckSession session;
  size_t reported = 0;
  for (const char* value : {"x > 0", "x.argmax()", "x > 1", "x.argmin()", "x < 0"}) {
    files[1].text = std::string("def pick(x):\n    y = ") + value + "\n    m = y.clone()\n    return m, 3\n";
    INFO(value);
    auto got = session_codes(session, files);
    CHECK(got == fresh_codes(files));
    reported += got[2].size();
  }
  CHECK(reported == 3);  // FX301 in the leaf for each comparison
}

TEST_CASE("an unchanged statement is checked again when a function it calls returns something else") {
  // Only the model's argument changes (not its file's interface): what `relay`
  // returns is joined over its callers, so whether `x[m]` in the unchanged
  // user's file reads a boolean mask (FX301) follows what the model passes.
  const std::string model =
      "import torch\nfrom pkg.middle import relay\n"
      "class M(torch.nn.Module):\n"
      "    def forward(self, x):\n"
      "        relay(ARG)\n"
      "        return x\n";
  std::vector<SourceInput> files = {
      input("pkg/model.py", "pkg.model", model),
      input("pkg/middle.py", "pkg.middle", "def relay(v):\n    return v\n"),
      input("pkg/user.py", "pkg.user",
            "import torch\nfrom pkg.middle import relay\n"
            "class N(torch.nn.Module):\n"
            "    def forward(self, x):\n"
            "        m = relay(x > 0)\n"
            "        return x[m]\n")};
  CheckSession session;
  size_t masks = 0;
  for (const char* arg : {"x > 1", "x.shape[0]", "x < 1", "3", "x != 0"}) {
    files[0].text = model;
    files[0].text.replace(files[0].text.find("ARG"), 3, arg);
    INFO(arg);
    auto got = session_codes(session, files);
    CHECK(got == fresh_codes(files));
    for (const std::string& c : got[2]) masks += c.starts_with("FX301");
  }
  CHECK(masks == 3);  // while the model also passes a mask
}

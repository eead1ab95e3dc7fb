// Whole sessions in-process: framed messages in, framed messages out.
#include "tests/support/catch.h"
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/line_index.h"
#include "lsp/server.h"
#include "lsp/transport.h"

using namespace fxlint;
using namespace fxlint::lsp;

namespace {

struct Session {
  std::string input;
  int next_id = 1;

  void request(const std::string& method, json params) {
    add({{"jsonrpc", "2.0"}, {"id", next_id++}, {"method", method}, {"params", std::move(params)}});
  }
  void notify(const std::string& method, json params = json::object()) {
    add({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
  }
  void add(const json& message) {
    std::string body = message.dump();
    input += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  }
  // A code action waits for the lint of the document's current text, and no
  // later message is handled before it: a point where diagnostics are published.
  void sync(const std::string& uri) {
    json at = {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 0}}}};
    request("textDocument/codeAction",
            {{"textDocument", {{"uri", uri}}}, {"range", at}, {"context", {{"diagnostics", json::array()}}}});
  }
  void open(const std::string& uri, const std::string& text) {
    notify("textDocument/didOpen", {{"textDocument", {{"uri", uri}, {"languageId", "python"}, {"version", 1}, {"text", text}}}});
  }

  struct Result {
    int status = -1;
    std::vector<json> messages;
    std::string log;

    std::vector<json> published(const std::string& uri) const {
      std::vector<json> out;
      for (const json& m : messages) {
        if (m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri) {
          out.push_back(m["params"]["diagnostics"]);
        }
      }
      return out;
    }
    const json& response(int id) const {
      for (const json& m : messages) {
        if (m.contains("id") && m["id"] == id && !m.contains("method")) return m;
      }
      FAIL("no response to request " << id);
      throw;
    }
  };

  Result run(FileSettingsProvider settings = {}, WorkspaceLister workspace = {}) {
    ServerOptions options;
    options.version = "test";
    options.settings = std::move(settings);
    options.list_workspace = std::move(workspace);
    return run(std::move(options));
  }
  Result run(ServerOptions options) {
    std::istringstream in(input);
    std::ostringstream out;
    std::ostringstream log;
    options.log = &log;
    Server server(in, out, std::move(options));
    Result r;
    r.status = server.run();
    r.log = log.str();
    std::istringstream replies(out.str());
    std::ostringstream sink;
    Transport t(replies, sink);
    for (ReadResult m = t.read(); m.kind == ReadResult::Kind::Message; m = t.read()) {
      r.messages.push_back(json::parse(m.body));
    }
    return r;
  }
};

std::vector<std::string> codes(const json& diagnostics) {
  std::vector<std::string> out;
  for (const json& d : diagnostics) out.push_back(d["code"]);
  return out;
}

const char* kHelper = "import torch\n\n\ndef to_number(t: torch.Tensor):\n    return t.item()\n";
const char* kModel =
    "import torch\n\nfrom helpers import to_number\n\n\nclass Net(torch.nn.Module):\n"
    "    def forward(self, x):\n        return to_number(x)\n";

// Module names from the file stem, so `from helpers import ...` resolves.
FileSettingsForLsp stem_module(const std::string& path) {
  FileSettingsForLsp s;
  size_t slash = path.rfind('/');
  s.module_name = path.substr(slash + 1, path.size() - slash - 4);
  return s;
}

std::string apply_edit(std::string text, const json& edit) {
  LineIndex index(text);
  auto offset = [&](const json& p) { return index.offset_of_utf16(p["line"], p["character"]); };
  uint32_t start = offset(edit["range"]["start"]);
  uint32_t end = offset(edit["range"]["end"]);
  return text.replace(start, end - start, edit["newText"].get<std::string>());
}

}  // namespace

TEST_CASE("compile regions reach across open documents") {
  Session s;
  s.request("initialize", json::object());
  s.notify("initialized");
  s.open("file:///p/helpers.py", kHelper);
  s.sync("file:///p/helpers.py");
  s.open("file:///p/model.py", kModel);
  s.sync("file:///p/helpers.py");
  s.notify("textDocument/didClose", {{"textDocument", {{"uri", "file:///p/model.py"}}}});
  s.request("shutdown", nullptr);
  s.notify("exit");
  Session::Result r = s.run(stem_module);
  CHECK(r.status == 0);
  std::vector<json> helper = r.published("file:///p/helpers.py");
  // Alone the helper is no compile region; once the model calling it from
  // forward is open it is; when the model closes it is not again.
  REQUIRE(helper.size() == 3);
  CHECK(helper[0].empty());
  CHECK(codes(helper[1]) == std::vector<std::string>{"FX101"});
  CHECK(helper[2].empty());
  std::vector<json> model = r.published("file:///p/model.py");
  REQUIRE(model.size() == 2);
  CHECK(model[0].empty());
  CHECK(model[1].empty());  // cleared on close
}

TEST_CASE("files of the workspace that are not open take part in the analysis") {
  namespace fs = std::filesystem;
  fs::path root = fs::temp_directory_path() / ("fxlint-lsp-workspace-" + std::to_string(::getpid()));
  fs::create_directories(root);
  std::ofstream(root / "model.py") << kModel;
  std::ofstream(root / "helpers.py") << kHelper;
  std::vector<std::string> listed_roots;
  WorkspaceLister lister = [&](const std::string& dir) {
    listed_roots.push_back(dir);
    return std::vector<std::string>{(root / "helpers.py").string(), (root / "model.py").string()};
  };
  std::string helpers_uri = "file://" + (root / "helpers.py").string();
  for (bool with_workspace : {true, false}) {
    Session s;
    s.request("initialize", {{"rootUri", "file:///ignored"}, {"workspaceFolders", {{{"uri", "file://" + root.string()}, {"name", "p"}}}}});
    s.notify("initialized");
    s.open(helpers_uri, kHelper);
    s.sync(helpers_uri);
    s.request("shutdown", nullptr);
    s.notify("exit");
    Session::Result r = s.run(stem_module, with_workspace ? lister : WorkspaceLister{});
    std::vector<json> helper = r.published(helpers_uri);
    REQUIRE(helper.size() == 1);
    // The model on disk compiles the helper; without the workspace nothing does.
    CHECK(codes(helper[0]) == (with_workspace ? std::vector<std::string>{"FX101"} : std::vector<std::string>{}));
  }
  CHECK(listed_roots == std::vector<std::string>{root.string()});  // workspaceFolders win over rootUri
  fs::remove_all(root);
}

TEST_CASE("fxlint.verify: offered on a target's class, its breaks published beside the static findings") {
  const std::string uri = "file:///p/net.py";
  const std::string net =
      "import torch\n"
      "\n"
      "\n"
      "class Net(torch.nn.Module):\n"
      "    def forward(self, x):\n"
      "        y = x * 2\n"
      "        if y.sum() > 0:\n"
      "            y = y + 1\n"
      "        return y\n";
  RuntimeTarget target{"net.py:Net", {"float32[2,3]"}, "capture", "/p", "/p/net.py", "Net"};
  std::vector<RuntimeTarget> ran;
  ServerOptions options;
  options.version = "test";
  options.verify_targets = [&](const std::string& path) {
    return path == "/p/net.py" ? std::vector<RuntimeTarget>{target} : std::vector<RuntimeTarget>{};
  };
  options.verify = [&](const RuntimeTarget& t) {
    ran.push_back(t);
    return RuntimeVerification{true, false, "FAILED: 1 graph break",
                               {{"/p/net.py", 7, "        if y.sum() > 0:", "FX103", "graph break: data-dependent branch"}}};
  };
  Session s;
  s.request("initialize", json::object());
  s.notify("initialized");
  s.open(uri, net);
  json header = {{"start", {{"line", 3}, {"character", 6}}}, {"end", {{"line", 3}, {"character", 6}}}};
  s.request("textDocument/codeAction",
            {{"textDocument", {{"uri", uri}}}, {"range", header}, {"context", {{"diagnostics", json::array()}}}});
  s.sync(uri);  // on line 0: no verify action there
  json arguments = {{"target", "net.py:Net"}, {"inputs", {"float32[2,3]"}}, {"backend", "dynamo"}, {"root", "/p"}};
  s.request("workspace/executeCommand", {{"command", "fxlint.verify"}, {"arguments", {arguments}}});
  s.request("workspace/executeCommand", {{"command", "fxlint.nope"}});
  s.request("shutdown", nullptr);
  s.notify("exit");
  Session::Result r = s.run(std::move(options));

  std::vector<std::string> titles;
  for (const json& a : r.response(2)["result"]) {
    if (a.value("kind", "") == "source.verify.fxlint") titles.push_back(a["title"]);
  }
  CHECK(titles == std::vector<std::string>{"Verify Net with the bundled capture", "Verify Net with dynamo"});
  for (const json& a : r.response(3)["result"]) CHECK(a.value("kind", "") != "source.verify.fxlint");

  json done = r.response(4);
  CHECK(done["result"]["passed"] == false);
  CHECK(done["result"]["summary"] == "FAILED: 1 graph break");
  REQUIRE(ran.size() == 1);
  CHECK(ran[0].backend == "dynamo");
  CHECK(r.response(5)["error"]["code"] == -32602);

  // The last publication holds the static FX103 and the runtime break, linked.
  std::vector<json> published = r.published(uri);
  REQUIRE(!published.empty());
  const json& last = published.back();
  REQUIRE(last.size() == 2);
  const json& runtime = last[1];
  CHECK(runtime["source"] == "fxlint verify (dynamo)");
  CHECK(runtime["code"] == "FX103");
  CHECK(runtime["range"]["start"] == json{{"line", 6}, {"character", 8}});
  REQUIRE(runtime.contains("relatedInformation"));
  CHECK(runtime["relatedInformation"][0]["location"]["range"] == last[0]["range"]);
  CHECK(last[0]["code"] == "FX103");
}

TEST_CASE("settings come from the callback; a failing one falls back to the defaults once") {
  std::string assert_model =
      "import torch\n\n\n@torch.compile\ndef f(x: torch.Tensor):\n    assert (x > 0).all()\n    return x.item()\n";
  Session s;
  s.request("initialize", json::object());
  s.open("file:///p/a.py", assert_model);
  s.open("file:///p/broken/b.py", assert_model);
  s.request("shutdown", nullptr);
  s.notify("exit");
  Session::Result r = s.run([](const std::string& path) {
    if (path.find("broken") != std::string::npos) throw std::runtime_error("bad config");
    FileSettingsForLsp settings;
    settings.target = Target::Dynamo;  // FX104 is off for dynamo
    settings.rules = default_rules(Target::Dynamo);
    return settings;
  });
  REQUIRE_FALSE(r.published("file:///p/a.py").empty());
  CHECK(codes(r.published("file:///p/a.py").back()) == std::vector<std::string>{"FX101"});
  CHECK(codes(r.published("file:///p/broken/b.py").back()) == std::vector<std::string>{"FX104", "FX101"});
  int shown = 0;
  for (const json& m : r.messages) {
    if (m.value("method", "") == "window/showMessage") {
      ++shown;
      CHECK(m["params"]["message"].get<std::string>().find("bad config") != std::string::npos);
    }
  }
  CHECK(shown == 1);
}

TEST_CASE("code actions: quick fixes under the cursor and fix all, filtered by kind") {
  std::string text =
      "import torch\n\n\n@torch.compile\ndef f(x: torch.Tensor):\n    assert (x > 0).all()\n    assert (x < 9).all()\n"
      "    return x\n";
  json at_line_5 = {{"start", {{"line", 5}, {"character", 4}}}, {"end", {{"line", 5}, {"character", 4}}}};
  Session s;
  s.request("initialize", json::object());
  s.open("file:///p/a.py", text);
  json doc = {{"uri", "file:///p/a.py"}};
  s.request("textDocument/codeAction", {{"textDocument", doc}, {"range", at_line_5}, {"context", {{"diagnostics", json::array()}}}});
  s.request("textDocument/codeAction", {{"textDocument", doc}, {"range", at_line_5},
                                        {"context", {{"diagnostics", json::array()}, {"only", {"source.fixAll"}}}}});
  s.request("textDocument/codeAction", {{"textDocument", {{"uri", "file:///p/unknown.py"}}}, {"range", at_line_5},
                                        {"context", {{"diagnostics", json::array()}}}});
  s.request("shutdown", nullptr);
  s.notify("exit");
  Session::Result r = s.run();

  const json& all = r.response(2)["result"];
  REQUIRE(all.size() == 2);
  CHECK(all[0]["kind"] == "quickfix");
  CHECK(all[0]["diagnostics"][0]["range"]["start"]["line"] == 5);
  CHECK(all[0]["isPreferred"] == true);
  CHECK(all[1]["kind"] == "source.fixAll.fxlint");
  CHECK(all[1]["title"] == "Fix all safe fxlint problems");
  json fix_all_edits = all[1]["edit"]["changes"]["file:///p/a.py"];
  REQUIRE(fix_all_edits.size() == 1);
  // Both asserts are guarded by the one edit.
  CHECK(apply_edit(text, fix_all_edits[0]) ==
        "import torch\n\n\n@torch.compile\ndef f(x: torch.Tensor):\n"
        "    if not torch.fx._symbolic_trace.is_fx_tracing():\n        assert (x > 0).all()\n"
        "    if not torch.fx._symbolic_trace.is_fx_tracing():\n        assert (x < 9).all()\n"
        "    return x\n");
  // The quick fix guards only the assert under the cursor.
  std::string quick = apply_edit(text, all[0]["edit"]["changes"]["file:///p/a.py"][0]);
  CHECK(quick.find("    if not torch.fx._symbolic_trace.is_fx_tracing():\n        assert (x > 0).all()\n    assert (x < 9)") !=
        std::string::npos);

  const json& only_fix_all = r.response(3)["result"];
  REQUIRE(only_fix_all.size() == 1);
  CHECK(only_fix_all[0]["kind"] == "source.fixAll.fxlint");
  CHECK(r.response(4)["result"] == json::array());
}

TEST_CASE("lifecycle: refused before initialize, exit status by shutdown, survives bad params") {
  SECTION("exit without shutdown") {
    Session s;
    s.request("textDocument/codeAction", json::object());
    s.request("initialize", json::object());
    s.request("initialize", json::object());
    s.notify("textDocument/didChange", {{"textDocument", {{"uri", "file:///nope.py"}}}, {"contentChanges", json::array()}});
    s.notify("textDocument/didOpen", {{"textDocument", 3}});
    s.notify("exit");
    s.request("shutdown", nullptr);  // never read: the server has exited
    Session::Result r = s.run();
    CHECK(r.status == 1);
    CHECK(r.response(1)["error"]["code"] == -32002);
    CHECK(r.response(2)["result"]["capabilities"]["textDocumentSync"]["change"] == 2);
    CHECK(r.response(3)["error"]["code"] == -32600);
    CHECK(r.messages.size() == 3);
    CHECK(r.log.find("document is not open") != std::string::npos);
    CHECK(r.log.find("textDocument/didOpen: invalid params") != std::string::npos);
  }
  SECTION("requests after shutdown are refused; end of input after shutdown is status 0") {
    Session s;
    s.request("initialize", json::object());
    s.request("shutdown", nullptr);
    s.request("textDocument/codeAction", json::object());
    Session::Result r = s.run();
    CHECK(r.status == 0);
    CHECK(r.response(2)["result"].is_null());
    CHECK(r.response(3)["error"]["code"] == -32600);
  }
}

TEST_CASE("unsafe fixes are quick fixes marked unsafe, never part of fix all") {
  std::string text =
      "import torch\n\n\n@torch.compile\ndef f(x: torch.Tensor):\n    y = x if x.sum() > 0 else -x\n    return y\n";
  json line_5 = {{"start", {{"line", 5}, {"character", 0}}}, {"end", {{"line", 5}, {"character", 30}}}};
  Session s;
  s.request("initialize", json::object());
  s.open("file:///p/u.py", text);
  s.request("textDocument/codeAction", {{"textDocument", {{"uri", "file:///p/u.py"}}}, {"range", line_5},
                                        {"context", {{"diagnostics", json::array()}}}});
  Session::Result r = s.run();
  json published = r.published("file:///p/u.py").back();
  REQUIRE(codes(published) == std::vector<std::string>{"FX103"});
  CHECK(published[0]["data"]["applicability"] == "unsafe");
  const json& actions = r.response(2)["result"];
  REQUIRE(actions.size() == 1);
  CHECK(actions[0]["kind"] == "quickfix");
  CHECK(actions[0]["title"] ==
        "Replace with `torch.where`, which computes both values and broadcasts and promotes them together (unsafe)");
  CHECK_FALSE(actions[0].contains("isPreferred"));
  CHECK(apply_edit(text, actions[0]["edit"]["changes"]["file:///p/u.py"][0]).find("torch.where(") !=
        std::string::npos);
}

TEST_CASE("didSave with text replaces the document and relints it") {
  Session s;
  s.request("initialize", json::object());
  s.open("file:///p/a.py", "x = 1\n");
  s.sync("file:///p/a.py");
  s.notify("textDocument/didSave",
           {{"textDocument", {{"uri", "file:///p/a.py"}}},
            {"text", "import torch\n\n\n@torch.compile\ndef f(x: torch.Tensor):\n    return x.item()\n"}});
  s.sync("file:///p/a.py");
  Session::Result r = s.run();
  std::vector<json> published = r.published("file:///p/a.py");
  REQUIRE(published.size() == 2);
  CHECK(published[0].empty());
  CHECK(codes(published[1]) == std::vector<std::string>{"FX101"});
  CHECK(r.status == 1);  // the input ended without shutdown
}

TEST_CASE("a saved or watched config file makes the server list the workspace and resolve its settings again") {
  namespace fs = std::filesystem;
  fs::path root = fs::temp_directory_path() / ("fxlint-lsp-config-" + std::to_string(::getpid()));
  fs::create_directories(root);
  std::ofstream(root / "model.py") << kModel;
  std::ofstream(root / "helpers.py") << kHelper;
  std::ofstream(root / "other.py") << "x = 1\n";
  std::ofstream(root / "fxlint.toml") << "";
  std::string helpers = (root / "helpers.py").string(), model = (root / "model.py").string();
  std::string other = (root / "other.py").string();
  // The lister decides what belongs: the second listing leaves the model out,
  // as a config that excludes it would.
  int listed = 0;
  WorkspaceLister lister = [&](const std::string&) {
    ++listed;
    return listed == 2 ? std::vector<std::string>{helpers, other} : std::vector<std::string>{helpers, model, other};
  };
  int other_settings = 0;
  FileSettingsProvider settings = [&](const std::string& path) {
    if (path == other) ++other_settings;
    return stem_module(path);
  };
  std::string helpers_uri = "file://" + helpers, config_uri = "file://" + (root / "fxlint.toml").string();
  auto watched = [&](const std::string& uri, int type) {
    return json{{"changes", {{{"uri", uri}, {"type", type}}}}};
  };
  Session s;
  s.request("initialize", {{"rootUri", "file://" + root.string()}});
  s.notify("initialized");
  s.open(helpers_uri, kHelper);
  s.sync(helpers_uri);
  s.open(config_uri, "");
  s.notify("textDocument/didSave", {{"textDocument", {{"uri", config_uri}}}});
  s.sync(helpers_uri);
  s.notify("workspace/didChangeWatchedFiles", watched("file://" + other, 2));  // read again, nothing more
  s.sync(helpers_uri);
  s.notify("workspace/didChangeWatchedFiles", watched(config_uri, 2));
  s.sync(helpers_uri);
  s.request("shutdown", nullptr);
  s.notify("exit");
  Session::Result r = s.run(settings, lister);
  fs::remove_all(root);
  CHECK(listed == 3);
  CHECK(other_settings == 3);
  std::vector<json> helper = r.published(helpers_uri);
  REQUIRE(helper.size() == 3);
  CHECK(codes(helper[0]) == std::vector<std::string>{"FX101"});  // the model on disk compiles it
  CHECK(helper[1].empty());                                      // listed without the model
  CHECK(codes(helper[2]) == std::vector<std::string>{"FX101"});
}

TEST_CASE("fxlint.verify: a verification that cannot run is answered and shown as an error") {
  ServerOptions options;
  options.version = "test";
  options.verify = [](const RuntimeTarget&) -> RuntimeVerification {
    throw std::runtime_error("no Python environment with torch");
  };
  Session s;
  s.request("initialize", json::object());
  s.notify("initialized");
  s.open("file:///p/net.py", "import torch\n");
  json arguments = {{"target", "net.py:Net"}, {"inputs", {"float32[2,3]"}}, {"root", "/p"}};
  s.request("workspace/executeCommand", {{"command", "fxlint.verify"}, {"arguments", {arguments}}});
  s.request("shutdown", nullptr);
  s.notify("exit");
  Session::Result r = s.run(std::move(options));
  CHECK(r.status == 0);
  const json& result = r.response(2)["result"];
  CHECK(result["ran"] == false);
  CHECK(result["passed"] == false);
  CHECK(result["backend"] == "capture");
  CHECK(result["summary"] == "cannot verify: no Python environment with torch");
  CHECK(result["findings"] == 0);
  std::vector<json> shown;
  for (const json& m : r.messages) {
    if (m.value("method", "") == "window/showMessage") shown.push_back(m["params"]);
  }
  REQUIRE(shown.size() == 1);
  CHECK(shown[0]["type"] == 1);
  CHECK(shown[0]["message"] == "fxlint verify net.py:Net: cannot verify: no Python environment with torch");
  for (const json& published : r.published("file:///p/net.py")) CHECK(published.empty());
}

#include "tests/support/catch.h"

#include "lsp/dispatcher.h"

using namespace fxlint::lsp;

namespace {

struct Echo {
  int n = 0;
};
void from_json(const json& j, Echo& e) { e.n = j.at("n").get<int>(); }

Dispatcher make_dispatcher(std::vector<int>& notified) {
  Dispatcher d;
  d.on_request<Echo>("echo", [](const Echo& e) { return json{{"n", e.n}}; });
  d.on_request<NoParams>("fail", [](const NoParams&) -> json { throw LspError(ErrorCode::RequestFailed, "no"); });
  d.on_request<NoParams>("crash", [](const NoParams&) -> json { throw std::runtime_error("boom"); });
  d.on_notification<Echo>("note", [&notified](const Echo& e) { notified.push_back(e.n); });
  return d;
}

int error_code(const std::optional<json>& response) { return response->at("error").at("code").get<int>(); }

}  // namespace

TEST_CASE("a request gets its typed handler's result under its id") {
  std::vector<int> notified;
  Dispatcher d = make_dispatcher(notified);
  std::optional<json> r = d.dispatch_body(R"({"jsonrpc":"2.0","id":"a1","method":"echo","params":{"n":5}})");
  REQUIRE(r);
  CHECK(r->at("id") == "a1");
  CHECK(r->at("result") == json{{"n", 5}});
}

TEST_CASE("notifications run their handler and get no response") {
  std::vector<int> notified;
  Dispatcher d = make_dispatcher(notified);
  CHECK_FALSE(d.dispatch_body(R"({"jsonrpc":"2.0","method":"note","params":{"n":1}})"));
  CHECK_FALSE(d.dispatch_body(R"({"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}})"));
  std::string failed;
  d.set_notification_error_sink([&](std::string_view method, const std::string&) { failed = method; });
  CHECK_FALSE(d.dispatch_body(R"({"jsonrpc":"2.0","method":"note","params":{"n":"x"}})"));
  CHECK(notified == std::vector<int>{1});
  CHECK(failed == "note");
}

TEST_CASE("bad messages are answered with JSON-RPC errors") {
  std::vector<int> notified;
  Dispatcher d = make_dispatcher(notified);
  CHECK(error_code(d.dispatch_body("{not json")) == -32700);
  CHECK(d.dispatch_body("{not json")->at("id").is_null());
  CHECK(error_code(d.dispatch_body("[1,2]")) == -32600);
  CHECK(error_code(d.dispatch_body(R"({"id":1})")) == -32600);
  CHECK(error_code(d.dispatch_body(R"({"id":1,"method":7})")) == -32600);
  CHECK(error_code(d.dispatch_body(R"({"id":[1],"method":"echo"})")) == -32600);
  CHECK(error_code(d.dispatch_body(R"({"id":1,"method":"nope"})")) == -32601);
  CHECK(error_code(d.dispatch_body(R"({"id":1,"method":"echo","params":{"n":"five"}})")) == -32602);
  CHECK(error_code(d.dispatch_body(R"({"id":1,"method":"echo"})")) == -32602);
  CHECK(error_code(d.dispatch_body(R"({"id":1,"method":"fail"})")) == -32803);
  CHECK(error_code(d.dispatch_body(R"({"id":1,"method":"crash"})")) == -32603);
  // Responses to the server's own requests are accepted silently.
  CHECK_FALSE(d.dispatch_body(R"({"id":9,"result":null})"));
}

TEST_CASE("the gate can refuse requests") {
  std::vector<int> notified;
  Dispatcher d = make_dispatcher(notified);
  d.set_gate([](std::string_view method, bool) {
    if (method != "echo") throw LspError(ErrorCode::ServerNotInitialized, "not yet");
  });
  CHECK(error_code(d.dispatch_body(R"({"id":1,"method":"fail"})")) == -32002);
  CHECK(d.dispatch_body(R"({"id":1,"method":"echo","params":{"n":2}})")->contains("result"));
  CHECK_FALSE(d.dispatch_body(R"({"method":"note","params":{"n":3}})"));
  CHECK(notified.empty());
}

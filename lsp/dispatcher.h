#pragma once
// Binds JSON-RPC method names to typed handlers. A handler takes its params
// struct (parsed with from_json) and a request handler returns a result that
// has to_json. The dispatcher owns the JSON-RPC rules: a request always gets
// exactly one response, a notification never does; unparsable text is a
// ParseError, a message that is not a request or notification is an
// InvalidRequest, an unknown request method is MethodNotFound (unknown
// notifications are dropped), params that do not fit the struct are
// InvalidParams, and a handler that throws LspError answers with its code.
// Nothing that arrives can make it throw.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "lsp/lsp_error.h"
#include "lsp/protocol.h"

namespace fxlint::lsp {

class Dispatcher {
 public:
  using RawRequest = std::function<json(const json& params)>;
  using RawNotification = std::function<void(const json& params)>;
  // Runs before every handler with the method name; may throw LspError to
  // refuse a request (e.g. before `initialize`). Notifications it refuses are dropped.
  using Gate = std::function<void(std::string_view method, bool is_request)>;

  template <typename Params, typename Handler>
  void on_request(const std::string& method, Handler handler) {
    requests_[method] = [handler](const json& params) -> json {
      return json(handler(parse_params<Params>(params)));
    };
  }

  template <typename Params, typename Handler>
  void on_notification(const std::string& method, Handler handler) {
    notifications_[method] = [handler](const json& params) { handler(parse_params<Params>(params)); };
  }

  // Called when a notification handler fails, since a notification has no reply.
  using NotificationErrorSink = std::function<void(std::string_view method, const std::string& what)>;

  void set_gate(Gate gate) { gate_ = std::move(gate); }
  void set_notification_error_sink(NotificationErrorSink sink) { notification_error_ = std::move(sink); }

  // Handles one message body; returns the response to send, if any.
  std::optional<json> dispatch_body(std::string_view body);
  std::optional<json> dispatch(const json& message);

  static json error_response(const json& id, ErrorCode code, const std::string& message);

 private:
  template <typename Params>
  static Params parse_params(const json& params) {
    try {
      return params.get<Params>();
    } catch (const json::exception& e) {
      throw LspError(ErrorCode::InvalidParams, std::string("invalid params: ") + e.what());
    }
  }

  std::map<std::string, RawRequest, std::less<>> requests_;
  std::map<std::string, RawNotification, std::less<>> notifications_;
  Gate gate_;
  NotificationErrorSink notification_error_;
};

// Params of methods that take none (`shutdown`, `initialized`).
struct NoParams {};
inline void from_json(const json&, NoParams&) {}

}  // namespace fxlint::lsp

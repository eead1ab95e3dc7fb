#include "lsp/dispatcher.h"

namespace fxlint::lsp {

json Dispatcher::error_response(const json& id, ErrorCode code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", static_cast<int>(code)}, {"message", message}}}};
}

std::optional<json> Dispatcher::dispatch_body(std::string_view body) {
  json message = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) return error_response(nullptr, ErrorCode::ParseError, "message is not valid JSON");
  return dispatch(message);
}

std::optional<json> Dispatcher::dispatch(const json& message) {
  if (!message.is_object()) {
    return error_response(nullptr, ErrorCode::InvalidRequest, "message is not a JSON object");
  }
  auto id_it = message.find("id");
  bool has_id = id_it != message.end();
  json id = has_id ? *id_it : json(nullptr);
  if (has_id && !id.is_string() && !id.is_number_integer()) {
    return error_response(nullptr, ErrorCode::InvalidRequest, "request id must be a string or an integer");
  }
  auto method_it = message.find("method");
  if (method_it == message.end()) {
    // A response to a request of ours; the server sends none that need one.
    if (has_id && (message.contains("result") || message.contains("error"))) return std::nullopt;
    return error_response(id, ErrorCode::InvalidRequest, "message has no 'method'");
  }
  if (!method_it->is_string()) return error_response(id, ErrorCode::InvalidRequest, "'method' must be a string");
  const std::string& method = method_it->get_ref<const std::string&>();
  json params = message.contains("params") ? message["params"] : json::object();

  if (!has_id) {
    auto it = notifications_.find(method);
    if (it == notifications_.end()) return std::nullopt;
    try {
      if (gate_) gate_(method, false);
      it->second(params);
    } catch (const std::exception& e) {
      if (notification_error_) notification_error_(method, e.what());
    }
    return std::nullopt;
  }

  try {
    if (gate_) gate_(method, true);
    auto it = requests_.find(method);
    if (it == requests_.end()) throw LspError(ErrorCode::MethodNotFound, "method not found: " + method);
    return json{{"jsonrpc", "2.0"}, {"id", id}, {"result", it->second(params)}};
  } catch (const LspError& e) {
    return error_response(id, e.code(), e.what());
  } catch (const std::exception& e) {
    return error_response(id, ErrorCode::InternalError, std::string("internal error: ") + e.what());
  }
}

}  // namespace fxlint::lsp

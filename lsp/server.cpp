#include "lsp/server.h"

#include <algorithm>
#include <ostream>

#include "core/line_index.h"
#include "lsp/conversion.h"
#include "lsp/document_linter.h"
#include "lsp/fix_all.h"
#include "lsp/hover.h"
#include "rewriter/text_style.h"

namespace fxlint::lsp {

namespace {

// Whether a client asking for `requested` kinds wants actions of `kind`
// ("source" asks for "source.fixAll.fxlint" too).
bool kind_requested(const std::optional<std::vector<std::string>>& requested, std::string_view kind) {
  if (!requested) return true;
  return std::any_of(requested->begin(), requested->end(), [&](const std::string& k) {
    return kind == k || (kind.starts_with(k) && kind.size() > k.size() && kind[k.size()] == '.');
  });
}

// Invalid UTF-8 (never expected: documents arrive as JSON strings) is replaced
// rather than allowed to throw out of the message loop.
std::string serialize(const json& message) { return message.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string quick_fix_title(const Fix& fix) {
  return fix.applicability == Applicability::Unsafe ? fix.title + " (unsafe)" : fix.title;
}

}  // namespace

Server::Server(std::istream& in, std::ostream& out, ServerOptions options)
    : transport_(in, out), options_(std::move(options)) {
  bind_methods();
}

void Server::bind_methods() {
  dispatcher_.set_gate([this](std::string_view method, bool is_request) {
    if (method == "exit") return;
    if (!initialized_ && method != "initialize") {
      throw LspError(ErrorCode::ServerNotInitialized, "the server has not been initialized");
    }
    if (shutdown_ && is_request) throw LspError(ErrorCode::InvalidRequest, "the server is shutting down");
  });
  dispatcher_.set_notification_error_sink([this](std::string_view method, const std::string& what) {
    log(std::string(method) + ": " + what);
  });
  dispatcher_.on_request<InitializeParams>("initialize", [this](const InitializeParams& p) { return initialize(p); });
  dispatcher_.on_notification<NoParams>("initialized", [](const NoParams&) {});
  dispatcher_.on_request<NoParams>("shutdown", [this](const NoParams&) {
    shutdown_ = true;
    return json(nullptr);
  });
  dispatcher_.on_notification<NoParams>("exit", [this](const NoParams&) { exit_ = true; });
  dispatcher_.on_notification<DidOpenTextDocumentParams>("textDocument/didOpen",
                                                         [this](const auto& p) { did_open(p); });
  dispatcher_.on_notification<DidChangeTextDocumentParams>("textDocument/didChange",
                                                           [this](const auto& p) { did_change(p); });
  dispatcher_.on_notification<DidSaveTextDocumentParams>("textDocument/didSave",
                                                         [this](const auto& p) { did_save(p); });
  dispatcher_.on_notification<DidCloseTextDocumentParams>("textDocument/didClose",
                                                          [this](const auto& p) { did_close(p); });
  dispatcher_.on_request<CodeActionParams>("textDocument/codeAction",
                                           [this](const CodeActionParams& p) { return code_action(p); });
  dispatcher_.on_request<TextDocumentPositionParams>("textDocument/hover",
                                                     [this](const TextDocumentPositionParams& p) { return hover(p); });
}

int Server::run() {
  while (!exit_) {
    ReadResult r = transport_.read();
    if (r.kind == ReadResult::Kind::EndOfStream) break;
    if (r.kind == ReadResult::Kind::BadHeader) {
      log("bad message header: " + r.error);
      continue;
    }
    if (std::optional<json> response = dispatcher_.dispatch_body(r.body)) transport_.write(serialize(*response));
  }
  return shutdown_ ? 0 : 1;
}

json Server::initialize(const InitializeParams&) {
  if (initialized_) throw LspError(ErrorCode::InvalidRequest, "the server is already initialized");
  initialized_ = true;
  return {
      {"capabilities",
       {{"positionEncoding", "utf-16"},
        {"textDocumentSync", {{"openClose", true}, {"change", 2 /* incremental */}, {"save", {{"includeText", false}}}}},
        {"codeActionProvider", {{"codeActionKinds", {kQuickFixKind, kFixAllKind}}}},
        {"hoverProvider", true}}},
      {"serverInfo", {{"name", "fxlint"}, {"version", options_.version}}},
  };
}

void Server::did_open(const DidOpenTextDocumentParams& p) {
  documents_.open(p.text_document.uri, p.text_document.version, p.text_document.text);
  relint();
}

void Server::did_change(const DidChangeTextDocumentParams& p) {
  documents_.change(p.uri, p.version, p.content_changes);
  relint();
}

void Server::did_save(const DidSaveTextDocumentParams& p) {
  if (p.text) documents_.set_text(p.text_document.uri, *p.text);
  // Saving may have changed a config file's effect or other files on disk.
  published_.erase(p.text_document.uri);
  relint();
}

void Server::did_close(const DidCloseTextDocumentParams& p) {
  const std::string& uri = p.text_document.uri;
  if (!documents_.close(uri)) return;
  diagnostics_.erase(uri);
  published_.erase(uri);
  publish(uri, std::nullopt, json::array());
  relint();
}

void Server::relint() {
  std::vector<const Document*> open = documents_.all();
  LintRun run = lint_documents(open, options_.settings);
  for (const std::string& e : run.settings_errors) {
    if (std::find(reported_settings_errors_.begin(), reported_settings_errors_.end(), e) !=
        reported_settings_errors_.end()) {
      continue;
    }
    reported_settings_errors_.push_back(e);
    show_error("fxlint: cannot use the settings for " + e + "; using the defaults");
  }
  for (LintedDocument& linted : run.documents) {
    const Document& doc = *linted.document;
    LineIndex index(doc.text);
    LineEnding ending = detect_line_ending(doc.text);
    json published = json::array();
    for (const Diagnostic& d : linted.diagnostics) published.push_back(to_lsp_diagnostic(index, d, ending));
    diagnostics_[doc.uri] = std::move(linted.diagnostics);
    auto it = published_.find(doc.uri);
    if (it != published_.end() && it->second == published) continue;
    published_[doc.uri] = published;
    publish(doc.uri, doc.version, published);
  }
}

json Server::code_action(const CodeActionParams& p) {
  json actions = json::array();
  const Document* doc = documents_.find(p.text_document.uri);
  auto found = diagnostics_.find(p.text_document.uri);
  if (!doc || found == diagnostics_.end()) return actions;
  const std::vector<Diagnostic>& diagnostics = found->second;
  LineIndex index(doc->text);
  LineEnding ending = detect_line_ending(doc->text);

  if (kind_requested(p.context.only, kQuickFixKind)) {
    for (const Diagnostic& d : diagnostics) {
      if (!d.fix || d.fix->applicability == Applicability::DisplayOnly) continue;
      LspDiagnostic lsp = to_lsp_diagnostic(index, d, ending);
      if (!ranges_touch(lsp.range, p.range)) continue;
      CodeAction action;
      action.title = quick_fix_title(*d.fix);
      action.kind = kQuickFixKind;
      action.is_preferred = d.fix->applicability == Applicability::Safe;
      action.edit.changes.push_back({doc->uri, to_text_edits(index, *d.fix, ending)});
      action.diagnostics.push_back(std::move(lsp));
      actions.push_back(action);
    }
  }
  if (kind_requested(p.context.only, kFixAllKind)) {
    bool any_safe = std::any_of(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) {
      return d.fix && d.fix->applicability == Applicability::Safe;
    });
    std::optional<std::string> fixed;
    if (any_safe) fixed = fix_all_safe(*doc, documents_.all(), options_.settings);
    if (fixed && *fixed != doc->text) {
      CodeAction action;
      action.title = "Fix all safe fxlint problems";
      action.kind = kFixAllKind;
      action.edit.changes.push_back({doc->uri, {replacement_edit(doc->text, *fixed)}});
      actions.push_back(action);
    }
  }
  return actions;
}

json Server::hover(const TextDocumentPositionParams& p) {
  const Document* doc = documents_.find(p.text_document.uri);
  if (!doc) return nullptr;
  auto found = diagnostics_.find(doc->uri);
  std::span<const Diagnostic> diagnostics;
  if (found != diagnostics_.end()) diagnostics = found->second;
  std::optional<Hover> h = rule_hover(doc->text, diagnostics, p.position);
  return h ? json(*h) : json(nullptr);
}

void Server::publish(const std::string& uri, std::optional<int> version, const json& diagnostics) {
  json params = {{"uri", uri}, {"diagnostics", diagnostics}};
  if (version) params["version"] = *version;
  notify("textDocument/publishDiagnostics", params);
}

void Server::notify(const std::string& method, const json& params) {
  transport_.write(serialize(json{{"jsonrpc", "2.0"}, {"method", method}, {"params", params}}));
}

void Server::show_error(const std::string& message) {
  log(message);
  notify("window/showMessage", {{"type", 1}, {"message", message}});
}

void Server::log(const std::string& message) {
  if (options_.log) *options_.log << message << std::endl;
}

}  // namespace fxlint::lsp

#include "lsp/server.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <ostream>
#include <set>

#include "core/line_index.h"
#include "lsp/conversion.h"
#include "lsp/document_linter.h"
#include "lsp/fix_all.h"
#include "lsp/hover.h"
#include "lsp/uri.h"
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

// JSON.stringify writes a lone UTF-16 surrogate as `\udc80`, which is not text
// and which the JSON parser refuses; each becomes U+FFFD, so the rest of the
// message (a whole document) is kept.
std::string replace_lone_surrogates(std::string body) {
  auto hex_at = [&](size_t i) -> long {
    if (i + 4 > body.size()) return -1;
    for (size_t k = i; k < i + 4; ++k) {
      if (!std::isxdigit(static_cast<unsigned char>(body[k]))) return -1;
    }
    return std::strtol(body.substr(i, 4).c_str(), nullptr, 16);
  };
  for (size_t i = 0; i + 1 < body.size(); ++i) {
    if (body[i] != '\\') continue;
    if (body[i + 1] != 'u') {
      ++i;  // an escaped character, `\\` included
      continue;
    }
    long unit = hex_at(i + 2);
    if (unit >= 0xD800 && unit <= 0xDBFF && i + 12 <= body.size() && body.compare(i + 6, 2, "\\u") == 0) {
      long low = hex_at(i + 8);
      if (low >= 0xDC00 && low <= 0xDFFF) {
        i += 11;  // a proper pair
        continue;
      }
    }
    if (unit >= 0xD800 && unit <= 0xDFFF) body.replace(i + 2, 4, "fffd");
    i += 5;
  }
  return body;
}

std::string quick_fix_title(const Fix& fix) {
  return fix.applicability == Applicability::Unsafe ? fix.title + " (unsafe)" : fix.title;
}

}  // namespace

Server::Server(std::istream& in, std::ostream& out, ServerOptions options)
    : transport_(in, out),
      options_(std::move(options)),
      workspace_(options_.list_workspace),
      linter_(options_.settings) {
  // The reader thread reads `in` while the loop writes `out`: a tied `in`
  // (std::cin is tied to std::cout) would flush `out` from the reader thread.
  in.tie(nullptr);
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
  dispatcher_.on_notification<NoParams>("initialized", [this](const NoParams&) { initialized(); });
  dispatcher_.on_notification<DidChangeWatchedFilesParams>("workspace/didChangeWatchedFiles",
                                                           [this](const auto& p) { did_change_watched_files(p); });
  dispatcher_.on_request<NoParams>("shutdown", [this](const NoParams&) {
    shutdown_ = true;
    return json(nullptr);
  });
  dispatcher_.on_notification<NoParams>("$/cancelRequest", [](const NoParams&) {});  // handled before dispatch
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
  // A well-formed fxlint.verify is started before dispatch (it is answered when it ends).
  dispatcher_.on_request<ExecuteCommandParams>("workspace/executeCommand", [this](const ExecuteCommandParams& p) -> json {
    if (p.command != kVerifyCommand) throw LspError(ErrorCode::InvalidParams, "unknown command: " + p.command);
    if (!options_.verify) throw LspError(ErrorCode::RequestFailed, "verification is not available in this server");
    throw LspError(ErrorCode::InvalidParams,
                   "fxlint.verify takes one argument {target, inputs, backend, root} (root: the config's directory)");
  });
  dispatcher_.on_request<TextDocumentPositionParams>("textDocument/hover",
                                                     [this](const TextDocumentPositionParams& p) { return hover(p); });
}

int Server::run() {
  // Input is read all the time, also while a lint runs.
  auto reader_done = std::make_shared<std::atomic<bool>>(false);
  std::thread reader([this, reader_done] {
    for (;;) {
      ReadResult r = transport_.read();
      if (r.kind == ReadResult::Kind::EndOfStream) break;
      if (r.kind == ReadResult::Kind::BadHeader) events_.push({Event::Kind::BadHeader, std::move(r.error), nullptr});
      else events_.push({Event::Kind::Message, std::move(r.body), nullptr});
    }
    *reader_done = true;
    events_.push({Event::Kind::EndOfInput, {}, nullptr});
  });
  bool input_ended = false;
  while (!exit_ && !input_ended && !transport_.closed()) {
    for (Event& e : events_.take_all()) pending_.push_back(std::move(e));
    while (!pending_.empty() && !exit_ && !transport_.closed()) {
      Event e = std::move(pending_.front());
      pending_.pop_front();
      switch (e.kind) {
        case Event::Kind::Message: handle_message(e.text); break;
        case Event::Kind::BadHeader: log("bad message header: " + e.text); break;
        case Event::Kind::LintDone: finish_lint(*e.lint); break;
        case Event::Kind::VerifyDone: finish_verification(*e.verification); break;
        case Event::Kind::EndOfInput: input_ended = true; break;
      }
    }
    if (dirty_ && !linting_ && !shutdown_ && !exit_) start_lint();
  }
  if (worker_.joinable()) worker_.join();
  // A verification still running ends within the capture's timeout.
  for (auto& [job, thread] : verifications_) thread.join();
  // At `exit` the reader may still be blocked on the editor's open pipe: the
  // process ends right after, and takes it along.
  if (*reader_done) reader.join();
  else reader.detach();
  return shutdown_ ? 0 : 1;
}

void Server::handle_message(const std::string& raw) {
  std::string body = replace_lone_surrogates(raw);
  json peek = json::parse(body, nullptr, false);
  if (peek.is_object()) {
    std::string method = peek.value("method", "");
    if (method == "$/cancelRequest") return;  // requests are answered as they come, or in wait_for_analysis
    // A code action's edits must fit the text it is asked for, and its
    // diagnostics the other documents as they are now (compile regions cross
    // files): it waits for the lint of the current texts (input is still read
    // meanwhile), and no later change is applied before it is answered.
    if (method == "textDocument/codeAction" && peek.contains("id") && initialized_ && !shutdown_) {
      const json params = peek.value("params", json::object());
      const json doc = params.is_object() ? params.value("textDocument", json::object()) : json::object();
      std::string uri = doc.is_object() ? doc.value("uri", "") : "";
      if (documents_.find(uri) && (dirty_ || linting_ || !analysed(uri)) && !wait_for_analysis(peek["id"])) {
        transport_.write(serialize(json{{"jsonrpc", "2.0"},
                                        {"id", peek["id"]},
                                        {"error", {{"code", -32800}, {"message", "the request was cancelled"}}}}));
        return;
      }
    }
    if (method == "workspace/executeCommand" && start_verification(peek)) return;
    // What came before `shutdown` is published before it is answered.
    if (method == "shutdown" && initialized_ && !shutdown_) {
      wait_for_verifications();  // every executeCommand gets its answer
      wait_for_analysis(json());
    }
  }
  // The message is parsed once: a burst of keystrokes is hundreds of them.
  std::optional<json> response = peek.is_discarded() ? dispatcher_.dispatch_body(body) : dispatcher_.dispatch(peek);
  if (response) transport_.write(serialize(*response));
}

bool Server::analysed(const std::string& uri) const {
  const Document* doc = documents_.find(uri);
  auto it = analysed_revision_.find(uri);
  return doc && it != analysed_revision_.end() && it->second == doc->revision;
}

void Server::start_lint() {
  auto job = std::make_shared<FinishedLint>();
  for (const Document* d : documents_.all()) job->snapshot.push_back(*d);
  job->workspace = std::move(workspace_work_);
  workspace_work_ = {};
  dirty_ = false;
  linting_ = true;
  running_cancel_ = job->cancel;
  if (worker_.joinable()) worker_.join();
  worker_ = std::thread([this, job] {
    // The workspace is read here, off the loop: indexing a large one does
    // not hold up hover or input.
    if (job->workspace.forget_settings) linter_.forget_settings();
    if (job->workspace.rescan) job->problems = workspace_.rescan();
    for (const std::string& path : job->workspace.refresh) workspace_.refresh(path);
    std::vector<const Document*> docs;
    for (const Document& d : job->snapshot) docs.push_back(&d);
    try {
      job->run = linter_.lint(docs, workspace_, job->cancel.get());
    } catch (const CheckCancelled&) {
      job->cancelled = true;
    }
    events_.push({Event::Kind::LintDone, {}, job});
  });
}

bool Server::wait_for_analysis(const json& request_id) {
  // A $/cancelRequest for it, among the messages not handled yet, is taken out.
  auto cancels_it = [&](const Event& e) {
    if (request_id.is_null() || e.kind != Event::Kind::Message) return false;
    json m = json::parse(e.text, nullptr, false);
    return m.is_object() && m.value("method", "") == "$/cancelRequest" && m.contains("params") &&
           m["params"].is_object() && m["params"].value("id", json()) == request_id;
  };
  auto take_cancel = [&] {
    auto it = std::find_if(pending_.begin(), pending_.end(), cancels_it);
    if (it == pending_.end()) return false;
    pending_.erase(it);
    return true;
  };
  while (linting_ || dirty_) {
    if (take_cancel()) return false;
    if (!linting_) start_lint();
    // The lint's result may already be among the events taken but not handled.
    auto finished = std::find_if(pending_.begin(), pending_.end(),
                                 [](const Event& e) { return e.kind == Event::Kind::LintDone; });
    if (finished != pending_.end()) {
      Event e = std::move(*finished);
      pending_.erase(finished);
      finish_lint(*e.lint);
      continue;
    }
    // Messages that arrive meanwhile are handled after, in the order they came.
    for (bool done = false; !done;) {
      for (Event& e : events_.take_all()) {
        if (!done && e.kind == Event::Kind::LintDone) {
          finish_lint(*e.lint);
          done = true;
        } else {
          pending_.push_back(std::move(e));
        }
      }
      if (take_cancel()) return false;  // a lint still running is taken when it ends
    }
  }
  return !take_cancel();
}

void Server::finish_lint(FinishedLint& done) {
  linting_ = false;
  running_cancel_.reset();
  for (const std::string& p : done.problems) log("cannot read the workspace: " + p);
  if (done.cancelled) return;  // a newer text is linted next
  for (const std::string& e : done.run.settings_errors) {
    if (std::find(reported_settings_errors_.begin(), reported_settings_errors_.end(), e) !=
        reported_settings_errors_.end()) {
      continue;
    }
    reported_settings_errors_.push_back(e);
    show_error("fxlint: cannot use the settings for " + e + "; using the defaults");
  }
  for (LintedDocument& linted : done.run.documents) {
    const Document& doc = *linted.document;
    const Document* current = documents_.find(doc.uri);
    if (!current || current->revision != doc.revision) continue;  // changed or closed since: stale
    LineIndex index(doc.text);
    LineEnding ending = detect_line_ending(doc.text);
    json published = json::array();
    for (const Diagnostic& d : linted.diagnostics) published.push_back(to_lsp_diagnostic(index, d, ending));
    diagnostics_[doc.uri] = std::move(linted.diagnostics);
    analysed_revision_[doc.uri] = doc.revision;
    analysed_text_[doc.uri] = doc.text;
    auto it = published_.find(doc.uri);
    if (it != published_.end() && it->second == published) continue;
    published_[doc.uri] = published;
    published_version_[doc.uri] = doc.version;
    publish_with_runtime(doc.uri);
  }
}

json Server::initialize(const InitializeParams& params) {
  if (initialized_) throw LspError(ErrorCode::InvalidRequest, "the server is already initialized");
  initialized_ = true;
  std::vector<std::string> roots;
  for (const std::string& uri : params.workspace_folders) {
    if (auto path = uri_to_path(uri)) roots.push_back(*path);
  }
  if (roots.empty() && params.root_uri) {
    if (auto path = uri_to_path(*params.root_uri)) roots.push_back(*path);
  }
  if (!roots.empty() && options_.list_workspace) {
    workspace_.set_roots(std::move(roots));  // no lint runs before initialize
    workspace_work_.rescan = true;
    dirty_ = true;  // indexed in the background, before any document is opened
  }
  watch_files_ = params.watch_files;
  return {
      {"capabilities",
       {{"positionEncoding", "utf-16"},
        {"textDocumentSync", {{"openClose", true}, {"change", 2 /* incremental */}, {"save", {{"includeText", false}}}}},
        {"codeActionProvider", {{"codeActionKinds", {kQuickFixKind, kFixAllKind, kVerifyKind}}}},
        {"executeCommandProvider", {{"commands", options_.verify ? json::array({kVerifyCommand}) : json::array()}}},
        {"hoverProvider", true}}},
      {"serverInfo", {{"name", "fxlint"}, {"version", options_.version}}},
  };
}

namespace {

bool is_config_name(std::string_view path) {
  for (std::string_view name : {"pyproject.toml", "fxlint.toml", ".fxlint.toml", ".gitignore"}) {
    if (path == name || (path.ends_with(name) && path[path.size() - name.size() - 1] == '/')) return true;
  }
  return false;
}

}  // namespace

void Server::initialized() {
  if (!watch_files_ || workspace_.empty()) return;
  // Files changed outside the editor (a checkout, a formatter) reach the
  // analysis through the client's watchers: Python files and what decides
  // the settings.
  json watchers = json::array();
  for (const char* glob : {"**/*.py", "**/*.pyi", "**/pyproject.toml", "**/fxlint.toml", "**/.fxlint.toml",
                           "**/.gitignore"}) {
    watchers.push_back({{"globPattern", glob}});
  }
  json registration = {{"id", "fxlint-watched-files"},
                       {"method", "workspace/didChangeWatchedFiles"},
                       {"registerOptions", {{"watchers", watchers}}}};
  transport_.write(serialize(json{{"jsonrpc", "2.0"},
                                  {"id", "fxlint-register-watchers"},
                                  {"method", "client/registerCapability"},
                                  {"params", {{"registrations", json::array({registration})}}}}));
}

void Server::did_change_watched_files(const DidChangeWatchedFilesParams& p) {
  if (shutdown_) return;
  for (const FileEvent& e : p.changes) {
    std::optional<std::string> path = uri_to_path(e.uri);
    if (!path) continue;
    if (is_config_name(*path)) {
      workspace_work_.rescan = true;  // which files belong, and their settings, may change
      workspace_work_.forget_settings = true;
    } else if (e.type == 1) {
      workspace_work_.rescan = true;  // whether it belongs is the lister's call
    } else {
      workspace_work_.refresh.push_back(*path);
    }
  }
  dirty_ = true;
}

// After `shutdown` the documents are no longer linted (only `exit` is expected).
void Server::did_open(const DidOpenTextDocumentParams& p) {
  if (shutdown_) return;
  documents_.open(p.text_document.uri, p.text_document.version, p.text_document.text);
  dirty_ = true;
}

void Server::did_change(const DidChangeTextDocumentParams& p) {
  if (shutdown_) return;
  documents_.change(p.uri, p.version, p.content_changes);
  dirty_ = true;
  cancel_running_lint();
  // Runtime results name lines of the text that ran: an edit makes them stale.
  bool had_runtime = false;
  for (auto& [target, findings] : runtime_) {
    auto stale = std::remove_if(findings.begin(), findings.end(), [&](const RuntimeFinding& f) {
      return path_to_uri(f.path) == p.uri;
    });
    had_runtime = had_runtime || stale != findings.end();
    findings.erase(stale, findings.end());
  }
  if (had_runtime) publish_with_runtime(p.uri);
}

void Server::cancel_running_lint() {
  if (running_cancel_) running_cancel_->set();
}

void Server::did_save(const DidSaveTextDocumentParams& p) {
  if (shutdown_) return;
  if (p.text) documents_.set_text(p.text_document.uri, *p.text);
  // The file on disk is now the saved text; a saved config may change the settings.
  if (const Document* doc = documents_.find(p.text_document.uri); doc && doc->path) {
    if (is_config_name(*doc->path)) {
      workspace_work_.rescan = true;
      workspace_work_.forget_settings = true;
    } else {
      workspace_work_.refresh.push_back(*doc->path);
    }
  }
  // Saving may have changed a config file's effect or other files on disk.
  published_.erase(p.text_document.uri);
  analysed_revision_.erase(p.text_document.uri);
  dirty_ = true;
}

void Server::did_close(const DidCloseTextDocumentParams& p) {
  const std::string& uri = p.text_document.uri;
  if (!documents_.close(uri)) return;
  published_version_.erase(uri);
  diagnostics_.erase(uri);
  analysed_revision_.erase(uri);
  analysed_text_.erase(uri);
  published_.erase(uri);
  publish(uri, std::nullopt, json::array());
  if (!shutdown_) dirty_ = true;  // the others may have depended on it
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
  if (kind_requested(p.context.only, kVerifyKind)) add_verify_actions(*doc, p.range, actions);
  if (kind_requested(p.context.only, kFixAllKind)) {
    bool any_safe = std::any_of(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) {
      return d.fix && d.fix->applicability == Applicability::Safe;
    });
    std::optional<std::string> fixed;
    // No lint runs now: a code action waits for the lint of the current texts.
    if (any_safe) fixed = fix_all_safe(*doc, documents_.all(), linter_, workspace_);
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
  // From the latest finished lint, without waiting for one that runs: its
  // diagnostics are offsets into the text it saw, so they are read against that text.
  auto found = diagnostics_.find(doc->uri);
  auto seen = analysed_text_.find(doc->uri);
  std::span<const Diagnostic> diagnostics;
  if (found != diagnostics_.end() && seen != analysed_text_.end()) diagnostics = found->second;
  const std::string& text = seen != analysed_text_.end() ? seen->second : doc->text;
  std::optional<Hover> h = rule_hover(text, diagnostics, p.position);
  return h ? json(*h) : json(nullptr);
}

namespace {

json target_json(const RuntimeTarget& t) {
  return {{"target", t.target}, {"inputs", t.inputs}, {"backend", t.backend}, {"root", t.root}};
}

// The range of a reported source line: from its first non-blank character to
// its end, in UTF-16 units.
Range line_range(uint32_t line, const std::string& source_line) {
  size_t lead = 0;
  while (lead < source_line.size() && (source_line[lead] == ' ' || source_line[lead] == '\t')) ++lead;
  uint32_t units = 0;
  for (size_t i = 0; i < source_line.size(); ++i) {
    auto c = static_cast<unsigned char>(source_line[i]);
    if ((c & 0xC0) != 0x80) units += c >= 0xF0 ? 2 : 1;
  }
  uint32_t row = line > 0 ? line - 1 : 0;
  return {{row, static_cast<uint32_t>(lead)}, {row, std::max<uint32_t>(units, static_cast<uint32_t>(lead) + 1)}};
}

}  // namespace

bool Server::start_verification(const json& message) {
  if (!initialized_ || shutdown_ || !options_.verify || !message.contains("id")) return false;
  const json params = message.value("params", json::object());
  if (!params.is_object() || params.value("command", "") != kVerifyCommand) return false;
  const json args = params.value("arguments", json::array());
  if (!args.is_array() || args.empty() || !args[0].is_object()) return false;
  const json& a = args[0];
  RuntimeTarget target;
  try {
    target.target = a.at("target").get<std::string>();
    target.inputs = a.value("inputs", std::vector<std::string>{});
    target.backend = a.value("backend", std::string("capture"));
    target.root = a.at("root").get<std::string>();
  } catch (const json::exception&) {
    return false;  // the dispatcher answers InvalidParams
  }
  auto job = std::make_shared<FinishedVerification>();
  job->request_id = message["id"];
  job->target = std::move(target);
  verifications_[job.get()] = std::thread([this, job] {
    try {
      job->result = options_.verify(job->target);
    } catch (const std::exception& e) {
      job->result.summary = std::string("cannot verify: ") + e.what();
    }
    events_.push({Event::Kind::VerifyDone, {}, nullptr, job});
  });
  return true;
}

void Server::wait_for_verifications() {
  while (!verifications_.empty()) {
    for (Event& e : events_.take_all()) {
      if (e.kind == Event::Kind::VerifyDone) finish_verification(*e.verification);
      else pending_.push_back(std::move(e));
    }
  }
}

void Server::finish_verification(FinishedVerification& done) {
  if (auto running = verifications_.find(&done); running != verifications_.end()) {
    running->second.join();  // it has pushed its event: it is ending
    verifications_.erase(running);
  }
  const RuntimeVerification& r = done.result;
  std::set<std::string> uris;
  for (const RuntimeFinding& f : runtime_[done.target.target]) uris.insert(path_to_uri(f.path));
  runtime_[done.target.target] = r.findings;
  runtime_backend_[done.target.target] = done.target.backend;
  for (const RuntimeFinding& f : r.findings) uris.insert(path_to_uri(f.path));
  json result = {{"target", done.target.target},
                 {"backend", done.target.backend},
                 {"ran", r.ran},
                 {"passed", r.passed},
                 {"summary", r.summary},
                 {"findings", r.findings.size()}};
  transport_.write(serialize(json{{"jsonrpc", "2.0"}, {"id", done.request_id}, {"result", result}}));
  for (const std::string& uri : uris) publish_with_runtime(uri);
  notify("window/showMessage", {{"type", r.passed ? 3 : r.ran ? 2 : 1},
                                {"message", "fxlint verify " + done.target.target + ": " + r.summary}});
}

void Server::add_verify_actions(const Document& doc, const Range& range, json& actions) {
  if (!options_.verify || !options_.verify_targets || !doc.path) return;
  std::vector<RuntimeTarget> targets;
  try {
    targets = options_.verify_targets(*doc.path);
  } catch (const std::exception& e) {
    log("verify targets: " + std::string(e.what()));
    return;
  }
  LineIndex index(doc.text);
  for (const RuntimeTarget& t : targets) {
    // Offered on the header of the class or function the target names.
    std::string last = t.name.substr(t.name.rfind('.') == std::string::npos ? 0 : t.name.rfind('.') + 1);
    bool on_header = false;
    for (uint32_t line = range.start.line; line <= range.end.line && line < index.line_count(); ++line) {
      std::string_view text = index.line_text(line);
      size_t at = text.find_first_not_of(" \t");
      if (at == std::string_view::npos) continue;
      text.remove_prefix(at);
      if (text.starts_with("async ")) text.remove_prefix(6);
      for (std::string_view keyword : {"class ", "def "}) {
        if (!text.starts_with(keyword)) continue;
        std::string_view name = text.substr(keyword.size());
        on_header = on_header || (name.starts_with(last) && (name.size() == last.size() ||
                                                              !(std::isalnum(static_cast<unsigned char>(name[last.size()])) ||
                                                                name[last.size()] == '_')));
      }
    }
    if (!on_header) continue;
    std::vector<std::string> backends = {t.backend};
    if (t.backend != "dynamo") backends.push_back("dynamo");
    for (const std::string& backend : backends) {
      RuntimeTarget run = t;
      run.backend = backend;
      std::string title = "Verify " + t.name + " with " + (backend == "capture" ? "the bundled capture" : backend);
      actions.push_back({{"title", title},
                         {"kind", kVerifyKind},
                         {"command", {{"title", title}, {"command", kVerifyCommand}, {"arguments", {target_json(run)}}}}});
    }
  }
}

json Server::runtime_diagnostics(const std::string& uri) const {
  json out = json::array();
  const Document* doc = documents_.find(uri);
  auto statics = diagnostics_.find(uri);
  auto seen = analysed_text_.find(uri);
  for (const auto& [target, findings] : runtime_) {
    auto backend = runtime_backend_.find(target);
    std::string source = "fxlint verify (" + (backend != runtime_backend_.end() ? backend->second : "capture") + ")";
    for (const RuntimeFinding& f : findings) {
      if (path_to_uri(f.path) != uri) continue;
      // The line as the document now reads, when it is open (the stack's copy may be stripped).
      Range range = line_range(f.line, f.source_line);
      if (doc && f.line >= 1) {
        LineIndex index(doc->text);
        if (f.line <= index.line_count()) {
          uint32_t row = f.line - 1;
          std::string_view text = index.line_text(row);
          size_t lead = text.find_first_not_of(" \t\f");
          if (lead != std::string_view::npos) {
            uint32_t start = index.line_start(row);
            range = {{row, index.utf16_column(start + static_cast<uint32_t>(lead))},
                     {row, index.utf16_column(index.line_end(row))}};
          }
        }
      }
      json d = {{"range", range},
                {"severity", 2},
                {"source", source},
                {"message", f.message + " (" + target + ")"}};
      if (!f.code.empty()) d["code"] = f.code;
      // The static findings on the same line, so the editor links the two.
      json related = json::array();
      if (doc && statics != diagnostics_.end() && seen != analysed_text_.end()) {
        LineIndex index(seen->second);
        LineEnding ending = detect_line_ending(seen->second);
        for (const Diagnostic& s : statics->second) {
          if (index.line_of(s.range.start) + 1 != f.line) continue;
          LspDiagnostic lsp = to_lsp_diagnostic(index, s, ending);
          related.push_back({{"location", {{"uri", uri}, {"range", lsp.range}}},
                             {"message", "fxlint " + s.code + ": " + s.message}});
        }
      }
      if (!related.empty()) d["relatedInformation"] = related;
      out.push_back(std::move(d));
    }
  }
  return out;
}

void Server::publish_with_runtime(const std::string& uri) {
  json all = published_.count(uri) ? published_[uri] : json::array();
  for (json& d : runtime_diagnostics(uri)) all.push_back(std::move(d));
  auto version = published_version_.find(uri);
  publish(uri, version != published_version_.end() ? version->second : std::nullopt, all);
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

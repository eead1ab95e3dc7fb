#pragma once
// The LSP adapter: turns protocol messages into document-store updates and
// lint runs, and lint results into publishDiagnostics and code actions.
//
// A reader thread reads input continuously; the loop takes every message that
// has arrived before it lints, so a burst of edits is merged and only the
// latest text is linted. Lints run on a worker thread over a snapshot of the
// open documents (together: compile regions cross files); a result for a text
// that has changed since is dropped. Hover is answered at once from the latest
// finished lint; a code action, whose edits must fit the current text, waits
// for the lint of that text, and can be cancelled meanwhile. Each published
// diagnostic also carries its fix in `data`, as ruff's server does.
#include <iosfwd>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/diagnostic.h"
#include "lsp/dispatcher.h"
#include "lsp/document_linter.h"
#include "lsp/document_store.h"
#include "lsp/event_queue.h"
#include "lsp/file_settings.h"
#include "lsp/runtime_verification.h"
#include "lsp/transport.h"
#include "lsp/workspace.h"

namespace fxlint::lsp {

struct ServerOptions {
  std::string version;            // reported in serverInfo
  FileSettingsProvider settings;  // empty: the defaults for every file
  std::ostream* log = nullptr;    // framing problems and failures, for the editor's log
  // The files of a workspace root to analyse with the open documents; empty:
  // only open documents are analysed.
  WorkspaceLister list_workspace;
  // Verification from the editor (`fxlint.verify`); empty: not offered.
  RuntimeTargetsProvider verify_targets;
  RuntimeVerifier verify;
};

class Server {
 public:
  // Neither stream is owned.
  Server(std::istream& in, std::ostream& out, ServerOptions options);

  // Serves until `exit` or the end of input. Returns the process exit status:
  // 0 when `shutdown` came first, 1 otherwise (as the LSP specification says).
  int run();

 private:
  void bind_methods();
  json initialize(const InitializeParams& params);
  void initialized();
  void did_change_watched_files(const DidChangeWatchedFilesParams& params);
  void did_open(const DidOpenTextDocumentParams& params);
  void did_change(const DidChangeTextDocumentParams& params);
  void did_save(const DidSaveTextDocumentParams& params);
  void did_close(const DidCloseTextDocumentParams& params);
  json code_action(const CodeActionParams& params);
  json hover(const TextDocumentPositionParams& params);

  // What the workspace needs before the next lint: taken by the worker.
  struct WorkspaceWork {
    bool rescan = false;           // list and read the roots again
    bool forget_settings = false;  // a config file changed
    std::vector<std::string> refresh;  // files changed on disk
  };
  // A lint of a snapshot of the open documents, finished on the worker.
  struct FinishedLint {
    std::vector<Document> snapshot;
    WorkspaceWork workspace;
    LintRun run;  // points into `snapshot`
    std::vector<std::string> problems;  // for the log
    std::shared_ptr<CancelFlag> cancel = std::make_shared<CancelFlag>();
    bool cancelled = false;  // stopped by `cancel`: `run` is incomplete
  };
  // A verification run off the loop, answered when it ends.
  struct FinishedVerification {
    json request_id;
    RuntimeTarget target;
    RuntimeVerification result;
  };
  struct Event {
    enum class Kind { Message, BadHeader, EndOfInput, LintDone, VerifyDone } kind = Kind::EndOfInput;
    std::string text;  // the message body, or what was wrong with the header
    std::shared_ptr<FinishedLint> lint;
    std::shared_ptr<FinishedVerification> verification = nullptr;
  };

  void handle_message(const std::string& body);
  // `workspace/executeCommand` fxlint.verify: false when the message is not one
  // (the dispatcher then answers it).
  bool start_verification(const json& message);
  void finish_verification(FinishedVerification& done);
  // Code actions that run a config's verify targets defined at `range`.
  void add_verify_actions(const Document& doc, const Range& range, json& actions);
  // The static diagnostics last published for `uri` with its runtime ones.
  void publish_with_runtime(const std::string& uri);
  json runtime_diagnostics(const std::string& uri) const;
  void start_lint();
  void finish_lint(FinishedLint& done);
  // Waits for the running lint, and lints again if needed, until every open
  // document's analysis is of its current text. False when a $/cancelRequest
  // for `request_id` (not null) arrived meanwhile.
  bool wait_for_analysis(const json& request_id);
  // Whether the last finished lint saw the document's current text.
  bool analysed(const std::string& uri) const;
  void publish(const std::string& uri, std::optional<int> version, const json& diagnostics);
  void notify(const std::string& method, const json& params);
  void show_error(const std::string& message);
  void log(const std::string& message);

  Transport transport_;
  ServerOptions options_;
  Dispatcher dispatcher_;
  DocumentStore documents_;
  std::map<std::string, std::vector<Diagnostic>> diagnostics_;  // last lint, by URI
  std::map<std::string, uint64_t> analysed_revision_;           // the text it saw, by URI
  std::map<std::string, std::string> analysed_text_;            // that text
  std::map<std::string, json> published_;                       // last published, by URI
  std::map<std::string, std::optional<int>> published_version_;  // and its version
  // Runtime findings of the last verification of each target, by target.
  std::map<std::string, std::vector<RuntimeFinding>> runtime_;
  std::map<std::string, std::string> runtime_backend_;  // by target
  std::map<const FinishedVerification*, std::thread> verifications_;  // running
  // Handles what arrives until no verification runs (before `shutdown` is answered).
  void wait_for_verifications();
  EventQueue<Event> events_;
  std::deque<Event> pending_;  // taken from events_, not handled yet
  std::thread worker_;
  // Touched by the worker only (one lint at a time).
  Workspace workspace_;
  DocumentLinter linter_;
  WorkspaceWork workspace_work_;  // to hand to the next lint
  bool watch_files_ = false;      // the client registers file watchers for us
  bool linting_ = false;
  std::shared_ptr<CancelFlag> running_cancel_;  // of the running lint
  // A newer text makes the running lint's result stale: stop it.
  void cancel_running_lint();
  bool dirty_ = false;  // documents changed since the running (or last) lint began
  std::vector<std::string> reported_settings_errors_;           // shown once each
  bool initialized_ = false;
  bool shutdown_ = false;
  bool exit_ = false;
};

}  // namespace fxlint::lsp

#pragma once
// The LSP adapter: turns protocol messages into document-store updates and
// lint runs, and lint results into publishDiagnostics and code actions.
//
// Every change relints all open documents together (compile regions cross
// files) and republishes each document whose diagnostics changed. Quick fixes
// come from the last lint of the document's current text; each published
// diagnostic also carries its fix in `data`, as ruff's server does.
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "lsp/dispatcher.h"
#include "lsp/document_store.h"
#include "lsp/file_settings.h"
#include "lsp/transport.h"

namespace fxlint::lsp {

struct ServerOptions {
  std::string version;            // reported in serverInfo
  FileSettingsProvider settings;  // empty: the defaults for every file
  std::ostream* log = nullptr;    // framing problems and failures, for the editor's log
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
  void did_open(const DidOpenTextDocumentParams& params);
  void did_change(const DidChangeTextDocumentParams& params);
  void did_save(const DidSaveTextDocumentParams& params);
  void did_close(const DidCloseTextDocumentParams& params);
  json code_action(const CodeActionParams& params);
  json hover(const TextDocumentPositionParams& params);

  // Relints every open document and publishes those whose diagnostics changed.
  void relint();
  void publish(const std::string& uri, std::optional<int> version, const json& diagnostics);
  void notify(const std::string& method, const json& params);
  void show_error(const std::string& message);
  void log(const std::string& message);

  Transport transport_;
  ServerOptions options_;
  Dispatcher dispatcher_;
  DocumentStore documents_;
  std::map<std::string, std::vector<Diagnostic>> diagnostics_;  // last lint, by URI
  std::map<std::string, json> published_;                       // last published, by URI
  std::vector<std::string> reported_settings_errors_;           // shown once each
  bool initialized_ = false;
  bool shutdown_ = false;
  bool exit_ = false;
};

}  // namespace fxlint::lsp

#pragma once
// The LSP structures the server uses, each with to_json / from_json. from_json
// throws nlohmann::json::exception on a missing or mistyped field; the
// dispatcher turns that into an InvalidParams error. Unknown fields are ignored.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace fxlint::lsp {

using nlohmann::json;

// JSON-RPC and LSP error codes.
enum class ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestFailed = -32803,
};

// 0-based line and UTF-16 code unit offset within the line.
struct Position {
  uint32_t line = 0;
  uint32_t character = 0;
  friend bool operator==(const Position&, const Position&) = default;
  friend auto operator<=>(const Position&, const Position&) = default;
};
void to_json(json& j, const Position& p);
void from_json(const json& j, Position& p);

struct Range {
  Position start;
  Position end;
  friend bool operator==(const Range&, const Range&) = default;
};
void to_json(json& j, const Range& r);
void from_json(const json& j, Range& r);

struct TextDocumentItem {
  std::string uri;
  std::string language_id;
  int version = 0;
  std::string text;
};
void from_json(const json& j, TextDocumentItem& d);

struct TextDocumentIdentifier {
  std::string uri;
};
void from_json(const json& j, TextDocumentIdentifier& d);

// A full replacement when `range` is absent, else a replacement of `range`.
struct TextDocumentContentChangeEvent {
  std::optional<Range> range;
  std::string text;
};
void from_json(const json& j, TextDocumentContentChangeEvent& c);

struct DidOpenTextDocumentParams {
  TextDocumentItem text_document;
};
void from_json(const json& j, DidOpenTextDocumentParams& p);

struct DidChangeTextDocumentParams {
  std::string uri;
  std::optional<int> version;
  std::vector<TextDocumentContentChangeEvent> content_changes;
};
void from_json(const json& j, DidChangeTextDocumentParams& p);

struct DidCloseTextDocumentParams {
  TextDocumentIdentifier text_document;
};
void from_json(const json& j, DidCloseTextDocumentParams& p);

struct DidSaveTextDocumentParams {
  TextDocumentIdentifier text_document;
  std::optional<std::string> text;  // sent when the client honors includeText
};
void from_json(const json& j, DidSaveTextDocumentParams& p);

enum class DiagnosticSeverity { Error = 1, Warning = 2, Information = 3, Hint = 4 };

struct LspDiagnostic {
  Range range;
  DiagnosticSeverity severity = DiagnosticSeverity::Error;
  std::string code;
  std::string source = "fxlint";
  std::string message;
  json data;  // null when absent; carries the fix, as ruff's server does
};
void to_json(json& j, const LspDiagnostic& d);
void from_json(const json& j, LspDiagnostic& d);

struct PublishDiagnosticsParams {
  std::string uri;
  std::optional<int> version;
  std::vector<LspDiagnostic> diagnostics;
};
void to_json(json& j, const PublishDiagnosticsParams& p);

struct TextEdit {
  Range range;
  std::string new_text;
};
void to_json(json& j, const TextEdit& e);
void from_json(const json& j, TextEdit& e);

// Only `changes` (uri -> edits): every client supports it.
struct WorkspaceEdit {
  std::vector<std::pair<std::string, std::vector<TextEdit>>> changes;
};
void to_json(json& j, const WorkspaceEdit& e);

struct CodeActionContext {
  std::vector<LspDiagnostic> diagnostics;
  std::optional<std::vector<std::string>> only;  // requested kinds
};
void from_json(const json& j, CodeActionContext& c);

struct CodeActionParams {
  TextDocumentIdentifier text_document;
  Range range;
  CodeActionContext context;
};
void from_json(const json& j, CodeActionParams& p);

struct CodeAction {
  std::string title;
  std::string kind;
  std::vector<LspDiagnostic> diagnostics;
  bool is_preferred = false;
  WorkspaceEdit edit;
};
void to_json(json& j, const CodeAction& a);

struct TextDocumentPositionParams {
  TextDocumentIdentifier text_document;
  Position position;
};
void from_json(const json& j, TextDocumentPositionParams& p);

// What the server reads from `initialize`; the rest is ignored.
struct InitializeParams {
  std::optional<std::string> root_uri;
  std::vector<std::string> workspace_folders;  // their URIs
  bool watch_files = false;  // the client registers file watchers dynamically
};

// 1 created, 2 changed, 3 deleted.
struct FileEvent {
  std::string uri;
  int type = 2;
};
struct DidChangeWatchedFilesParams {
  std::vector<FileEvent> changes;
};
void from_json(const json& j, DidChangeWatchedFilesParams& p);
void from_json(const json& j, InitializeParams& p);

struct ExecuteCommandParams {
  std::string command;
  json arguments;  // an array, or null
};
void from_json(const json& j, ExecuteCommandParams& p);

// Kinds of code actions the server offers.
inline constexpr const char* kQuickFixKind = "quickfix";
inline constexpr const char* kFixAllKind = "source.fixAll.fxlint";
inline constexpr const char* kVerifyKind = "source.verify.fxlint";
// The command that runs a verify target (workspace/executeCommand).
inline constexpr const char* kVerifyCommand = "fxlint.verify";

}  // namespace fxlint::lsp

#include "lsp/protocol.h"

namespace fxlint::lsp {

namespace {

// A required field; throws json::exception naming it when absent.
const json& field(const json& j, const char* name) {
  if (!j.is_object()) throw json::type_error::create(302, "expected an object", &j);
  auto it = j.find(name);
  if (it == j.end()) throw json::out_of_range::create(403, std::string("missing field '") + name + "'", &j);
  return *it;
}

// LSP's uinteger; a negative or fractional value is an error, not a wrap-around.
uint32_t unsigned_field(const json& j, const char* name) {
  const json& v = field(j, name);
  if (!v.is_number_unsigned() || v.get<uint64_t>() > UINT32_MAX) {
    throw json::type_error::create(302, std::string("'") + name + "' must be a non-negative integer", &v);
  }
  return v.get<uint32_t>();
}

}  // namespace

void to_json(json& j, const Position& p) { j = {{"line", p.line}, {"character", p.character}}; }
void from_json(const json& j, Position& p) {
  p.line = unsigned_field(j, "line");
  p.character = unsigned_field(j, "character");
}

void to_json(json& j, const Range& r) { j = {{"start", r.start}, {"end", r.end}}; }
void from_json(const json& j, Range& r) {
  r.start = field(j, "start").get<Position>();
  r.end = field(j, "end").get<Position>();
}

void from_json(const json& j, TextDocumentItem& d) {
  d.uri = field(j, "uri").get<std::string>();
  d.language_id = j.value("languageId", "");
  d.version = j.value("version", 0);
  d.text = field(j, "text").get<std::string>();
}

void from_json(const json& j, TextDocumentIdentifier& d) { d.uri = field(j, "uri").get<std::string>(); }

void from_json(const json& j, TextDocumentContentChangeEvent& c) {
  if (j.is_object() && j.contains("range") && !j["range"].is_null()) c.range = j["range"].get<Range>();
  c.text = field(j, "text").get<std::string>();
}

void from_json(const json& j, DidOpenTextDocumentParams& p) {
  p.text_document = field(j, "textDocument").get<TextDocumentItem>();
}

void from_json(const json& j, DidChangeTextDocumentParams& p) {
  const json& doc = field(j, "textDocument");
  p.uri = field(doc, "uri").get<std::string>();
  if (doc.contains("version") && doc["version"].is_number_integer()) p.version = doc["version"].get<int>();
  p.content_changes = field(j, "contentChanges").get<std::vector<TextDocumentContentChangeEvent>>();
}

void from_json(const json& j, DidCloseTextDocumentParams& p) {
  p.text_document = field(j, "textDocument").get<TextDocumentIdentifier>();
}

void from_json(const json& j, DidSaveTextDocumentParams& p) {
  p.text_document = field(j, "textDocument").get<TextDocumentIdentifier>();
  if (j.contains("text") && j["text"].is_string()) p.text = j["text"].get<std::string>();
}

void to_json(json& j, const LspDiagnostic& d) {
  j = {{"range", d.range},
       {"severity", static_cast<int>(d.severity)},
       {"code", d.code},
       {"source", d.source},
       {"message", d.message}};
  if (!d.data.is_null()) j["data"] = d.data;
}

void from_json(const json& j, LspDiagnostic& d) {
  d.range = field(j, "range").get<Range>();
  d.message = field(j, "message").get<std::string>();
  if (j.contains("severity") && j["severity"].is_number_integer()) {
    d.severity = static_cast<DiagnosticSeverity>(j["severity"].get<int>());
  }
  if (j.contains("code")) {
    const json& c = j["code"];
    d.code = c.is_string() ? c.get<std::string>() : c.dump();
  }
  d.source = j.value("source", "");
  if (j.contains("data")) d.data = j["data"];
}

void to_json(json& j, const PublishDiagnosticsParams& p) {
  j = {{"uri", p.uri}, {"diagnostics", p.diagnostics}};
  if (p.version) j["version"] = *p.version;
}

void to_json(json& j, const TextEdit& e) { j = {{"range", e.range}, {"newText", e.new_text}}; }
void from_json(const json& j, TextEdit& e) {
  e.range = field(j, "range").get<Range>();
  e.new_text = field(j, "newText").get<std::string>();
}

void to_json(json& j, const WorkspaceEdit& e) {
  json changes = json::object();
  for (const auto& [uri, edits] : e.changes) changes[uri] = edits;
  j = {{"changes", changes}};
}

void from_json(const json& j, CodeActionContext& c) {
  c.diagnostics = field(j, "diagnostics").get<std::vector<LspDiagnostic>>();
  if (j.contains("only") && j["only"].is_array()) c.only = j["only"].get<std::vector<std::string>>();
}

void from_json(const json& j, CodeActionParams& p) {
  p.text_document = field(j, "textDocument").get<TextDocumentIdentifier>();
  p.range = field(j, "range").get<Range>();
  p.context = field(j, "context").get<CodeActionContext>();
}

void to_json(json& j, const CodeAction& a) {
  j = {{"title", a.title}, {"kind", a.kind}, {"edit", a.edit}};
  if (!a.diagnostics.empty()) j["diagnostics"] = a.diagnostics;
  if (a.is_preferred) j["isPreferred"] = true;
}

void from_json(const json& j, TextDocumentPositionParams& p) {
  p.text_document = field(j, "textDocument").get<TextDocumentIdentifier>();
  p.position = field(j, "position").get<Position>();
}

void from_json(const json& j, InitializeParams& p) {
  if (!j.is_object()) throw json::type_error::create(302, "expected an object", &j);
  if (j.contains("rootUri") && j["rootUri"].is_string()) p.root_uri = j["rootUri"].get<std::string>();
  if (j.contains("workspaceFolders") && j["workspaceFolders"].is_array()) {
    for (const json& f : j["workspaceFolders"]) {
      if (f.is_object() && f.contains("uri") && f["uri"].is_string()) p.workspace_folders.push_back(f["uri"]);
    }
  }
  const json* watch = &j;
  for (const char* key : {"capabilities", "workspace", "didChangeWatchedFiles"}) {
    watch = watch->is_object() && watch->contains(key) ? &(*watch)[key] : nullptr;
    if (!watch) break;
  }
  p.watch_files = watch && watch->is_object() && watch->value("dynamicRegistration", false) == true;
}

void from_json(const json& j, ExecuteCommandParams& p) {
  p.command = j.at("command").get<std::string>();
  p.arguments = j.value("arguments", json());
}

void from_json(const json& j, DidChangeWatchedFilesParams& p) {
  for (const json& c : j.at("changes")) p.changes.push_back({c.at("uri").get<std::string>(), c.at("type").get<int>()});
}

}  // namespace fxlint::lsp

#include "tests/support/catch.h"

#include "core/line_index.h"
#include "lsp/conversion.h"
#include "lsp/protocol.h"
#include "lsp/uri.h"

using namespace fxlint;
using namespace fxlint::lsp;

namespace {
// "😀" is 4 UTF-8 bytes and 2 UTF-16 units; "é" is 2 bytes and 1 unit.
const std::string kText = "x = '\xF0\x9F\x98\x80' + 'caf\xC3\xA9'; y.item()\nz\n";
}  // namespace

TEST_CASE("byte offsets become UTF-16 positions past astral characters") {
  LineIndex index(kText);
  uint32_t item = static_cast<uint32_t>(kText.find("y.item()"));
  CHECK(item == 22);  // bytes
  CHECK(to_position(index, item) == Position{0, 19});  // the emoji counts 2 units, é 1
  Range r = to_range(index, {item, item + 8});
  CHECK(r.start == Position{0, 19});
  CHECK(r.end == Position{0, 27});
  uint32_t z = static_cast<uint32_t>(kText.find('z'));
  CHECK(to_position(index, z) == Position{1, 0});
  // And back: the editor's position finds the same byte.
  CHECK(index.offset_of_utf16(0, 19) == item);
}

TEST_CASE("a diagnostic carries severity, code and its fix") {
  LineIndex index(kText);
  Diagnostic d{"FX104", "`assert` on a tensor", {22, 30}, Severity::Warning,
               Fix{"Guard it", Applicability::Unsafe, {{{22, 30}, "a\nb"}}}};
  LspDiagnostic lsp = to_lsp_diagnostic(index, d, LineEnding::CrLf);
  CHECK(lsp.severity == DiagnosticSeverity::Warning);
  json j = lsp;
  CHECK(j["code"] == "FX104");
  CHECK(j["source"] == "fxlint");
  CHECK(j["range"] == json::parse(R"({"start":{"line":0,"character":19},"end":{"line":0,"character":27}})"));
  CHECK(j["data"]["title"] == "Guard it");
  CHECK(j["data"]["applicability"] == "unsafe");
  CHECK(j["data"]["edits"][0]["newText"] == "a\r\nb");  // in the document's own line ending

  // Display-only fixes cannot be applied, so they are not offered.
  d.fix->applicability = Applicability::DisplayOnly;
  CHECK(json(to_lsp_diagnostic(index, d, LineEnding::Lf)).contains("data") == false);
}

TEST_CASE("a rewritten text becomes one edit over the part that changed") {
  std::string before = "a = 1\nb = '\xF0\x9F\x98\x80'\nc = 3\n";
  std::string after = "a = 1\nb = '\xF0\x9F\x98\x81'\nc = 3\n";  // differs in the emoji's last byte
  TextEdit e = replacement_edit(before, after);
  // The cut moves to the character boundary: the whole emoji is replaced.
  CHECK(e.range.start == Position{1, 5});
  CHECK(e.range.end == Position{1, 7});
  CHECK(e.new_text == "\xF0\x9F\x98\x81");

  TextEdit insert = replacement_edit("ab", "axb");
  CHECK(insert.range.start == Position{0, 1});
  CHECK(insert.range.end == Position{0, 1});
  CHECK(insert.new_text == "x");
  TextEdit none = replacement_edit("same", "same");
  CHECK(none.range.start == none.range.end);
  CHECK(none.new_text.empty());
}

TEST_CASE("params parse into structs and reject what does not fit") {
  json change = json::parse(R"({"textDocument":{"uri":"file:///a.py","version":3},
    "contentChanges":[{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":4}},"text":"xy"},
                      {"text":"full"}]})");
  auto p = change.get<DidChangeTextDocumentParams>();
  CHECK(p.uri == "file:///a.py");
  CHECK(p.version == 3);
  REQUIRE(p.content_changes.size() == 2);
  CHECK(p.content_changes[0].range->end == Position{1, 4});
  CHECK_FALSE(p.content_changes[1].range.has_value());

  CHECK_THROWS_AS(json::parse(R"({"textDocument":{}})").get<DidOpenTextDocumentParams>(), json::exception);
  CHECK_THROWS_AS(json::parse(R"({"line":-1,"character":0})").get<Position>(), json::exception);
  CHECK_THROWS_AS(json::parse(R"({"line":"1","character":0})").get<Position>(), json::exception);
  CHECK_THROWS_AS(json::parse("[]").get<CodeActionParams>(), json::exception);
}

TEST_CASE("file URIs convert to paths and back") {
  CHECK(uri_to_path("file:///home/a%20b/m%C3%A9.py") == "/home/a b/m\xC3\xA9.py");
  CHECK(uri_to_path("file://localhost/x.py") == "/x.py");
  CHECK_FALSE(uri_to_path("untitled:Untitled-1").has_value());
  CHECK_FALSE(uri_to_path("file:///bad%2").has_value());
  CHECK_FALSE(uri_to_path("file://server/share/x.py").has_value());
  CHECK(path_to_uri("/home/a b/x.py") == "file:///home/a%20b/x.py");
  CHECK(uri_to_path(path_to_uri("/tmp/\xC3\xA9 #1.py")) == "/tmp/\xC3\xA9 #1.py");
}

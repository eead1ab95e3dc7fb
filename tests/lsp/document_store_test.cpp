#include "tests/support/catch.h"

#include "core/line_index.h"
#include "lsp/document_store.h"
#include "lsp/lsp_error.h"

using namespace fxlint::lsp;

namespace {
TextDocumentContentChangeEvent edit(uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2, std::string text) {
  return {Range{{l1, c1}, {l2, c2}}, std::move(text)};
}
}  // namespace

TEST_CASE("range edits use UTF-16 columns, past astral characters") {
  std::string text = "s = '\xF0\x9F\x98\x80'; v = x.item()\n";
  // `.item()` starts at UTF-16 column 15 (the emoji counts 2), byte 17.
  apply_content_change(text, edit(0, 15, 0, 22, ""));
  CHECK(text == "s = '\xF0\x9F\x98\x80'; v = x\n");
}

TEST_CASE("changes apply in order, each against the text the previous one left") {
  DocumentStore store;
  store.open("file:///m.py", 1, "a\nb\nc\n");
  std::vector<TextDocumentContentChangeEvent> changes = {
      edit(1, 0, 1, 1, "BB"),       // a BB c
      edit(0, 1, 1, 0, " + "),      // "a + BB\nc\n": joins lines 0 and 1
      edit(1, 1, 1, 1, "\nd"),      // insert after c
  };
  const Document& d = store.change("file:///m.py", 2, changes);
  CHECK(d.text == "a + BB\nc\nd\n");
  CHECK(d.version == 2);
  CHECK(d.path == "/m.py");
}

TEST_CASE("a full change replaces the text; positions past a line's end clamp to it") {
  DocumentStore store;
  store.open("file:///m.py", 1, "old");
  std::vector<TextDocumentContentChangeEvent> changes = {{std::nullopt, "abc\ndef"}, edit(0, 99, 1, 0, "")};
  CHECK(store.change("file:///m.py", 2, changes).text == "abcdef");
  std::vector<TextDocumentContentChangeEvent> append = {edit(7, 0, 7, 0, "!")};
  CHECK(store.change("file:///m.py", 3, append).text == "abcdef!");
}

TEST_CASE("a bad change leaves the document as it was") {
  DocumentStore store;
  store.open("file:///m.py", 1, "abc\n");
  std::vector<TextDocumentContentChangeEvent> changes = {edit(0, 0, 0, 1, "X"), edit(0, 2, 0, 1, "")};
  CHECK_THROWS_AS(store.change("file:///m.py", 2, changes), LspError);
  CHECK(store.find("file:///m.py")->text == "abc\n");
  CHECK(store.find("file:///m.py")->version == 1);
  CHECK_THROWS_AS(store.change("file:///other.py", 2, changes), LspError);
}

TEST_CASE("closing forgets the document") {
  DocumentStore store;
  store.open("untitled:1", 1, "x");
  CHECK_FALSE(store.find("untitled:1")->path.has_value());
  CHECK(store.close("untitled:1"));
  CHECK_FALSE(store.close("untitled:1"));
  CHECK(store.all().empty());
}

TEST_CASE("range offsets agree with a line index, with LF and with CR line breaks") {
  // Positions on every line, past line ends and past the last line.
  for (std::string base : {std::string("a = 1\n\xC3\xA9t\xF0\x9F\x98\x80 = 2\n\nlast"),
                           std::string("a = 1\r\n\xC3\xA9t = 2\rb\n\nlast\n")}) {
    fxlint::LineIndex index(base);
    for (uint32_t l1 = 0; l1 < 6; ++l1) {
      for (uint32_t c1 = 0; c1 < 9; c1 += 2) {
        for (uint32_t l2 = l1; l2 < 6; ++l2) {
          uint32_t c2 = l2 == l1 ? c1 + 1 : 0;
          std::string text = base;
          apply_content_change(text, edit(l1, c1, l2, c2, "X"));
          uint32_t s = index.offset_of_utf16(l1, c1), e = index.offset_of_utf16(l2, c2);
          std::string expected = base.substr(0, s) + "X" + base.substr(e);
          INFO(l1 << ":" << c1 << " - " << l2 << ":" << c2);
          CHECK(text == expected);
        }
      }
    }
  }
}

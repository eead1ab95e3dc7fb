#include "tests/support/catch.h"

#include <random>

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
  store.change("file:///m.py", 2, changes);
  const Document& d = *store.find("file:///m.py");
  CHECK(d.text == "a + BB\nc\nd\n");
  CHECK(d.version == 2);
  CHECK(d.path == "/m.py");
}

TEST_CASE("a full change replaces the text; positions past a line's end clamp to it") {
  DocumentStore store;
  store.open("file:///m.py", 1, "old");
  std::vector<TextDocumentContentChangeEvent> changes = {{std::nullopt, "abc\ndef"}, edit(0, 99, 1, 0, "")};
  store.change("file:///m.py", 2, changes);
  CHECK(store.find("file:///m.py")->text == "abcdef");
  std::vector<TextDocumentContentChangeEvent> append = {edit(7, 0, 7, 0, "!")};
  store.change("file:///m.py", 3, append);
  CHECK(store.find("file:///m.py")->text == "abcdef!");
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

TEST_CASE("changes held until the document is read give the text of applying them one by one") {
  const char* pieces[] = {"", "x", " ", "\n", "\xC3\xA9", "\xF0\x9F\x98\x80", "def f(x):\n    return x\n", "\r\n"};
  std::mt19937 rng(20261130);
  auto pick = [&](uint32_t n) { return std::uniform_int_distribution<uint32_t>(0, n)(rng); };
  for (int round = 0; round < 200; ++round) {
    // A third of the rounds type CR line breaks, which take the line index path.
    bool cr = round % 3 == 0;
    std::string expected = cr ? "a = 1\r\nb = 2\r\n" : "a = 1\n\xC3\xA9 = 2\n\nlast";
    DocumentStore store;
    store.open("file:///m.py", 1, expected);
    for (int message = 0; message < 30; ++message) {
      std::vector<TextDocumentContentChangeEvent> changes;
      for (uint32_t k = pick(2) + 1; k > 0; --k) {
        if (pick(40) == 0) {
          changes.push_back({std::nullopt, "full\ntext\n"});
          continue;
        }
        uint32_t l1 = pick(6), l2 = l1 + (pick(3) == 0 ? pick(2) : 0);
        uint32_t c1 = pick(9), c2 = l2 == l1 ? c1 + pick(3) : pick(9);
        std::string piece = pieces[pick(cr ? 7 : 6)];
        changes.push_back(edit(l1, c1, l2, c2, piece));
      }
      for (const TextDocumentContentChangeEvent& c : changes) apply_content_change(expected, c);
      store.change("file:///m.py", message + 2, changes);
      // Read now and then, as the server does when a lint starts.
      if (pick(4) == 0 || message == 29) {
        INFO("round " << round << ", message " << message);
        REQUIRE(store.find("file:///m.py")->text == expected);
        CHECK(store.all()[0]->version == message + 2);
      }
    }
  }
}

TEST_CASE("a bad range among several changes leaves the text as it was") {
  std::string text = "a\nb\n";
  std::vector<TextDocumentContentChangeEvent> changes = {edit(0, 0, 0, 1, "X"), edit(1, 0, 1, 1, "Y"),
                                                         edit(1, 1, 0, 0, "")};
  CHECK_THROWS_AS(apply_content_changes(text, changes), LspError);
  CHECK(text == "a\nb\n");
  changes.pop_back();
  apply_content_changes(text, changes);
  CHECK(text == "X\nY\n");
}

#include "tests/support/catch.h"
#include <sstream>
#include <streambuf>

#include "lsp/transport.h"

using fxlint::lsp::ReadResult;
using fxlint::lsp::Transport;

namespace {

// Hands out its bytes `chunk` at a time, as a pipe does when the writer is slow.
class TrickleBuf : public std::streambuf {
 public:
  TrickleBuf(std::string data, size_t chunk) : data_(std::move(data)), chunk_(chunk) {}

 protected:
  int_type underflow() override {
    if (pos_ >= data_.size()) return traits_type::eof();
    size_t n = std::min(chunk_, data_.size() - pos_);
    char* p = data_.data() + pos_;
    setg(p, p, p + n);
    pos_ += n;
    return traits_type::to_int_type(*p);
  }

 private:
  std::string data_;
  size_t chunk_;
  size_t pos_ = 0;
};

std::string frame(const std::string& body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

}  // namespace

TEST_CASE("messages arriving a byte at a time are reassembled") {
  std::string body1 = R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})";
  std::string body2 = R"({"jsonrpc":"2.0","method":"exit"})";
  for (size_t chunk : {size_t{1}, size_t{3}, size_t{7}, size_t{4096}}) {
    TrickleBuf buf(frame(body1) + frame(body2), chunk);
    std::istream in(&buf);
    std::ostringstream out;
    Transport t(in, out);
    ReadResult a = t.read();
    REQUIRE(a.kind == ReadResult::Kind::Message);
    CHECK(a.body == body1);
    ReadResult b = t.read();
    REQUIRE(b.kind == ReadResult::Kind::Message);
    CHECK(b.body == body2);
    CHECK(t.read().kind == ReadResult::Kind::EndOfStream);
  }
}

TEST_CASE("a body with newlines and multibyte text is read by its byte length") {
  std::string body = "{\"text\":\"a\\nb\",\n \"e\":\"\xF0\x9F\x98\x80\"}";
  std::istringstream in(frame(body));
  std::ostringstream out;
  Transport t(in, out);
  ReadResult r = t.read();
  REQUIRE(r.kind == ReadResult::Kind::Message);
  CHECK(r.body == body);
}

TEST_CASE("header names are case-insensitive and other headers are ignored") {
  std::istringstream in("content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}");
  std::ostringstream out;
  Transport t(in, out);
  ReadResult r = t.read();
  REQUIRE(r.kind == ReadResult::Kind::Message);
  CHECK(r.body == "{}");
}

TEST_CASE("bad header blocks are reported and the next message is still read") {
  std::string good = R"({"id":2})";
  SECTION("no Content-Length") {
    std::istringstream in("Content-Type: x\r\n\r\n" + frame(good));
    std::ostringstream out;
    Transport t(in, out);
    ReadResult bad = t.read();
    CHECK(bad.kind == ReadResult::Kind::BadHeader);
    CHECK(bad.error == "missing Content-Length header");
    ReadResult next = t.read();
    REQUIRE(next.kind == ReadResult::Kind::Message);
    CHECK(next.body == good);
  }
  SECTION("a length that is not a number, followed by its unframed body") {
    std::istringstream in("Content-Length: banana\r\n\r\n{\"id\":1}" + frame(good));
    std::ostringstream out;
    Transport t(in, out);
    ReadResult bad = t.read();
    CHECK(bad.kind == ReadResult::Kind::BadHeader);
    CHECK(bad.error.find("banana") != std::string::npos);
    ReadResult next = t.read();
    REQUIRE(next.kind == ReadResult::Kind::Message);
    CHECK(next.body == good);
  }
  SECTION("a length beyond the limit") {
    std::istringstream in("Content-Length: 99999999999\r\n\r\n" + frame(good));
    std::ostringstream out;
    Transport t(in, out);
    CHECK(t.read().kind == ReadResult::Kind::BadHeader);
    CHECK(t.read().body == good);
  }
}

TEST_CASE("input that ends inside a message is the end of the stream") {
  std::istringstream in("Content-Length: 10\r\n\r\n{\"id\"");
  std::ostringstream out;
  Transport t(in, out);
  CHECK(t.read().kind == ReadResult::Kind::EndOfStream);
}

TEST_CASE("writes are framed with the body's byte length") {
  std::istringstream in;
  std::ostringstream out;
  Transport t(in, out);
  t.write("{\"e\":\"\xC3\xA9\"}");
  CHECK(out.str() == "Content-Length: 10\r\n\r\n{\"e\":\"\xC3\xA9\"}");
}

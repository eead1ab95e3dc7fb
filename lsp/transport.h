#pragma once
// JSON-RPC framing over byte streams: each message is a header block
// (`Content-Length: N`, optional `Content-Type`, CRLF-terminated lines, a blank
// line) followed by N bytes of JSON. The transport deals in raw message bodies;
// parsing them is the dispatcher's job, so a garbled body can still be answered.
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace fxlint::lsp {

struct ReadResult {
  enum class Kind {
    Message,      // `body` holds one complete message
    BadHeader,    // the header block was malformed; `error` says how; the next read resyncs
    EndOfStream,  // the input closed (possibly in the middle of a message)
  };
  Kind kind = Kind::EndOfStream;
  std::string body;
  std::string error;
};

class Transport {
 public:
  // Neither stream is owned; both must outlive the transport.
  Transport(std::istream& in, std::ostream& out) : in_(in), out_(out) {}

  // Blocks until a whole message, a bad header block, or the end of input.
  ReadResult read();
  // Frames and writes one body, then flushes so the client sees it at once.
  void write(std::string_view body);
  // The output failed (the editor closed its end): nothing more can be said.
  bool closed() const { return closed_; }

 private:
  std::istream& in_;
  std::ostream& out_;
  bool closed_ = false;
};

// Upper bound on a body, so a corrupt length cannot exhaust memory.
inline constexpr size_t kMaxMessageBytes = size_t{256} << 20;

}  // namespace fxlint::lsp

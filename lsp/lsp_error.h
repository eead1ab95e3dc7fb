#pragma once
// The exception a handler (or anything it calls) throws to answer a request
// with a JSON-RPC error instead of a result.
#include <stdexcept>
#include <string>

#include "lsp/protocol.h"

namespace fxlint::lsp {

class LspError : public std::runtime_error {
 public:
  LspError(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

}  // namespace fxlint::lsp

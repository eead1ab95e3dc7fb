#pragma once
// Errors that end a command with exit status 2: a bad command line, or a config
// file that cannot be used. Both carry a message ready to print after "error: ".
#include <stdexcept>
#include <string>

namespace fxlint::cli {

// The command line is wrong (unknown option, missing value, bad choice).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A config file is broken; the message names the file, the key and what is allowed.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace fxlint::cli

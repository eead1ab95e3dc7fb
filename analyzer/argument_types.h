#pragma once
// What compiled callers pass to project functions, joined over every call site
// seen: `self._decode(boxes)` with `boxes` a tensor makes the helper's
// unannotated `boxes` parameter a tensor. Joined kinds are what every caller
// agrees on; `data_dependent` is what any caller makes so. Thread-safe for
// recording.
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "analyzer/value.h"

namespace fxlint {

class ArgumentTypes {
 public:
  ArgumentTypes() = default;
  ArgumentTypes(const ArgumentTypes& other);
  ArgumentTypes& operator=(const ArgumentTypes& other);

  // Values by parameter index for one call of function `function` of file `file`;
  // a parameter the call does not bind gets Unknown.
  void record(int file, int function, const std::vector<Value>& by_parameter);
  // Joined value of a parameter over all recorded calls; Unknown when none.
  Value parameter(int file, int function, size_t index) const;
  // Whether any call of the function was recorded.
  bool called(int file, int function) const;
  // Whether `other` knows the same of the function's calls: a walk of that
  // function then sees the same parameters with either.
  bool same_calls(const ArgumentTypes& other, int file, int function) const;
  // Joins in everything `other` recorded.
  void merge(const ArgumentTypes& other);
  bool operator==(const ArgumentTypes& other) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::pair<int, int>, std::vector<Value>> joined_;
};

}  // namespace fxlint

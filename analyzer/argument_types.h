#pragma once
// What compiled callers pass to project functions, joined over every call site
// seen: `self._decode(boxes)` with `boxes` a tensor makes the helper's
// unannotated `boxes` parameter a tensor. Joined kinds are what every caller
// agrees on; `data_dependent` is what any caller makes so. Likewise what each
// walked function returns, so that a caller's `boxes, losses = self.rpn(x)`
// learns what the callee computed. Thread-safe for recording.
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
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
  // What a nested function's free name `name` holds where the enclosing
  // function defines it, joined over the walks that did; Unknown when none.
  // A closure reads its enclosing function's `size` as that function has it.
  void record_closure(int file, int function, std::string_view name, const Value& value);
  Value closure(int file, int function, std::string_view name) const;
  // Whether `other` knows the same of the function's calls: a walk of that
  // function then sees the same parameters with either.
  bool same_calls(const ArgumentTypes& other, int file, int function) const;
  // What a function returns, joined over its `return` statements (and calls):
  // the value, and for `return a, b` each element (empty when the statements
  // disagree on the count).
  struct Returned {
    Value whole;
    std::vector<Value> elements;
    // The parameter (by position in the definition) whose shape every return keeps
    // (`return torch.cumsum(x, 1)`): a call's result then has data-dependent rows when
    // that call's argument has them, whatever other callers pass. -1 when none.
    int shape_of = -1;
    // What a call that passes nothing data-dependent gets, where a caller's data-dependent
    // argument made the returns so (a norm called once with masked rows): the whole, then
    // the elements. Empty when that is what `whole` and `elements` say.
    std::vector<Value> plain;
    friend bool operator==(const Returned&, const Returned&) = default;
    // What either of two returns may give.
    static Returned join(const Returned& a, const Returned& b);
    // What a call gets, given whether it passes a data-dependent argument.
    Returned for_call(bool dependent_arguments) const;
  };
  void record_return(int file, int function, const Returned& returned);
  // What `walk` recorded of the function walked without its callers' data-dependent
  // arguments: its return, kept where it differs from the return recorded here, and what it read.
  void record_plain_walk(int file, int function, const ArgumentTypes& walk);
  std::optional<Returned> returned(int file, int function) const;
  // Whether `other` knows the same of what these functions (file, function)
  // return: a walk that read only theirs sees the same calls' results with either.
  bool same_returns(const ArgumentTypes& other, const std::vector<std::pair<int, int>>& functions) const;
  // A walk recording here read what function `function` of `file` returns.
  void consulted(int file, int function);
  // Whether `a` and `b` know the same returns of every function a walk
  // recording here consulted: it then sees the same with either.
  bool same_consulted(const ArgumentTypes& a, const ArgumentTypes& b) const;

  // Joins in everything `other` recorded.
  void merge(const ArgumentTypes& other);
  bool operator==(const ArgumentTypes& other) const;

 private:
  void record_locked(const std::pair<int, int>& key, const std::vector<Value>& by_parameter);
  void closure_locked(const std::pair<int, int>& key, std::string_view name, const Value& value);

  mutable std::mutex mutex_;
  std::map<std::pair<int, int>, std::vector<Value>> joined_;
  std::map<std::pair<int, int>, std::map<std::string, Value, std::less<>>> closures_;
  std::map<std::pair<int, int>, Returned> returns_;
  std::set<std::pair<int, int>> consulted_;  // not merged: what one walk read
};

}  // namespace fxlint

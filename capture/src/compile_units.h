// What TorchDynamo would have compiled so far: one entry per compile unit (a
// function entered from eager code, or the resume function after a break),
// keyed by code object and start instruction, with the guards it was compiled
// under and where it broke. The capture consults it to do what Dynamo does on
// a second call: run a unit already compiled without tracing it again, compile
// once more when the guards fail (then with dynamic sizes), skip a code object
// whose unit broke inside a loop, and give up on a code object after
// Dynamo's recompile limit.
#pragma once

#include <pybind11/pybind11.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bytecode.h"

namespace fxcap {

namespace py = pybind11;

class CompileUnits {
 public:
  struct Entry {
    std::string guards;          // tensors by dtype and shape, numbers by value, modules by identity
    std::string dynamic_guards;  // the same with sizes, numbers and module identities left free
    bool dynamic = false;        // compiled after a guard failure: matches on dynamic_guards
    int break_at = -1;           // instruction (index) of the unit's own frame where it broke; -1: none
  };
  enum class Verdict { Compile, Cached, Skip };
  struct Lookup {
    Verdict verdict = Verdict::Compile;
    Entry* entry = nullptr;
  };

  // Dynamo's cache_size_limit / recompile_limit.
  static constexpr size_t kRecompileLimit = 8;

  // The unit of `code` starting at instruction `start`, entered with `values`
  // (the arguments, or the live locals and stack of a resume point).
  Lookup enter(const DecodedCode& code, int start, const std::vector<py::object>& values);
  // The unit broke inside a loop: Dynamo runs every later call of it eagerly.
  void skip(const DecodedCode& code, int start);

 private:
  struct Unit {
    std::vector<std::unique_ptr<Entry>> entries;
    bool skip = false;
  };
  std::map<std::pair<const DecodedCode*, int>, Unit> units_;
};

// Dynamo's test for a break inside a loop (maybe_has_backedge): a jump back
// to before `index` among the instructions after it, up to the first return.
bool has_backedge(const DecodedCode& code, int index);

}  // namespace fxcap

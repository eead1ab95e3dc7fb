// What a capture learns besides its graphs: graph breaks, guards, side
// effects and specializations, each with the user's stack where it happened.
#pragma once

#include <pybind11/pybind11.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace fxcap {

namespace py = pybind11;

struct StackEntry {
  std::string filename;
  int lineno = 0;
  std::string name;
};

// Why capture cannot continue in one graph; `code` is the static rule it matches.
struct BreakInfo {
  std::string reason;
  std::string code;   // FX101, FX103, ...
  std::string gb_id;  // TorchDynamo graph-break id, empty when none applies
  // False where Dynamo cannot resume after it (loading a recurrent module): the
  // frame runs eagerly from there.
  bool resumable = true;
};

struct BreakRecord {
  BreakInfo info;
  std::vector<StackEntry> stack;  // outermost first, innermost last
  int graph_index = 0;            // the graph that was closed by this break
};

struct SideEffectRecord {
  std::string kind;    // global, nonlocal, attribute, container
  std::string target;  // name or description of what was written
  std::string code;    // FX203, FX204, FX401, FX402, FX403, FX404
  std::string value_type;
  std::vector<StackEntry> stack;
};

struct GuardRecord {
  std::string source;  // L['x'], G['SCALE'], L['self'].training
  std::string kind;    // TENSOR_MATCH, CONSTANT_MATCH, TYPE_MATCH, ID_MATCH, NN_MODULE
  std::string detail;
};

struct SpecializationRecord {
  std::string name;
  std::string value;
  std::string value_type;
  std::vector<StackEntry> stack;
};

class Records {
 public:
  std::vector<BreakRecord> breaks;
  std::vector<SideEffectRecord> side_effects;
  std::vector<GuardRecord> guards;
  std::vector<SpecializationRecord> specializations;

  void add_guard(std::string source, std::string kind, std::string detail);
  // Whether that guard is there already (its detail need not be made again).
  bool has_guard(const std::string& source, const std::string& kind) const {
    return guard_keys_.count({source, kind}) > 0;
  }
  void add_specialization(const std::string& name, py::handle value, std::vector<StackEntry> stack);
  bool has_specialization(const std::string& name) const { return specialized_.count(name) > 0; }
  // Python dicts/lists for the report (source lines are filled in by linecache).
  py::dict to_python() const;

 private:
  std::set<std::pair<std::string, std::string>> guard_keys_;
  std::set<std::string> specialized_;
};

py::list stack_to_python(const std::vector<StackEntry>& stack);

}  // namespace fxcap

// The torch.fx graphs of one capture and the link between real tensors and
// graph nodes. Capture is concolic: every tensor on the interpreter's stack is
// a real tensor, and this map says which node of which graph produced it.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace fxcap {

namespace py = pybind11;

class GraphBuilder {
 public:
  GraphBuilder();
  ~GraphBuilder();
  GraphBuilder(const GraphBuilder&) = delete;
  GraphBuilder& operator=(const GraphBuilder&) = delete;

  bool is_tensor(py::handle value) const;
  // True when value is a tensor or a tuple/list/dict/slice holding one.
  bool contains_tensor(py::handle value) const;

  // Names of parameters, buffers and sub-modules of the captured root module,
  // from its module tree (module_tree.h).
  void set_root(const std::vector<std::pair<py::object, std::string>>& tree);
  // Placeholders of the first graph for the captured function's tensor arguments.
  void add_input(const std::string& name, py::handle tensor);

  // Adds a call node to the current graph (opening one after a break) and
  // registers every tensor in `result` as produced by it.
  // `counts` is false for bookkeeping nodes (grad-mode switches) that do not
  // make a graph worth compiling on their own.
  py::object record(const char* op, py::handle target, py::handle args, py::handle kwargs, py::handle result,
                    bool counts = true);
  // A call_module node for `module`, named by its path under the root.
  py::object record_module(py::handle module, py::handle args, py::handle kwargs, py::handle result);
  // Tensors made outside any graph (by code run eagerly at a break) become
  // inputs of the graph that first uses them.
  void mark_external(py::handle value);
  // Tensors in `value` are read by eager code at a break: their graphs return them.
  void escape(py::handle value);
  // The graph just changed `tensor` in place without returning it (`t[i] = v`):
  // what it returns for it is its value now.
  void changed_in_place(py::handle tensor);

  // Ends the current graph; the next recorded node opens a new one.
  void close_graph();
  // Off while code runs outside any compiled unit: record() then only makes the
  // tensors it reads outputs of their graphs and the tensors it makes external.
  void set_recording(bool on) { recording_ = on; }
  bool recording() const { return recording_; }
  // Drops graphs `first` and later (a unit Dynamo skipped compiles nothing):
  // the tensors they made become external.
  void discard_from(int first);
  int current_graph_index() const { return current_; }
  // Nodes recorded so far into the open graph (0 when none is open): where a
  // frame entered now would begin, should a break later cut the graph there.
  int position() const { return current_ >= 0 ? graphs_[current_].created : 0; }
  // Cuts graph `gi`, the last one, at `cuts` (positions, ascending) into the
  // graphs Dynamo compiles for a break inside inlined calls: the part before
  // the first cut stays, the part after cut i becomes a graph of its own when
  // keep[i + 1], else runs eagerly. False, and nothing changed, when it cannot
  // be cut safely (an input not alive or changed in place since, a random draw).
  bool split(int gi, const std::vector<int>& cuts, const std::vector<bool>& keep);
  int graph_slots() const { return static_cast<int>(graphs_.size()); }

  // Sets every graph's outputs and returns them, with the attribute table
  // their get_attr/call_module nodes refer to. The last graph returns the
  // function's value when its index is at least `returning_from` (the graph
  // of the captured function's own last unit).
  py::dict finish(py::handle return_value, int returning_from);

 private:
  struct Origin {
    enum Kind { Node, Lazy, External } kind = External;
    int graph = -1;
    py::object node;         // Node: the producing node
    py::object parent_node;  // Lazy: a container node, element `key`
    py::object key;
    // A weak reference whose callback forgets this origin when the tensor dies,
    // before its address can be reused (a strong one where the type has none).
    // The capture must not keep the model's intermediate tensors alive: at real
    // input sizes that costs more than the interpretation.
    py::object watch;
    py::object version;       // the tensor's _version when this origin was set
    py::object left_version;  // and when its graph last changed it (`t[i] = v` in the graph)
  };
  struct GraphRec {
    py::object graph;
    std::unordered_map<PyObject*, py::object> placeholders;  // tensor -> placeholder
    std::unordered_map<std::string, py::object> attrs;       // get_attr target -> node
    std::vector<py::object> escaping;                        // tensors used by later graphs
    std::vector<py::object> escape_versions;                 // each one's _version when it escaped
    std::vector<py::object> input_tensors;                   // placeholders' values when the graph took them
    // Each placeholder's node, tensor (kept alive: its address must stay its
    // own) and _version then, in the order of input_tensors.
    std::vector<py::object> placeholder_nodes, placeholder_tensors, placeholder_versions;
    int created = 0;  // non-placeholder nodes created, in order
    py::list attr_versions;                                  // (name, tensor, _version) of get_attr tensors
    py::object state;                                        // grad mode and RNG states when it opened
    py::object first_non_placeholder;
    int call_nodes = 0;
    // Node names, made unique here: torch.fx's own unique-name search is not
    // linear in the number of nodes on every torch version.
    std::unordered_set<std::string> used_names{"output"};
    std::unordered_map<std::string, int> name_counts;
  };

  void set_origin(py::handle tensor, Origin o);
  void forget(PyObject* weakref);
  static PyObject* on_dead(PyObject* capsule, PyObject* weakref);
  GraphRec& current();
  std::string unique_name(GraphRec& g, const std::string& base);
  std::string base_name(const char* op, py::handle target) const;
  py::object create_node(GraphRec& g, const char* op, py::handle target, py::handle args, py::handle kwargs,
                         const std::string& base);
  void add_escaping(int graph, py::handle tensor);
  py::object node_for(py::handle tensor);
  py::object node_in(int graph, py::handle tensor);
  py::object map_arg(py::handle value);
  py::object placeholder(GraphRec& g, const std::string& name, py::handle tensor);
  std::string attr_name_for(py::handle obj, const char* prefix);
  void register_result(int graph, py::handle result, py::handle node);
  // A call_function target torch.fx's generated code can name (fxlint_capture.targets),
  // with the base of its nodes' names.
  struct Callee {
    py::object target, named;
    std::string base;
  };
  const Callee& callee(py::handle target);

  py::object fx_graph_cls_, getitem_, tensor_cls_, module_cls_;
  py::object graph_state_, snapshot_, flatten_, is_plain_;  // fxlint_capture.replay / .outputs
  py::object split_, remove_;                                // fxlint_capture.split
  py::object nameable_fn_;                                   // fxlint_capture.targets
  py::object make_node_;                                     // fxlint_capture.nodes
  std::unordered_map<PyObject*, Callee> callees_;             // by target, which each keeps alive
  const std::unordered_set<std::string>& illegal_names_;     // names generated code cannot bind
  std::vector<GraphRec> graphs_;
  int current_ = -1;
  std::unordered_map<PyObject*, Origin> origins_;
  std::unordered_map<PyObject*, PyObject*> watched_;  // weak reference -> the tensor it watches
  py::object on_dead_;                                 // their shared callback
  std::unordered_map<PyObject*, std::string> root_names_;  // params, buffers, modules
  py::dict attr_table_;
  std::vector<py::object> keep_alive_;
  int constant_counter_ = 0;
  // After finish() nothing is recorded: a generator resumed after the capture runs plainly.
  bool finished_ = false;
  bool recording_ = true;
};

}  // namespace fxcap

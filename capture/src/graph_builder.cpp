#include "graph_builder.h"

#include <Python.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <unordered_set>

#include "interned.h"
#include "tensor_check.h"

namespace fxcap {

namespace {

// A tensor's version counter.
py::object version_of(py::handle tensor) {
  PyObject* v = PyObject_GetAttr(tensor.ptr(), interned("_version").ptr());
  if (!v) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(v);
}

// Names generated code cannot bind (builtins, keywords): the same for every capture.
const std::unordered_set<std::string>& illegal_names() {
  static const auto& names = *[] {
    auto* out = new std::unordered_set<std::string>();
    py::object illegal = py::getattr(py::module_::import("torch.fx.graph"), interned("_illegal_names"), py::none());
    if (illegal.is_none()) {
      illegal = py::module_::import("builtins").attr(interned("__dict__"));
      for (auto kw : py::module_::import("keyword").attr(interned("kwlist"))) out->insert(py::str(kw));
    }
    for (auto name : illegal) out->insert(py::str(name));
    return out;
  }();
  return names;
}

}  // namespace

GraphBuilder::GraphBuilder() : illegal_names_(illegal_names()) {
  fx_graph_cls_ = py::module_::import("torch.fx").attr(interned("Graph"));
  getitem_ = py::module_::import("operator").attr(interned("getitem"));
  py::module_ torch = py::module_::import("torch");
  tensor_cls_ = torch.attr(interned("Tensor"));
  module_cls_ = torch.attr(interned("nn")).attr(interned("Module"));
  py::module_ replay = py::module_::import("fxlint_capture.replay");
  graph_state_ = replay.attr(interned("graph_state"));
  snapshot_ = replay.attr(interned("snapshot"));
  py::module_ outputs = py::module_::import("fxlint_capture.outputs");
  flatten_ = outputs.attr(interned("flatten"));
  is_plain_ = outputs.attr(interned("is_plain"));
  py::module_ split = py::module_::import("fxlint_capture.split");
  split_ = split.attr(interned("split"));
  remove_ = split.attr(interned("remove"));
  nameable_fn_ = py::module_::import("fxlint_capture.targets").attr(interned("nameable"));
  make_node_ = py::module_::import("fxlint_capture.nodes").attr(interned("make_node"));
  // A plain C function: it runs each time a recorded tensor dies, where a
  // pybind11 function's dispatch would cost more than the forgetting.
  static PyMethodDef def = {"forget", &GraphBuilder::on_dead, METH_O, nullptr};
  py::capsule self(this);
  on_dead_ = py::reinterpret_steal<py::object>(PyCFunction_New(&def, self.ptr()));
  if (!on_dead_) throw py::error_already_set();
}

GraphBuilder::~GraphBuilder() {
  // No callback may reach a builder being destroyed: drop the weak references first.
  for (auto& entry : origins_) entry.second.watch = py::object();
}

void GraphBuilder::set_origin(py::handle tensor, Origin o) {
  o.version = version_of(tensor);
  o.left_version = o.version;
  PyObject* ref = PyWeakref_NewRef(tensor.ptr(), on_dead_.ptr());
  if (ref) {
    o.watch = py::reinterpret_steal<py::object>(ref);
    watched_[ref] = tensor.ptr();
  } else {
    PyErr_Clear();
    o.watch = py::reinterpret_borrow<py::object>(tensor);
  }
  origins_[tensor.ptr()] = std::move(o);
}

PyObject* GraphBuilder::on_dead(PyObject* capsule, PyObject* weakref) {
  auto* builder = static_cast<GraphBuilder*>(PyCapsule_GetPointer(capsule, nullptr));
  if (!builder) return nullptr;
  builder->forget(weakref);
  Py_RETURN_NONE;
}

void GraphBuilder::forget(PyObject* weakref) {
  auto w = watched_.find(weakref);
  if (w == watched_.end()) return;
  auto it = origins_.find(w->second);
  watched_.erase(w);
  if (it != origins_.end() && it->second.watch.ptr() == weakref) origins_.erase(it);
}

bool GraphBuilder::is_tensor(py::handle value) const {
  return value && is_tensor_object(value.ptr(), tensor_cls_.ptr());
}

bool GraphBuilder::contains_tensor(py::handle value) const {
  if (!value) return false;
  if (is_tensor(value)) return true;
  if (PyTuple_Check(value.ptr()) || PyList_Check(value.ptr())) {
    for (auto item : value)
      if (contains_tensor(item)) return true;
    return false;
  }
  if (PyDict_Check(value.ptr())) {
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(value.ptr(), &pos, &k, &v))
      if (contains_tensor(v)) return true;
    return false;
  }
  if (PySlice_Check(value.ptr())) {
    return contains_tensor(value.attr(interned("start"))) || contains_tensor(value.attr(interned("stop"))) ||
           contains_tensor(value.attr(interned("step")));
  }
  return false;
}

void GraphBuilder::set_root(const std::vector<std::pair<py::object, std::string>>& tree) {
  // Parameters and buffers are read from their own dicts (named_parameters()
  // would walk the tree again, twice).
  auto remember = [&](py::handle obj, const std::string& name) {
    if (name.empty() || obj.is_none() || root_names_.count(obj.ptr())) return;
    keep_alive_.push_back(py::reinterpret_borrow<py::object>(obj));
    root_names_.emplace(obj.ptr(), name);
  };
  for (const auto& [module, prefix] : tree) {
    remember(module, prefix);
    for (const char* table : {"_parameters", "_buffers"}) {
      PyObject* dict = PyObject_GetAttr(module.ptr(), interned(table).ptr());
      if (!dict) {
        PyErr_Clear();
        continue;
      }
      py::object owned = py::reinterpret_steal<py::object>(dict);
      if (!PyDict_Check(dict)) continue;
      PyObject *k, *v;
      Py_ssize_t pos = 0;
      while (PyDict_Next(dict, &pos, &k, &v)) {
        std::string leaf = py::str(k);
        remember(v, prefix.empty() ? leaf : prefix + "." + leaf);
      }
    }
  }
}

GraphBuilder::GraphRec& GraphBuilder::current() {
  if (current_ < 0) {
    GraphRec rec;
    rec.graph = fx_graph_cls_();
    rec.state = graph_state_();
    graphs_.push_back(std::move(rec));
    current_ = static_cast<int>(graphs_.size()) - 1;
  }
  return graphs_[current_];
}

void GraphBuilder::close_graph() { current_ = -1; }

void GraphBuilder::discard_from(int first) {
  if (first < 0 || first >= static_cast<int>(graphs_.size())) return;
  for (auto& [ptr, o] : origins_) {
    if (o.kind != Origin::External && o.graph >= first) {
      o.kind = Origin::External;
      o.graph = -1;
      o.node = py::object();
      o.parent_node = py::object();
    }
  }
  graphs_.resize(first);
  current_ = -1;
}

static std::string sanitize(std::string name) {
  for (auto& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 128) c = '_';
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) name = "_" + name;
  return name;
}

// torch.fx's spelling of a target as a name: `conv1`, `getitem`, `layer1_0_conv1`, `batch_norm`.
static std::string snake_case(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (std::isupper(c)) {
      if (i > 0 && s[i - 1] != '_' && !std::isupper(static_cast<unsigned char>(s[i - 1]))) out.push_back('_');
      out.push_back(static_cast<char>(std::tolower(c)));
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

std::string GraphBuilder::base_name(const char* op, py::handle target) const {
  std::string name;
  if (PyUnicode_Check(target.ptr())) {
    name = py::str(target);
  } else {
    py::object n = py::getattr(target, interned("__name__"), py::none());
    name = n.is_none() ? std::string(op) : std::string(py::str(n));
  }
  if (name.size() > 4 && name.rfind("__", 0) == 0 && name.compare(name.size() - 2, 2, "__") == 0)
    name = name.substr(2, name.size() - 4);
  return sanitize(snake_case(name));
}

std::string GraphBuilder::unique_name(GraphRec& g, const std::string& base) {
  int& count = g.name_counts[base];
  std::string name = base;
  if (count > 0 || g.used_names.count(name) || illegal_names_.count(name)) {
    do {
      name = base + "_" + std::to_string(++count);
    } while (g.used_names.count(name));
  }
  g.used_names.insert(name);
  return name;
}

py::object GraphBuilder::create_node(GraphRec& g, const char* op, py::handle target, py::handle args,
                                     py::handle kwargs, const std::string& base) {
  g.created++;
  return make_node_(g.graph, op, target, args, kwargs, unique_name(g, base));
}

void GraphBuilder::add_escaping(int gi, py::handle tensor) {
  graphs_[gi].escaping.push_back(py::reinterpret_borrow<py::object>(tensor));
  // The version the graph left it at: eager code may have changed it in place
  // since (a break's own operation runs before it is recorded), and then the
  // replay cannot be compared with it.
  auto it = origins_.find(tensor.ptr());
  bool own = it != origins_.end() && it->second.kind != Origin::External && it->second.graph == gi;
  graphs_[gi].escape_versions.push_back(own ? it->second.left_version : version_of(tensor));
}

void GraphBuilder::changed_in_place(py::handle tensor) {
  if (!recording_ || finished_) return;
  auto it = origins_.find(tensor.ptr());
  if (it != origins_.end() && it->second.kind != Origin::External && it->second.graph == current_)
    it->second.left_version = version_of(tensor);
}

py::object GraphBuilder::placeholder(GraphRec& g, const std::string& name, py::handle tensor) {
  py::object node;
  std::string unique = unique_name(g, sanitize(name));
  py::str target(unique);
  if (g.first_non_placeholder) {
    py::object ctx = g.graph.attr(interned("inserting_before"))(g.first_non_placeholder);
    ctx.attr(interned("__enter__"))();
    node = g.graph.attr(interned("create_node"))("placeholder", target, py::tuple(), py::dict(), target);
    ctx.attr(interned("__exit__"))(py::none(), py::none(), py::none());
  } else {
    node = g.graph.attr(interned("create_node"))("placeholder", target, py::tuple(), py::dict(), target);
  }
  g.placeholders[tensor.ptr()] = node;
  // The value as the graph took it: later in-place changes do not reach the replay.
  g.input_tensors.push_back(snapshot_(tensor));
  g.placeholder_nodes.push_back(node);
  g.placeholder_tensors.push_back(py::reinterpret_borrow<py::object>(tensor));
  g.placeholder_versions.push_back(version_of(tensor));
  return node;
}

void GraphBuilder::add_input(const std::string& name, py::handle tensor) {
  GraphRec& g = current();
  if (g.placeholders.count(tensor.ptr())) return;
  placeholder(g, name, tensor);
  Origin o;
  o.kind = Origin::External;
  set_origin(tensor, std::move(o));
}

std::string GraphBuilder::attr_name_for(py::handle obj, const char* prefix) {
  auto it = root_names_.find(obj.ptr());
  if (it != root_names_.end()) return it->second;
  std::string name = std::string(prefix) + std::to_string(constant_counter_++);
  keep_alive_.push_back(py::reinterpret_borrow<py::object>(obj));
  root_names_.emplace(obj.ptr(), name);
  return name;
}

py::object GraphBuilder::node_in(int gi, py::handle tensor) {
  GraphRec& g = graphs_[gi];
  auto it = origins_.find(tensor.ptr());
  if (it != origins_.end()) {
    Origin& o = it->second;
    if (o.graph == gi && o.kind == Origin::Lazy) {
      o.node = create_node(g, "call_function", getitem_, py::make_tuple(o.parent_node, o.key), py::dict(),
                           "getitem");
      o.kind = Origin::Node;
      g.call_nodes++;
    }
    if (o.graph == gi && o.kind == Origin::Node) return o.node;
  }
  auto ph = g.placeholders.find(tensor.ptr());
  if (ph != g.placeholders.end()) return ph->second;
  if (it == origins_.end()) {
    // Parameters, buffers and tensors that live outside the function: attributes.
    std::string name = attr_name_for(tensor, "_tensor_constant");
    auto cached = g.attrs.find(name);
    if (cached != g.attrs.end()) return cached->second;
    attr_table_[py::str(name)] = tensor;
    py::object node = create_node(g, "get_attr", py::str(name), py::tuple(), py::dict(), sanitize(name));
    if (!g.first_non_placeholder) g.first_non_placeholder = node;
    g.attrs[name] = node;
    g.attr_versions.append(py::make_tuple(py::str(name), tensor, version_of(tensor)));
    return node;
  }
  Origin& o = it->second;
  if (o.kind != Origin::External && o.graph >= 0 && o.graph < gi) {
    node_in(o.graph, tensor);  // makes sure the producing graph has a node for it
    add_escaping(o.graph, tensor);
  }
  return placeholder(g, "input_" + std::to_string(g.placeholders.size()), tensor);
}

py::object GraphBuilder::node_for(py::handle tensor) {
  current();
  return node_in(current_, tensor);
}

py::object GraphBuilder::map_arg(py::handle value) {
  if (!value) return py::none();
  if (!contains_tensor(value)) return py::reinterpret_borrow<py::object>(value);
  if (is_tensor(value)) return node_for(value);
  if (PyTuple_Check(value.ptr())) {
    Py_ssize_t n = PyTuple_GET_SIZE(value.ptr());
    py::tuple items(n);
    for (Py_ssize_t i = 0; i < n; ++i)
      PyTuple_SET_ITEM(items.ptr(), i, map_arg(PyTuple_GET_ITEM(value.ptr(), i)).release().ptr());
    return items;
  }
  if (PyList_Check(value.ptr())) {
    py::list items;
    for (auto item : value) items.append(map_arg(item));
    return items;
  }
  if (PyDict_Check(value.ptr())) {
    py::dict out;
    for (auto kv : py::reinterpret_borrow<py::dict>(value)) out[kv.first] = map_arg(kv.second);
    return out;
  }
  if (PySlice_Check(value.ptr())) {
    return py::reinterpret_steal<py::object>(PySlice_New(map_arg(value.attr(interned("start"))).ptr(),
                                                         map_arg(value.attr(interned("stop"))).ptr(),
                                                         map_arg(value.attr(interned("step"))).ptr()));
  }
  return py::reinterpret_borrow<py::object>(value);
}

void GraphBuilder::register_result(int gi, py::handle result, py::handle node) {
  if (is_tensor(result)) {
    Origin o;
    o.kind = Origin::Node;
    o.graph = gi;
    o.node = py::reinterpret_borrow<py::object>(node);
    set_origin(result, std::move(o));
    return;
  }
  auto lazy_item = [&](py::handle key, py::handle item) {
    if (is_tensor(item)) {
      Origin o;
      o.kind = Origin::Lazy;
      o.graph = gi;
      o.parent_node = py::reinterpret_borrow<py::object>(node);
      o.key = py::reinterpret_borrow<py::object>(key);
      set_origin(item, std::move(o));
    } else if (contains_tensor(item)) {
      py::object sub = create_node(graphs_[gi], "call_function", getitem_, py::make_tuple(node, key), py::dict(),
                                   "getitem");
      graphs_[gi].call_nodes++;
      register_result(gi, item, sub);
    }
  };
  if (PyTuple_Check(result.ptr()) || PyList_Check(result.ptr())) {
    Py_ssize_t i = 0;
    for (auto item : result) lazy_item(py::int_(i++), item);
  } else if (PyDict_Check(result.ptr())) {
    for (auto kv : py::reinterpret_borrow<py::dict>(result)) lazy_item(kv.first, kv.second);
  }
}

py::object GraphBuilder::record(const char* op, py::handle target, py::handle args, py::handle kwargs,
                                py::handle result, bool counts) {
  if (finished_) return py::none();
  if (!recording_) {
    escape(args);
    if (kwargs) escape(kwargs);
    mark_external(result);
    return py::none();
  }
  current();  // opens a graph after a break
  py::object margs = map_arg(args);
  py::object mkwargs = kwargs ? map_arg(kwargs) : py::object(py::dict());
  GraphRec& g = graphs_[current_];
  py::object node;
  if (std::strcmp(op, "call_function") == 0) {
    const Callee& c = callee(target);
    node = create_node(g, op, c.named, margs, mkwargs, c.base);
  } else {
    node = create_node(g, op, target, margs, mkwargs, base_name(op, target));
  }
  if (!g.first_non_placeholder) g.first_non_placeholder = node;
  if (counts) g.call_nodes++;
  register_result(current_, result, node);
  return node;
}

py::object GraphBuilder::record_module(py::handle module, py::handle args, py::handle kwargs, py::handle result) {
  if (!recording_) return record("call_module", py::none(), args, kwargs, result);
  auto known = root_names_.find(module.ptr());
  std::string name;
  if (known != root_names_.end()) {
    name = known->second;
  } else {
    std::string prefix = py::str(py::type::of(module).attr(interned("__name__")));
    std::transform(prefix.begin(), prefix.end(), prefix.begin(), [](unsigned char c) { return std::tolower(c); });
    name = attr_name_for(module, (sanitize(prefix) + "_").c_str());
  }
  attr_table_[py::str(name)] = module;
  return record("call_module", py::str(name), args, kwargs, result);
}

const GraphBuilder::Callee& GraphBuilder::callee(py::handle target) {
  auto it = callees_.find(target.ptr());
  if (it != callees_.end()) return it->second;
  // The entry keeps its target alive: a bound method made per call must not
  // leave its address to a different object.
  Callee c{py::reinterpret_borrow<py::object>(target), nameable_fn_(target), base_name("call_function", target)};
  return callees_.emplace(target.ptr(), std::move(c)).first->second;
}

void GraphBuilder::mark_external(py::handle value) {
  if (!value || finished_) return;
  if (is_tensor(value)) {
    Origin o;
    o.kind = Origin::External;
    set_origin(value, std::move(o));
    return;
  }
  if (PyTuple_Check(value.ptr()) || PyList_Check(value.ptr())) {
    for (auto item : value) mark_external(item);
  } else if (PyDict_Check(value.ptr())) {
    for (auto kv : py::reinterpret_borrow<py::dict>(value)) mark_external(kv.second);
  }
}

void GraphBuilder::escape(py::handle value) {
  if (!value || finished_) return;
  if (is_tensor(value)) {
    auto it = origins_.find(value.ptr());
    if (it == origins_.end() || it->second.kind == Origin::External || it->second.graph < 0) return;
    int gi = it->second.graph;
    node_in(gi, value);
    add_escaping(gi, value);
    return;
  }
  if (PyTuple_Check(value.ptr()) || PyList_Check(value.ptr())) {
    for (auto item : value) escape(item);
  } else if (PyDict_Check(value.ptr())) {
    for (auto kv : py::reinterpret_borrow<py::dict>(value)) escape(kv.second);
  }
}


bool GraphBuilder::split(int gi, const std::vector<int>& cuts, const std::vector<bool>& keep) {
  if (gi < 0 || gi != static_cast<int>(graphs_.size()) - 1 || gi == current_ || cuts.empty() ||
      keep.size() != cuts.size() + 1)
    return false;
  py::list py_cuts, py_keep;
  for (int c : cuts) py_cuts.append(c);
  for (bool k : keep) py_keep.append(k);
  py::object plan;
  try {
    plan = split_(graphs_[gi].graph, py_cuts, py_keep);
  } catch (py::error_already_set&) {
    return false;  // a graph torch.fx cannot copy stays whole
  }
  if (plan.is_none()) return false;

  // The tensor each node of graph gi stands for, where it is alive and unchanged
  // since: the value a new graph's placeholder takes.
  auto same_version = [](py::handle tensor, py::handle version) {
    return PyObject_RichCompareBool(version_of(tensor).ptr(), version.ptr(), Py_EQ) == 1;
  };
  std::unordered_map<PyObject*, py::object> value_of;
  for (auto& [ptr, o] : origins_) {
    if (o.graph != gi || o.kind != Origin::Node) continue;
    py::object t = PyWeakref_CheckRef(o.watch.ptr())
                       ? py::reinterpret_borrow<py::object>(PyWeakref_GetObject(o.watch.ptr()))
                       : o.watch;
    if (!t.is_none() && same_version(t, o.version)) value_of[o.node.ptr()] = t;
  }
  GraphRec& g = graphs_[gi];
  for (size_t k = 0; k < g.placeholder_nodes.size(); ++k)
    if (same_version(g.placeholder_tensors[k], g.placeholder_versions[k]))
      value_of[g.placeholder_nodes[k].ptr()] = g.placeholder_tensors[k];
  py::list parts = plan["graphs"];
  for (auto part : parts) {
    if (part.is_none()) continue;
    py::list inputs = part["inputs"];
    for (auto input : inputs)
      if (!value_of.count(input.ptr())) return false;
  }

  // Where each moved node went: its graph (-1: run eagerly) and new node.
  std::unordered_map<PyObject*, std::pair<int, py::object>> moved;
  py::list moved_nodes = plan["moved"];
  for (auto node : moved_nodes) moved[node.ptr()] = {-1, py::object()};
  std::vector<GraphRec> made;
  int next = gi + 1;
  for (auto part : parts) {
    if (part.is_none()) continue;
    GraphRec r;
    r.graph = part["graph"];
    r.state = g.state;
    r.call_nodes = part["call_nodes"].cast<int>();
    for (auto kv : py::reinterpret_borrow<py::dict>(part["mapping"])) {
      moved[kv.first.ptr()] = {next, py::reinterpret_borrow<py::object>(kv.second)};
    }
    py::list names = part["names"];
    for (auto name : names) r.used_names.insert(py::str(name));
    r.created = part["created"].cast<int>();
    if (!part["first"].is_none()) r.first_non_placeholder = part["first"];
    for (auto kv : py::reinterpret_borrow<py::dict>(part["get_attrs"]))
      r.attrs[py::str(kv.first)] = py::reinterpret_borrow<py::object>(kv.second);
    py::list inputs = part["inputs"];
    py::list new_placeholders = part["placeholders"];
    for (size_t k = 0; k < inputs.size(); ++k) {
      py::object t = value_of[inputs[k].ptr()];
      py::object ph = new_placeholders[k];
      r.placeholders[t.ptr()] = ph;
      r.input_tensors.push_back(snapshot_(t));
      r.placeholder_nodes.push_back(ph);
      r.placeholder_tensors.push_back(t);
      r.placeholder_versions.push_back(version_of(t));
    }
    for (auto entry : g.attr_versions)
      if (r.attrs.count(py::str(py::reinterpret_borrow<py::tuple>(entry)[0]))) r.attr_versions.append(entry);
    made.push_back(std::move(r));
    next++;
  }

  // Commit: the moved nodes leave graph gi, the new graphs follow it.
  py::object first = remove_(g.graph, moved_nodes);
  g.first_non_placeholder = first.is_none() ? py::object() : first;
  g.call_nodes = plan["call_nodes"].cast<int>();
  std::vector<py::object> escaping = std::move(g.escaping), versions = std::move(g.escape_versions);
  g.escaping.clear();
  g.escape_versions.clear();
  for (auto& r : made) graphs_.push_back(std::move(r));
  for (auto& [ptr, o] : origins_) {
    if (o.graph != gi) continue;
    PyObject* node = (o.kind == Origin::Lazy ? o.parent_node : o.node).ptr();
    auto m = moved.find(node);
    if (m == moved.end()) continue;
    if (m->second.first < 0) {
      o.kind = Origin::External;
      o.graph = -1;
      o.node = py::object();
      o.parent_node = py::object();
    } else {
      o.graph = m->second.first;
      (o.kind == Origin::Lazy ? o.parent_node : o.node) = m->second.second;
    }
  }
  // What the new graphs read from earlier ones, those graphs return; so do the
  // values graph gi returned, from the graph that now makes them.
  for (int k = gi + 1; k < static_cast<int>(graphs_.size()); ++k) {
    for (auto& t : graphs_[k].placeholder_tensors) {
      auto it = origins_.find(t.ptr());
      if (it != origins_.end() && it->second.kind != Origin::External && it->second.graph >= 0 &&
          it->second.graph < k) {
        node_in(it->second.graph, t);
        add_escaping(it->second.graph, t);
      }
    }
  }
  for (size_t k = 0; k < escaping.size(); ++k) {
    auto it = origins_.find(escaping[k].ptr());
    int to = (it != origins_.end() && it->second.kind != Origin::External) ? it->second.graph : -1;
    if (to < 0) continue;
    graphs_[to].escaping.push_back(escaping[k]);
    graphs_[to].escape_versions.push_back(versions[k]);
  }
  current_ = -1;
  return true;
}

py::dict GraphBuilder::finish(py::handle return_value, int returning_from) {
  // A value torch.fx cannot write as generated code (a NamedTuple, a dataclass, an
  // OrderedDict, any object) is returned as the flat tuple of its tensors; the
  // report rebuilds it from output_spec.
  py::tuple flat = flatten_(return_value);
  bool plain = is_plain_(return_value).cast<bool>();
  py::object graph_value = plain ? py::reinterpret_borrow<py::object>(return_value) : py::tuple(flat[0]);
  int last = static_cast<int>(graphs_.size()) - 1;
  std::vector<bool> returns_value(graphs_.size(), false);
  if (last >= 0 && last >= returning_from && graphs_[last].call_nodes > 0) {
    current_ = last;
    py::object out = map_arg(graph_value);
    graphs_[last].graph.attr(interned("output"))(out);
    returns_value[last] = true;
  } else {
    for (auto t : py::reinterpret_borrow<py::list>(flat[0])) {
      auto it = origins_.find(t.ptr());
      if (it != origins_.end() && it->second.kind != Origin::External && it->second.graph >= 0) {
        node_in(it->second.graph, t);
        add_escaping(it->second.graph, t);
      }
    }
  }
  std::vector<py::list> expected(graphs_.size());
  for (int gi = returns_value.empty() ? -1 : (returns_value[last] ? last - 1 : last); gi >= 0; --gi) {
    GraphRec& g = graphs_[gi];
    py::list outs;
    std::unordered_set<PyObject*> seen;
    for (size_t k = 0; k < g.escaping.size(); ++k) {
      py::object t = g.escaping[k];
      if (!seen.insert(t.ptr()).second) continue;
      outs.append(node_in(gi, t));
      expected[gi].append(py::make_tuple(t, g.escape_versions[k]));
    }
    graphs_[gi].graph.attr(interned("output"))(py::tuple(outs));
  }
  current_ = -1;
  finished_ = true;
  py::list graphs;
  for (size_t gi = 0; gi < graphs_.size(); ++gi) {
    py::dict d;
    d["graph"] = graphs_[gi].graph;
    d["call_nodes"] = graphs_[gi].call_nodes;
    py::list inputs;
    for (auto& t : graphs_[gi].input_tensors) inputs.append(t);
    d["inputs"] = inputs;
    d["returns_value"] = static_cast<bool>(returns_value[gi]);
    d["expected"] = expected[gi];
    d["attr_versions"] = graphs_[gi].attr_versions;
    d["state"] = graphs_[gi].state;
    graphs.append(d);
  }
  py::dict out;
  out["graphs"] = graphs;
  out["attrs"] = attr_table_;
  out["output_spec"] = plain ? py::object(py::none()) : py::object(flat[1]);
  return out;
}

}  // namespace fxcap

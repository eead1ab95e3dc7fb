#pragma once
// What one compiled function's code means at the point a walk has reached:
// which names are bound to what, what each expression holds (tensor, bool
// tensor, data drawn from a tensor, ...), what a dotted name resolves to, and
// what each call passes to project functions. The function walker drives it in
// evaluation order; rules and fix builders query it at each event.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyzer/argument_types.h"
#include "analyzer/call_parts.h"
#include "analyzer/environment.h"
#include "analyzer/file_model.h"
#include "analyzer/project_model.h"
#include "analyzer/syntax_tree.h"
#include "analyzer/tracer.h"
#include "analyzer/value.h"
#include "analyzer/value_cache.h"

namespace fxlint {

enum class NameScope { Local, Enclosing, Global, Builtin };

class SemanticModel {
 public:
  // `known`: argument types from callers, for unannotated parameters (may be null).
  // `record`: where calls to project functions are recorded (may be null).
  // `target`: what the walk knows of the compiler its findings are for (nothing in the
  // walks that record argument types).
  SemanticModel(const ProjectModel& project, int file, int function, const ArgumentTypes* known = nullptr,
                ArgumentTypes* record = nullptr, TraceTarget target = {});
  SemanticModel(const SemanticModel&) = delete;
  SemanticModel& operator=(const SemanticModel&) = delete;

  // --- queries -----------------------------------------------------------------
  std::string_view source() const { return src_; }
  const FileModel& file() const { return file_; }
  const FunctionInfo& function() const { return fn_; }
  // Whether the walk so far took a NumPy array TorchDynamo traces for a tensor
  // (TraceTarget::numpy_as_tensors): what it says of such a value holds under Dynamo only.
  bool made_traced_arrays() const { return made_arrays_; }
  // The project function a call names (`helper(...)`, `module.helper(...)`, `self.method(...)`); null if none.
  const FunctionInfo* called_project_function(Node call) const;

  // What the expression holds here. A walked expression answers what it held
  // when the walk passed it; any other is inferred from its parts in the
  // current environment, without events, and remembered while that
  // environment lasts.
  Value value_of(Node expr) const;
  // `x.repeat_interleave(r, output_size=n)` with an `n` that cannot be None: the
  // length is given up front, so the shape does not depend on the repeats.
  bool output_size_given(Node call) const;
  // Callee, receiver, method and positional arguments of a call (cached).
  const CallParts& call_parts(Node call) const;
  // Meaning of a dotted expression: "torch.where" for `T.where`; "builtins.print"
  // for an unbound builtin name; "" when it is a local or unknown.
  std::string resolve(Node expr) const;
  NameScope scope_of(std::string_view name) const;
  bool declared_global(std::string_view name) const;
  bool declared_nonlocal(std::string_view name) const;
  bool is_mutable_global(std::string_view name) const;
  // Whether a dotted module name is one of the files being checked.
  bool is_project_module(std::string_view qualified) const;
  // `mod.NAME` where mod is a project module whose NAME is rebound or mutated.
  bool is_mutable_module_attribute(Node attribute) const;
  const GlobalFacts* global_facts(std::string_view name) const;
  // `self` of the enclosing method, "" in plain functions.
  std::string_view self_name() const { return self_; }
  // What `self.<attr>` holds in the enclosing class.
  Value self_attribute(std::string_view attr) const;
  // The classes `self.<attr>` may be constructed from here, qualified
  // (ProjectModel::attribute_constructors); empty outside methods.
  std::vector<std::string> self_attribute_constructors(std::string_view attr) const;
  // Whether `self.<attr>` holds a text tokenizer (ProjectModel::attribute_is_tokenizer).
  bool self_attribute_is_tokenizer(std::string_view attr) const {
    return cls_ >= 0 && project_.attribute_is_tokenizer({file_index_, cls_}, attr);
  }
  // Whether a module expression (`self`, `self.head`, a local built here) is known to
  // hold parameters (ProjectModel::holds_parameters).
  bool holds_parameters(Node module) const;
  // `self.<attr>` is a buffer the class (or a project base) registers.
  bool self_buffer(std::string_view attr) const {
    return cls_ >= 0 && project_.is_registered_buffer({file_index_, cls_}, attr);
  }
  // `self.<attr>` is a scratch attribute: the class's `forward` takes and clears it.
  bool self_taken(std::string_view attr) const {
    return cls_ >= 0 && project_.is_taken_attribute({file_index_, cls_}, attr);
  }
  // What an enclosing function's first binding of `name` holds.
  Value enclosing_value(std::string_view name) const;
  // A closure variable bound by an enclosing function that is compiled code
  // too: it lives in the call the trace holds whole, so changing it is no
  // state outside the trace.
  bool closure_in_traced_call(std::string_view name) const;
  // The function is handed to a compiler itself, not only called from compiled code.
  bool is_compile_entry() const;
  // Appends the project functions whose returns this model read from `known` (once per call).
  void add_consulted(std::vector<std::pair<int, int>>& out) const;
  // Walk as a call that passes nothing data-dependent runs: the parameters drop what
  // callers made data-dependent (what such a call gets back: ArgumentTypes::Returned::plain).
  // Before the walk.
  void assume_plain_arguments() { plain_arguments_ = true; }
  // Whether a caller made a parameter data-dependent (the walk has bound them).
  bool dependent_parameters() const { return dependent_parameters_; }
  // A method of a class that derives (through project classes) from torch.nn.Module.
  bool in_module_class() const;
  // A method of a class that derives (through project classes) from torch.autograd.Function.
  bool in_autograd_function() const {
    return fn_.cls >= 0 && project_.is_autograd_function({file_index_, fn_.cls});
  }
  // Inside the test of an if/elif/while/ternary/assert.
  bool in_condition() const { return condition_depth_ > 0; }
  // Bound earlier in this function by a plain assignment (not a parameter).
  bool assigned_locally(std::string_view name) const { return assigned_.count(name) > 0; }
  // A local (parameter or earlier assignment) that holds a value here on some path.
  bool is_bound(std::string_view name) const { return local(name) != nullptr; }
  // The one expression a local name is ever assigned in this function (nested
  // functions aside); a null node when it is bound any other way or more than once.
  Node sole_binding(std::string_view name) const;
  // How many times this function binds `name` (parameters included; a binding that
  // is not a plain assignment counts twice); 0 for a name it never binds.
  int binding_count(std::string_view name) const;
  // The operator tokens of a comparison (`<`, `in`, `is not`, `not in`), read
  // from the tree: an operand's text (a string "value in range") never counts.
  std::vector<std::string_view> comparison_operators(Node comparison) const;
  // Whether a condition is true whenever a tracer runs it: escape-hatch
  // predicates (`torch.compiler.is_compiling()`, project functions that return
  // one) and `not`/`and`/`or` of them. With `from_values`, also `x is None` and
  // `x is not None` where x is known to hold None or a tensor here.
  std::optional<bool> truth_when_traced(Node condition, bool from_values = false) const;
  // The operator token of a binary or boolean operator ("" when absent).
  std::string_view operator_of(Node expr) const;

  // --- what the walk tells the model ------------------------------------------
  // The environment is saved and restored around branches; a restored
  // environment keeps the inferences made under it.
  struct Snapshot {
    Env env;
    uint64_t state = 0;
  };
  Snapshot save() const { return {env_, state_}; }
  void restore(Snapshot s);
  // The environment after two paths merge.
  void merge(const Snapshot& other);

  void bind_parameters();
  // At the `def` of a nested function: records what its free names hold here,
  // which its own walk reads (a closure of `forward` sees its tensors).
  void record_closures(Node def) const;
  // The value of `expr` from the values of its parts (walked, else inferred).
  Value type_of(Node expr) const;
  // The walk passed `expr`, which held `value`.
  void remember(Node expr, const Value& value);
  // `name = value` by an assignment; `value_node`, when given, may hold a
  // project module whose class the name keeps.
  void assign(std::string_view name, const Value& value, Node value_node = {});
  // A name bound by a loop, `with ... as`, a definition or a lambda parameter.
  void bind(Node target, const Value& value) { bind_names(target, value); }
  // Binds a loop target from what iterating `iterable` yields.
  void bind_iteration(Node target, Node iterable) { bind_loop_target(target, iterable); }
  // Narrows the environment by knowing `condition` is true (or false).
  void narrow(Node condition, bool truth) { narrow_names(condition, truth); }
  // After `condition` ran: the data-dependent names whose truth it surely tested are decided.
  void decide_truth(Node condition);
  // What a store target (`self.x`, `z[m]`) holds before the store.
  Value target_value(Node target) const;
  void enter_condition() { ++condition_depth_; }
  void leave_condition() { --condition_depth_; }

  // What target `index` of `count` gets when `value_node`, which holds `v`, is unpacked.
  Value unpacked_element(Node value_node, const Value& v, size_t index, size_t count) const;
  // The walk reached `return value` (`value` null for a bare `return`).
  void note_return(Node value);
  // What the function's `return` statements gave, once the walk is over; a
  // generator or coroutine records nothing.
  void finish_returns(bool generator);

  // `a + b` and friends on values (bitwise: `& | ^`; comparison: `< == ...`).
  static Value combine(const Value& a, const Value& b, bool bitwise, bool comparison);

 private:
  class Scope;  // saves the environment, restores it on exit
  // `name is None` / `name is not None`.
  struct NoneCheck {
    std::string_view name;
    bool is_not = false;
  };
  std::optional<NoneCheck> none_check(Node condition) const;
  // `name OP literal` (either way round): the name, and a hash of the
  // comparison's text (0 when it is not one).
  std::pair<std::string_view, uint32_t> literal_comparison(Node comparison) const;
  const Value* local(std::string_view name) const { return env_.find(names_.find(name)); }
  // The environment changes below are const so that inference can make them
  // inside a Scope; the walker makes them through the public mutators.
  void set_local(std::string_view name, const Value& v, ClassRef module_class = {}) const;
  void bind_names(Node target, const Value& v) const;
  void bind_loop_target(Node target, Node iterable) const;
  void bind_element(Node target, Node iterable) const;
  void narrow_names(Node condition, bool truth) const;
  Value infer(Node expr) const;
  std::string resolve_uncached(Node expr) const;
  Value lookup(Node identifier) const;
  Value attribute_value(Node attribute) const;
  Value subscript_value(Node subscript) const;
  Value call_value(Node call) const;
  Value method_call_value(Node call, Node callee) const;
  std::optional<Value> attribute_method_value(Node call, Node object, std::string_view method) const;
  Value builtin_call_value(std::string_view builtin, const std::vector<Node>& positional) const;
  Value tensor_method_value(std::string_view method, const Value& receiver, const std::vector<Node>& positional,
                            const std::vector<Node>& arguments) const;
  Value function_call_value(Node call, Node callee, const std::vector<Node>& positional,
                            const std::vector<Node>& arguments) const;
  Value with_dtype_keyword(Value v, const std::vector<Node>& args) const;
  std::optional<Value> traced_numpy_call_value(std::string_view qualified, const std::vector<Node>& arguments) const;
  bool data_dependent_result(std::string_view qualified, const std::vector<Node>& positional,
                             const std::vector<Node>& arguments) const;
  bool output_size_given(const std::vector<Node>& arguments) const;
  // The project class of `self.a.b` (each step a sub-module of a project class); invalid when unknown.
  ClassRef attribute_chain_class(Node expr, int depth) const;
  Value comparison_value(Node comparison) const;
  Value boolean_value(Node boolean) const;
  Value comprehension_value(Node comprehension) const;
  Value dicts_value(Node display) const;
  // `instance`: called through an instance (`block(x)`), which binds `self`.
  // `bound`: parameters the call fills before its arguments (`ctx` of Fn.apply).
  void record_call(Node call, FunctionRef callee, bool instance = false, size_t bound = 0) const;
  // A call of a project module held in a local: its forward receives the arguments.
  // Gives what the forward returns when known, else a tensor.
  Value record_module_call(Node call, Node module) const;
  std::optional<Value> instance_method_value(Node call, Node object, std::string_view method) const;
  ClassRef instance_class(Node object) const;
  ClassRef receiver_class(std::string_view name) const;
  ClassRef module_class_of(Node expr) const;
  Value parameter_value(Node parameter, size_t index, bool is_forward) const;
  // What a call of project function `f` gives: what its returns gave when
  // walked, else `otherwise`.
  // `instance` and `bound` as for record_call.
  Value project_result(Node call, FunctionRef f, Value otherwise, bool instance = false, size_t bound = 0) const;
  // What project function `f` returns to `call`: the plain returns when the call passes
  // nothing data-dependent.
  std::optional<ArgumentTypes::Returned> returned_to(Node call, FunctionRef f) const;
  // The parameter of this function (its position) whose shape `value` keeps; -1 when none.
  int shape_parameter(Node value, int depth = 0) const;
  // The argument `call` passes to parameter `index` of `f`; null when not known.
  Node argument_for(Node call, FunctionRef f, int index, bool instance = false, size_t bound = 0) const;
  // How many of `target`'s first parameters `call` binds before its arguments.
  size_t bound_parameters(Node call, const FunctionInfo& target, bool instance, size_t bound) const;
  // The argument `call` binds to each parameter of `target` (null where none is known),
  // its first `skip` parameters bound already.
  std::vector<Node> bind_arguments(Node call, const FunctionInfo& target, std::string_view target_src,
                                   size_t skip) const;

  const ProjectModel& project_;
  int file_index_;
  int function_index_;
  const FileModel& file_;
  const FunctionInfo& fn_;
  std::string_view src_;
  int cls_ = -1;
  std::string_view self_;
  const ArgumentTypes* known_ = nullptr;
  ArgumentTypes* record_ = nullptr;
  TraceTarget target_;
  mutable bool made_arrays_ = false;

  // Queries are logically const: an inference binds names only inside a
  // Scope, which puts the environment back before it returns.
  mutable NameSlots names_;
  mutable Env env_;
  // Numbers each environment: a change gets a fresh number, a restore takes
  // back the saved one, so an inference stays valid exactly while its
  // environment does.
  mutable uint64_t state_ = 0;
  mutable uint64_t next_state_ = 0;
  mutable int quiet_ = 0;  // > 0 while inferring what the walk has not reached
  std::unordered_set<std::string_view> assigned_;
  ValueCache walked_;
  struct Inferred {
    uint64_t state = 0;
    Value value;
  };
  mutable NodeTableMap<Inferred> inferred_;
  mutable std::unordered_map<const void*, std::string> resolved_;
  mutable std::unordered_map<const void*, CallParts> calls_;
  // The project function each call reached, for unpacking what it returns.
  mutable std::unordered_map<const void*, FunctionRef> callees_;
  std::optional<ArgumentTypes::Returned> returns_;  // joined over the walk's `return`s
  bool plain_arguments_ = false;
  bool dependent_parameters_ = false;
  struct Bindings {
    int count = 0;
    Node value;
  };
  // Filled on the first sole_binding query, by one pass over the function.
  mutable std::optional<std::unordered_map<std::string_view, Bindings>> bindings_;
  int condition_depth_ = 0;
};

}  // namespace fxlint

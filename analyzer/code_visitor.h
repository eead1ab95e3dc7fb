#pragma once
// Events the function walker emits while it walks compiled code, and the
// queries a listener may make at each event (the facts hold at that program
// point). Rules implement CodeVisitor; the walker knows nothing of rules.
#include <string>
#include <string_view>

#include "analyzer/call_parts.h"
#include "analyzer/file_model.h"
#include "analyzer/syntax_tree.h"
#include "analyzer/value.h"

namespace fxlint {

enum class ConditionKind { If, While, Ternary, BoolOperand, NotOperand, ComprehensionFilter, Assert };

enum class NameScope { Local, Enclosing, Global, Builtin };

class WalkContext {
 public:
  virtual ~WalkContext() = default;
  virtual std::string_view source() const = 0;
  virtual const FileModel& file() const = 0;
  virtual const FunctionInfo& function() const = 0;

  // What the expression holds here. Cheap for nodes already walked.
  virtual Value value_of(Node expr) const = 0;
  // Callee, receiver, method and positional arguments of a call (cached).
  virtual const CallParts& call_parts(Node call) const = 0;
  // Meaning of a dotted expression: "torch.where" for `T.where`; "builtins.print"
  // for an unbound builtin name; "" when it is a local or unknown.
  virtual std::string resolve(Node expr) const = 0;
  virtual NameScope scope_of(std::string_view name) const = 0;
  virtual bool declared_global(std::string_view name) const = 0;
  virtual bool declared_nonlocal(std::string_view name) const = 0;
  virtual bool is_mutable_global(std::string_view name) const = 0;
  // Whether a dotted module name is one of the files being checked.
  virtual bool is_project_module(std::string_view qualified) const = 0;
  // `mod.NAME` where mod is a project module whose NAME is rebound or mutated.
  virtual bool is_mutable_module_attribute(Node attribute) const = 0;
  virtual const GlobalFacts* global_facts(std::string_view name) const = 0;
  // `self` of the enclosing method, "" in plain functions.
  virtual std::string_view self_name() const = 0;
  // What `self.<attr>` holds in the enclosing class.
  virtual Value self_attribute(std::string_view attr) const = 0;
  // What an enclosing function's first binding of `name` holds.
  virtual Value enclosing_value(std::string_view name) const = 0;
  // The function is handed to a compiler itself, not only called from compiled code.
  virtual bool is_compile_entry() const = 0;
  // A method of a class that derives (through project classes) from torch.nn.Module.
  virtual bool in_module_class() const = 0;
  // Inside the test of an if/elif/while/ternary/assert.
  virtual bool in_condition() const = 0;
  // Bound earlier in this function by a plain assignment (not a parameter).
  virtual bool assigned_locally(std::string_view name) const = 0;
  // A local (parameter or earlier assignment) that holds a value here on some path.
  virtual bool is_bound(std::string_view name) const = 0;
};

class CodeVisitor {
 public:
  virtual ~CodeVisitor() = default;
  virtual void on_call(Node /*call*/, const WalkContext&) {}
  virtual void on_subscript_load(Node /*subscript*/, const WalkContext&) {}
  // `target = value` for one target; value is null when unpacked from a tuple.
  virtual void on_store(Node /*target*/, Node /*value*/, Node /*statement*/, const WalkContext&) {}
  virtual void on_augmented(Node /*statement*/, const WalkContext&) {}
  virtual void on_condition(Node /*test*/, ConditionKind, Node /*owner*/, const WalkContext&) {}
  virtual void on_name_load(Node /*identifier*/, const WalkContext&) {}
  virtual void on_for(Node /*for_statement*/, const WalkContext&) {}
  virtual void on_statement(Node /*statement*/, const WalkContext&) {}
  virtual void on_yield(Node /*yield*/, const WalkContext&) {}
};

}  // namespace fxlint

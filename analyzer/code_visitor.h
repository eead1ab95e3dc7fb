#pragma once
// Events the function walker emits while it walks compiled code. At each
// event a listener may query the semantic model: its facts hold at that
// program point. Rules implement CodeVisitor; the walker knows nothing of rules.
#include "analyzer/semantic_model.h"

namespace fxlint {

enum class ConditionKind { If, While, Ternary, BoolOperand, NotOperand, ComprehensionFilter, Assert };

class CodeVisitor {
 public:
  virtual ~CodeVisitor() = default;
  virtual void on_call(Node /*call*/, const SemanticModel&) {}
  virtual void on_subscript_load(Node /*subscript*/, const SemanticModel&) {}
  // `obj.name` read as a value (not a store target), after `obj` was walked.
  virtual void on_attribute_load(Node /*attribute*/, const SemanticModel&) {}
  // `target = value` for one target; value is null when unpacked from a tuple.
  virtual void on_store(Node /*target*/, Node /*value*/, Node /*statement*/, const SemanticModel&) {}
  virtual void on_augmented(Node /*statement*/, const SemanticModel&) {}
  virtual void on_condition(Node /*test*/, ConditionKind, Node /*owner*/, const SemanticModel&) {}
  virtual void on_name_load(Node /*identifier*/, const SemanticModel&) {}
  // A for statement, or a comprehension's `for` clause: both have `left` and `right`.
  virtual void on_for(Node /*for_statement*/, const SemanticModel&) {}
  virtual void on_statement(Node /*statement*/, const SemanticModel&) {}
  virtual void on_yield(Node /*yield*/, const SemanticModel&) {}
};

}  // namespace fxlint

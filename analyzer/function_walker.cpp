#include "analyzer/function_walker.h"

#include "analyzer/semantic_model.h"
#include "analyzer/torch_api.h"

namespace fxlint {

namespace {

bool is_terminator(Node stmt) {
  switch (stmt.kind()) {
    case NodeKind::ReturnStatement:
    case NodeKind::RaiseStatement:
      return true;
    case NodeKind::Other: {
      std::string_view t = stmt.type();
      return t == "continue_statement" || t == "break_statement";
    }
    default:
      return false;
  }
}

// Names and literals are answered from the environment directly: not worth a cache entry.
bool is_cheap(Node e) {
  switch (e.kind()) {
    case NodeKind::Identifier: case NodeKind::Integer: case NodeKind::Float: case NodeKind::True:
    case NodeKind::False: case NodeKind::None: case NodeKind::String:
      return true;
    default:
      return false;
  }
}

// `a and b` / `not a` report their operands themselves.
bool reports_own_operands(Node e) {
  Node c = e.unparenthesized();
  return c.is(NodeKind::BooleanOperator) || c.is(NodeKind::NotOperator);
}

bool is_sequence_target(Node t) {
  return t.is(NodeKind::PatternList) || t.is(NodeKind::TuplePattern) || t.is(NodeKind::ListPattern) ||
         t.is(NodeKind::ExpressionList) || t.is(NodeKind::Tuple) || t.is(NodeKind::List);
}

class Walker {
 public:
  Walker(SemanticModel& model, CodeVisitor& visitor) : model_(model), visitor_(visitor), src_(model.source()) {}

  void run() {
    const FunctionInfo& fn = model_.function();
    model_.bind_parameters();
    if (fn.node.is(NodeKind::Lambda)) {
      eval(fn.node.field("body"));
      return;
    }
    if (Node body = fn.node.field("body")) walk_block(body);
    model_.finish_returns(generator_ || fn.node.text(src_).starts_with("async"));
  }

 private:
  // --- statements -------------------------------------------------------------
  // Statements after one that no traced path continues past (`if
  // is_compiling(): return x`, `return`) are never traced.
  // Returns false when no traced path reaches the block's end.
  bool walk_block(Node block) {
    bool reachable = true;
    for_each_child(block, [&](Node s) {
      if (reachable && s.is_named() && !s.is(NodeKind::Comment)) reachable = walk_statement(s);
    });
    return reachable;
  }

  // Returns false when a tracer never runs the statement after this one.
  bool walk_statement(Node s) {
    visitor_.on_statement(s, model_);
    if (is_terminator(s)) {
      for (Node c : NamedChildren(s)) eval(c);
      if (s.is(NodeKind::ReturnStatement)) model_.note_return(s.named_child_count() ? s.named_child(0) : Node());
      return false;
    }
    switch (s.kind()) {
      case NodeKind::ExpressionStatement:
        for (Node c : NamedChildren(s)) {
          if (c.is(NodeKind::Assignment)) walk_assignment(c, s);
          else if (c.is(NodeKind::AugmentedAssignment)) walk_augmented(c);
          else if (c.is(NodeKind::Call)) walk_call_statement(c);
          else eval(c);
        }
        break;
      case NodeKind::IfStatement:
        return walk_if(s);
      case NodeKind::WhileStatement: {
        eval_condition(s.field("condition"), ConditionKind::While, s);
        SemanticModel::Snapshot before = model_.save();
        if (Node body = s.field("body")) walk_block(body);
        model_.merge(before);
        walk_else_clauses(s);
        break;
      }
      case NodeKind::ForStatement:
        walk_for(s);
        break;
      case NodeKind::WithStatement:
        walk_with(s);
        break;
      case NodeKind::TryStatement:
        walk_try(s);
        break;
      case NodeKind::DeleteStatement:
      case NodeKind::PrintStatement:
      case NodeKind::ExecStatement:
        for (Node c : NamedChildren(s)) eval(c);
        break;
      case NodeKind::AssertStatement: {
        std::vector<Node> parts = s.children();
        // The message runs only when the assertion fails, as it raises: nothing to trace.
        if (parts.empty()) break;
        eval_condition(parts[0], ConditionKind::Assert, s);
        // What follows runs only where it held (`assert edge_type is not None`).
        model_.narrow(parts[0], true);
        break;
      }
      case NodeKind::FunctionDefinition:
      case NodeKind::ClassDefinition:
        if (s.is(NodeKind::FunctionDefinition)) model_.record_closures(s);
        if (Node name = s.field("name")) model_.bind(name, Value::unknown());
        break;
      case NodeKind::DecoratedDefinition:
        if (Node def = s.field("definition")) {
          if (def.is(NodeKind::FunctionDefinition)) model_.record_closures(def);
          if (Node name = def.field("name")) model_.bind(name, Value::unknown());
        }
        break;
      case NodeKind::MatchStatement:
        walk_match(s);
        break;
      default:
        break;
    }
    return true;
  }

  void walk_else_clauses(Node s) {
    for (Node alt : NamedChildren(s)) {
      if (alt.is(NodeKind::ElseClause)) walk_clause_body(alt);
    }
  }

  void walk_clause_body(Node clause) {
    for (Node c : NamedChildren(clause)) {
      if (c.is(NodeKind::Block)) walk_block(c);
    }
  }

  // `boxes.append(b)` on a local list: the list now holds `b` too.
  void walk_call_statement(Node call) {
    eval(call);
    Node callee = call.field("function").unparenthesized();
    if (!callee.is(NodeKind::Attribute) || callee.field("attribute").text(src_) != "append") return;
    Node list = callee.field("object").unparenthesized();
    Node args = call.field("arguments");
    if (!list.is(NodeKind::Identifier) || !args || args.named_child_count() != 1) return;
    if (!model_.is_bound(list.text(src_))) return;
    Value held = model_.value_of(list);
    if (held.kind != ValueKind::EmptyList && held.kind != ValueKind::TensorSequence &&
        held.kind != ValueKind::TensorDictList) {
      return;
    }
    model_.bind(list, appended(held, model_.value_of(args.named_child(0))));
  }

  void walk_with(Node s) {
    for (Node c : NamedChildren(s)) {
      if (!c.is(NodeKind::WithClause)) continue;
      for (Node item : NamedChildren(c)) {
        Node value = item.field("value");
        if (!value) continue;
        if (!value.is(NodeKind::AsPattern)) {
          eval(value);
          continue;
        }
        std::vector<Node> parts = value.children();
        Value v = parts.empty() ? Value::unknown() : eval(parts[0]);
        if (Node alias = value.field("alias")) model_.bind(alias.named_child_count() ? alias.named_child(0) : alias, v);
      }
    }
    if (Node body = s.field("body")) walk_block(body);
  }

  void walk_try(Node s) {
    SemanticModel::Snapshot before = model_.save();
    if (Node body = s.field("body")) walk_block(body);
    SemanticModel::Snapshot after_body = model_.save();
    for (Node c : NamedChildren(s)) {
      if (c.is(NodeKind::ExceptClause) || c.is(NodeKind::ExceptGroupClause)) {
        // A handler starts from any point of the body: before it or after it.
        model_.restore(after_body);
        model_.merge(before);
        for (Node part : NamedChildren(c)) {
          if (part.is(NodeKind::Block)) walk_block(part);
          else if (!part.is(NodeKind::AsPattern)) eval(part);
        }
        model_.merge(after_body);
        after_body = model_.save();
      } else if (c.is(NodeKind::ElseClause) || c.is(NodeKind::FinallyClause)) {
        model_.restore(after_body);
        walk_clause_body(c);
        after_body = model_.save();
      }
    }
    model_.restore(std::move(after_body));
  }

  void walk_match(Node s) {
    SemanticModel::Snapshot before = model_.save();
    SemanticModel::Snapshot out = before;
    for (Node c : NamedChildren(s)) {
      if (!c.is(NodeKind::Block)) {
        eval(c);
        continue;
      }
      for (Node cs : NamedChildren(c)) {
        model_.restore(before);
        if (Node body = cs.field("consequence")) walk_block(body);
        model_.merge(out);
        out = model_.save();
      }
    }
    model_.restore(std::move(out));
  }

  // Which arm of an `if` a tracer never runs.
  enum class Skip { None, Body, Else };
  Skip hatch_of(Node cond) const {
    std::optional<bool> t = model_.truth_when_traced(cond);
    if (!t) return Skip::None;
    return *t ? Skip::Else : Skip::Body;
  }

  // Returns false when no path a tracer takes continues after the `if`.
  bool walk_if(Node s) {
    Node cond = s.field("condition");
    Skip skip = hatch_of(cond);
    if (skip == Skip::None) eval_condition(cond, ConditionKind::If, s);
    SemanticModel::Snapshot before = model_.save();
    std::vector<SemanticModel::Snapshot> outs;
    if (skip != Skip::Body) {
      model_.narrow(cond, true);
      // An arm that returns in every branch of its own (`if a: return x` / `else: return y`)
      // adds nothing to what follows.
      Node body = s.field("consequence");
      if (!body || walk_block(body)) outs.push_back(model_.save());
    }
    model_.restore(before);
    if (skip != Skip::Else) {
      model_.narrow(cond, false);
      bool has_else = false;
      for (Node alt : NamedChildren(s)) {
        if (alt.is(NodeKind::ElifClause)) {
          Node c2 = alt.field("condition");
          eval_condition(c2, ConditionKind::If, alt);
          SemanticModel::Snapshot pre = model_.save();
          model_.narrow(c2, true);
          if (Node body = alt.field("consequence"); body && walk_block(body)) outs.push_back(model_.save());
          model_.restore(std::move(pre));
          model_.narrow(c2, false);
        } else if (alt.is(NodeKind::ElseClause)) {
          has_else = true;
          if (Node body = alt.field("body"); body && walk_block(body)) outs.push_back(model_.save());
        }
      }
      if (!has_else) outs.push_back(model_.save());
    }
    if (outs.empty()) {
      model_.restore(std::move(before));
      return false;
    }
    model_.restore(std::move(outs[0]));
    for (size_t i = 1; i < outs.size(); ++i) model_.merge(outs[i]);
    return true;
  }

  void walk_for(Node s) {
    Node right = s.field("right");
    if (right) eval(right);
    visitor_.on_for(s, model_);
    SemanticModel::Snapshot before = model_.save();
    model_.bind_iteration(s.field("left"), right);
    if (Node body = s.field("body")) walk_block(body);
    model_.merge(before);
    walk_else_clauses(s);
  }

  void walk_assignment(Node a, Node statement) {
    Node left = a.field("left");
    Node right = a.field("right");
    Value v = Value::unknown();
    if (right) {
      if (right.is(NodeKind::Assignment)) {  // a = b = value
        walk_assignment(right, statement);
        v = model_.value_of(right.field("right"));
      } else {
        v = eval(right);
      }
    }
    if (!left) return;
    eval_target_parts(left);
    store(left, right && !right.is(NodeKind::Assignment) ? right : Node(), v, statement);
  }

  // Emits on_store for each target and binds names.
  void store(Node target, Node value_node, const Value& v, Node statement) {
    Node t = target.unparenthesized();
    if (is_sequence_target(t)) {
      std::vector<Node> parts = t.children();
      std::vector<Node> values;
      Node vn = value_node ? value_node.unparenthesized() : Node();
      if (vn && (vn.is(NodeKind::ExpressionList) || vn.is(NodeKind::Tuple) || vn.is(NodeKind::List))) {
        values = vn.children();
      }
      for (size_t i = 0; i < parts.size(); ++i) {
        if (values.size() == parts.size()) store(parts[i], values[i], model_.value_of(values[i]), statement);
        else store(parts[i], Node(), model_.unpacked_element(value_node, v, i, parts.size()), statement);
      }
      return;
    }
    visitor_.on_store(t, value_node, statement, model_);
    if (t.is(NodeKind::Identifier)) {
      model_.assign(t.text(src_), v, value_node);
    } else if (t.is(NodeKind::Subscript)) {
      // `r["masks"] = m` on a local dict of tensors: it holds m too.
      Node dict = t.field("value").unparenthesized();
      if (dict.is(NodeKind::Identifier) && model_.is_bound(dict.text(src_))) {
        Value held = model_.value_of(dict);
        if (held.kind == ValueKind::TensorDict) model_.bind(dict, with_entry(held, v));
      }
    } else if (t.is(NodeKind::ListSplatPattern) || t.is(NodeKind::ListSplat)) {
      std::vector<Node> inner = t.children();
      if (!inner.empty() && inner[0].is(NodeKind::Identifier)) model_.bind(inner[0], Value::unknown());
    }
  }

  // Loads inside a store target: `z[m] = v` reads z and m; `self.x = v` reads self.
  void eval_target_parts(Node target) {
    Node t = target.unparenthesized();
    if (t.is(NodeKind::Subscript)) {
      Node value = t.field("value");
      eval(value);
      for (Node c : NamedChildren(t)) {
        if (!(c == value)) eval(c);
      }
    } else if (t.is(NodeKind::Attribute)) {
      eval(t.field("object"));
    } else if (is_sequence_target(t)) {
      for (Node c : NamedChildren(t)) eval_target_parts(c);
    }
  }

  void walk_augmented(Node a) {
    Node left = a.field("left");
    Node right = a.field("right");
    Value rv = right ? eval(right) : Value::unknown();
    Value lv = Value::unknown();
    if (left) {
      eval_target_parts(left);
      lv = model_.target_value(left);
    }
    visitor_.on_augmented(a, model_);
    if (left && left.unparenthesized().is(NodeKind::Identifier)) {
      model_.bind(left, SemanticModel::combine(lv, rv, false, false));
    }
  }

  // --- expressions --------------------------------------------------------------
  void eval_condition(Node cond, ConditionKind kind, Node owner) {
    if (!cond) return;
    model_.enter_condition();
    eval(cond, /*test=*/true);
    model_.leave_condition();
    if (!reports_own_operands(cond)) visitor_.on_condition(cond, kind, owner, model_);
    // A statement's test always runs when the statement does; a filter runs per element.
    if (kind != ConditionKind::ComprehensionFilter) model_.decide_truth(cond);
  }

  // Walks an expression's parts in evaluation order, emitting events, then
  // asks the model what it holds. `test`: it is the test of a condition.
  Value eval(Node e, bool test = false) {
    if (!e || !e.is_named()) return Value::unknown();
    walk_parts(e, test);
    Value v = model_.type_of(e);
    if (!is_cheap(e)) model_.remember(e, v);
    return v;
  }

  void eval_children(Node e) {
    for (Node c : NamedChildren(e)) eval(c);
  }

  void walk_parts(Node e, bool test) {
    switch (e.kind()) {
      case NodeKind::Identifier:
        visitor_.on_name_load(e, model_);
        return;
      case NodeKind::None:
        return;
      case NodeKind::ParenthesizedExpression:
        for (Node c : NamedChildren(e)) eval(c, test);
        return;
      case NodeKind::Attribute:
        eval(e.field("object"));
        visitor_.on_attribute_load(e, model_);
        return;
      case NodeKind::Subscript: {
        Node value = e.field("value");
        eval(value);
        for (Node c : NamedChildren(e)) {
          if (!(c == value)) eval(c);
        }
        visitor_.on_subscript_load(e, model_);
        return;
      }
      case NodeKind::Call:
        walk_call(e);
        return;
      case NodeKind::BinaryOperator:
        eval(e.field("left"));
        eval(e.field("right"));
        return;
      case NodeKind::ComparisonOperator:
        for (Node p : e.children()) eval(p);
        return;
      case NodeKind::BooleanOperator: {
        Node left = e.field("left");
        Node right = e.field("right");
        eval(left, test);
        report_operand(left, e);
        // The right operand runs only when the left is true (and) / false (or).
        bool is_or = model_.operator_of(e) == "or";
        if (model_.truth_when_traced(left, true) == is_or) return;  // never runs under a tracer
        SemanticModel::Snapshot saved = model_.save();
        model_.narrow(left, !is_or);
        eval(right, test);
        if (test) report_operand(right, e);
        model_.restore(std::move(saved));
        return;
      }
      case NodeKind::NotOperator: {
        Node arg = e.field("argument");
        eval(arg, true);
        if (!reports_own_operands(arg)) visitor_.on_condition(arg, ConditionKind::NotOperand, e, model_);
        return;
      }
      case NodeKind::UnaryOperator:
        eval(e.field("argument"));
        return;
      case NodeKind::ConditionalExpression: {
        std::vector<Node> parts = e.children();
        if (parts.size() != 3) {
          for (Node p : parts) eval(p);
          return;
        }
        model_.enter_condition();
        eval(parts[1], true);
        model_.leave_condition();
        if (!reports_own_operands(parts[1])) visitor_.on_condition(parts[1], ConditionKind::Ternary, e, model_);
        // Each arm with what its condition tells (`a if isinstance(x, list) else int(x[0])`).
        SemanticModel::Snapshot before = model_.save();
        model_.narrow(parts[1], true);
        eval(parts[0]);
        model_.restore(before);
        model_.narrow(parts[1], false);
        eval(parts[2]);
        model_.restore(std::move(before));
        return;
      }
      case NodeKind::Dictionary:
        for (Node c : NamedChildren(e)) eval_children(c);
        return;
      case NodeKind::ListComprehension:
      case NodeKind::SetComprehension:
      case NodeKind::DictionaryComprehension:
      case NodeKind::GeneratorExpression:
        walk_comprehension(e);
        return;
      case NodeKind::Lambda: {
        SemanticModel::Snapshot saved = model_.save();
        if (Node params = e.field("parameters")) {
          for (Node p : NamedChildren(params)) {
            Node n = p.is(NodeKind::Identifier) ? p : p.field("name");
            if (n && n.is(NodeKind::Identifier)) model_.bind(n, Value::unknown());
          }
        }
        eval(e.field("body"));
        model_.restore(std::move(saved));
        return;
      }
      case NodeKind::NamedExpression: {
        Value v = eval(e.field("value"));
        if (Node n = e.field("name")) model_.assign(n.text(src_), v);
        return;
      }
      case NodeKind::Yield:
        generator_ = true;
        eval_children(e);
        visitor_.on_yield(e, model_);
        return;
      case NodeKind::KeywordArgument:
        eval(e.field("value"));
        return;
      default:  // literals (f-string interpolations), tuples, lists, slices, splats, await, ...
        eval_children(e);
        return;
    }
  }

  void walk_call(Node e) {
    Node callee = e.field("function");
    Node cu = callee.unparenthesized();
    if (cu.is(NodeKind::Attribute)) {
      // `x.method(...)`: the receiver is a load; the bound method is not.
      eval(cu.field("object"));
      model_.remember(cu, model_.type_of(cu));
    } else {
      eval(callee);
    }
    if (Node args = e.field("arguments")) {
      for (Node c : NamedChildren(args)) {
        if (c.is(NodeKind::KeywordArgument)) eval(c.field("value"));
        else if (c.is(NodeKind::ListSplat) || c.is(NodeKind::DictionarySplat)) eval_children(c);
        else if (!c.is(NodeKind::ForInClause) && !c.is(NodeKind::IfClause)) eval(c);
      }
      if (args.is(NodeKind::GeneratorExpression)) walk_comprehension(args);
    }
    visitor_.on_call(e, model_);
  }

  void report_operand(Node operand, Node owner) {
    if (!reports_own_operands(operand)) visitor_.on_condition(operand, ConditionKind::BoolOperand, owner, model_);
  }

  void walk_comprehension(Node e) {
    SemanticModel::Snapshot saved = model_.save();
    for (Node c : NamedChildren(e)) {
      if (c.is(NodeKind::ForInClause)) {
        Node right = c.field("right");
        if (right) eval(right);
        visitor_.on_for(c, model_);
        model_.bind_iteration(c.field("left"), right);
      } else if (c.is(NodeKind::IfClause)) {
        std::vector<Node> cond = c.children();
        if (cond.empty()) continue;
        model_.enter_condition();
        eval(cond[0], true);
        model_.leave_condition();
        if (!reports_own_operands(cond[0])) visitor_.on_condition(cond[0], ConditionKind::ComprehensionFilter, c, model_);
      }
    }
    if (Node body = e.field("body")) {
      if (body.is(NodeKind::Other) && std::string_view(body.type()) == "pair") eval_children(body);
      else eval(body);
    }
    model_.restore(std::move(saved));
  }

  SemanticModel& model_;
  CodeVisitor& visitor_;
  std::string_view src_;
  bool generator_ = false;  // a `yield` was walked: calls give a generator, not what `return` gives
};

}  // namespace

void walk_function(const ProjectModel& project, int file, int function, CodeVisitor& visitor,
                   const ArgumentTypes* known, ArgumentTypes* record, std::vector<std::pair<int, int>>* consulted,
                   TraceTarget target) {
  SemanticModel model(project, file, function, known, record, target);
  Walker(model, visitor).run();
  if (consulted) model.add_consulted(*consulted);
  if (!record || !model.dependent_parameters()) return;
  // A caller passes data-dependent values: what a call passing none gets back is walked
  // apart, so that one caller's masked rows do not reach every caller's result.
  ArgumentTypes scratch;
  SemanticModel plain(project, file, function, known, &scratch, target);
  plain.assume_plain_arguments();
  class Silent final : public CodeVisitor {} silent;
  Walker(plain, silent).run();
  if (consulted) plain.add_consulted(*consulted);
  record->record_plain_walk(file, function, scratch);
}

}  // namespace fxlint

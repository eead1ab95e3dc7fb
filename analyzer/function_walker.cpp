#include "analyzer/function_walker.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "analyzer/torch_api.h"

namespace fxlint {

namespace {

// Local names of one walk, numbered in order of first binding. Environments
// are copied and joined at every branch, so they are flat vectors indexed by
// these numbers rather than maps keyed by strings. The views point into the
// walked file's source.
class NameSlots {
 public:
  static constexpr size_t kNone = static_cast<size_t>(-1);
  size_t intern(std::string_view name) { return ids_.try_emplace(name, ids_.size()).first->second; }
  size_t find(std::string_view name) const {
    auto it = ids_.find(name);
    return it == ids_.end() ? kNone : it->second;
  }

 private:
  std::unordered_map<std::string_view, size_t> ids_;
};

// What each local name holds at one program point; unbound names have no value.
class Env {
 public:
  const Value* find(size_t slot) const {
    return slot < slots_.size() && slots_[slot].bound ? &slots_[slot].value : nullptr;
  }
  Value* find(size_t slot) { return slot < slots_.size() && slots_[slot].bound ? &slots_[slot].value : nullptr; }
  void set(size_t slot, const Value& v) {
    if (slot >= slots_.size()) slots_.resize(slot + 1);
    slots_[slot] = {v, true};
  }

  // Names bound on both paths join; a name bound on one path only is unknown.
  friend Env join_envs(const Env& a, const Env& b) {
    Env out;
    out.slots_.resize(std::max(a.slots_.size(), b.slots_.size()));
    for (size_t i = 0; i < out.slots_.size(); ++i) {
      const Value* x = a.find(i);
      const Value* y = b.find(i);
      if (x && y) out.slots_[i] = {join(*x, *y), true};
      else if (x || y) out.slots_[i] = {Value::unknown(), true};
    }
    return out;
  }

 private:
  struct Slot {
    Value value;
    bool bound = false;
  };
  std::vector<Slot> slots_;
};

// Most scopes declare no `global`/`nonlocal`: skip hashing the name for those.
bool contains(const StringSet& set, std::string_view name) { return !set.empty() && set.count(name) > 0; }

bool is_terminator(Node stmt) {
  switch (stmt.kind()) {
    case NodeKind::ReturnStatement:
    case NodeKind::RaiseStatement:
    case NodeKind::Other:
      break;
    default:
      return false;
  }
  if (stmt.is(NodeKind::ReturnStatement) || stmt.is(NodeKind::RaiseStatement)) return true;
  std::string_view t = stmt.type();
  return t == "continue_statement" || t == "break_statement";
}

bool block_terminates(Node block) {
  Node last;
  for (Node s : NamedChildren(block)) last = s;
  return last && is_terminator(last);
}

// Value of each expression walked so far, by tree-sitter node id. Every
// expression the walk visits is stored, so this is an open-addressing table
// rather than a node-based map.
class ValueCache {
 public:
  const Value* find(const void* id) const {
    if (slots_.empty()) return nullptr;
    for (size_t i = index(id);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i].id == id) return &slots_[i].value;
      if (!slots_[i].id) return nullptr;
    }
  }
  void set(const void* id, const Value& v) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    size_t i = index(id);
    while (slots_[i].id && slots_[i].id != id) i = (i + 1) & (slots_.size() - 1);
    if (!slots_[i].id) ++size_;
    slots_[i] = {id, v};
  }

 private:
  struct Slot {
    const void* id = nullptr;
    Value value;
  };
  size_t index(const void* id) const {
    auto h = reinterpret_cast<uintptr_t>(id) * 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(h >> 32) & (slots_.size() - 1);
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
    size_ = 0;
    for (const Slot& s : old) {
      if (s.id) set(s.id, s.value);
    }
  }
  std::vector<Slot> slots_;  // size is a power of two
  size_t size_ = 0;
};

Value element_of(const Value& v) {
  switch (v.kind) {
    case ValueKind::Tensor:
    case ValueKind::TensorSequence:
      return Value::tensor(v.dtype);
    case ValueKind::Module:
      return Value::of(ValueKind::Module);  // iterating a ModuleList/Sequential
    case ValueKind::Static:
      return Value::of(ValueKind::Static);
    case ValueKind::TensorData:
      return Value::of(ValueKind::TensorData);
    default:
      return Value::unknown();
  }
}

TensorDtype dtype_from_expr(std::string_view qualified) {
  if (qualified == "torch.bool") return TensorDtype::Bool;
  if (qualified == "torch.long" || qualified == "torch.int64" || qualified == "torch.int" ||
      qualified == "torch.int32" || qualified == "torch.int16" || qualified == "torch.int8" ||
      qualified == "torch.uint8") {
    return TensorDtype::Integer;
  }
  if (qualified == "torch.float" || qualified == "torch.float32" || qualified == "torch.float16" ||
      qualified == "torch.half" || qualified == "torch.bfloat16" || qualified == "torch.double" ||
      qualified == "torch.float64") {
    return TensorDtype::Floating;
  }
  return TensorDtype::Unknown;
}

class Walker final : public WalkContext {
 public:
  Walker(const ProjectModel& project, int file, int function, CodeVisitor& visitor)
      : project_(project),
        file_index_(file),
        function_index_(function),
        file_(project.file(file)),
        fn_(file_.functions[static_cast<size_t>(function)]),
        visitor_(visitor),
        src_(file_.source) {
    cls_ = project.method_class(file, function);
  }

  void set_argument_types(const ArgumentTypes* known, ArgumentTypes* record) {
    known_ = known;
    record_ = record;
  }

  void run() {
    bind_parameters();
    if (fn_.node.is(NodeKind::Lambda)) {
      eval(fn_.node.field("body"));
      return;
    }
    if (Node body = fn_.node.field("body")) walk_block(body);
  }

  // --- WalkContext ---------------------------------------------------------
  std::string_view source() const override { return src_; }
  const FileModel& file() const override { return file_; }
  const FunctionInfo& function() const override { return fn_; }
  bool is_compile_entry() const override { return project_.is_compile_entry(file_index_, function_index_); }
  bool in_module_class() const override { return fn_.cls >= 0 && project_.is_module_class({file_index_, fn_.cls}); }

  // Names and literals are answered from the environment directly: not worth a cache entry.
  static bool is_cheap(Node e) {
    switch (e.kind()) {
      case NodeKind::Identifier: case NodeKind::Integer: case NodeKind::Float: case NodeKind::True:
      case NodeKind::False: case NodeKind::None: case NodeKind::String:
        return true;
      default:
        return false;
    }
  }

  Value value_of(Node expr) const override {
    switch (expr.kind()) {
      case NodeKind::Identifier: return lookup(expr);
      case NodeKind::None: return Value::of(ValueKind::None);
      case NodeKind::Integer: case NodeKind::Float: case NodeKind::True: case NodeKind::False:
      case NodeKind::String:
        return Value::of(ValueKind::Static);
      default:
        break;
    }
    if (const Value* cached = cache_.find(expr.id())) return *cached;
    return const_cast<Walker*>(this)->infer_quiet(expr);
  }

  const CallParts& call_parts(Node call) const override {
    auto it = calls_.find(call.id());
    if (it == calls_.end()) it = calls_.emplace(call.id(), split_call(call, src_)).first;
    return it->second;
  }

  // Checks ask the meaning of the same callee many times: remember it per node.
  std::string resolve(Node expr) const override {
    auto it = resolved_.find(expr.id());
    if (it != resolved_.end()) return it->second;
    std::string r = resolve_uncached(expr);
    resolved_.emplace(expr.id(), r);
    return r;
  }

  std::string resolve_uncached(Node expr) const {
    std::string dotted = dotted_text(expr, src_);
    if (dotted.empty()) return {};
    std::string_view head = std::string_view(dotted).substr(0, dotted.find('.'));
    NameScope scope = scope_of(head);
    if (scope == NameScope::Builtin) return "builtins." + dotted;
    if (scope == NameScope::Local && !file_.imports.find(head)) return {};
    if (scope == NameScope::Global) {
      const GlobalFacts* g = global_facts(head);
      if (g && !g->origin.empty() && dotted.size() > head.size()) {
        // logger.info where logger = logging.getLogger(...)
        return g->origin + "()" + dotted.substr(head.size());
      }
    }
    return file_.imports.qualify(dotted);
  }

  NameScope scope_of(std::string_view name) const override {
    if (contains(fn_.globals, name)) return NameScope::Global;
    if (contains(fn_.nonlocals, name)) return NameScope::Enclosing;
    if (fn_.locals.count(name) || local(name)) return NameScope::Local;
    for (int p = fn_.parent; p >= 0; p = file_.functions[static_cast<size_t>(p)].parent) {
      if (file_.functions[static_cast<size_t>(p)].locals.count(name)) return NameScope::Enclosing;
    }
    if (file_.globals.count(name) || file_.imports.find(name)) return NameScope::Global;
    return NameScope::Builtin;
  }

  bool declared_global(std::string_view name) const override { return contains(fn_.globals, name); }
  bool declared_nonlocal(std::string_view name) const override { return contains(fn_.nonlocals, name); }
  bool is_mutable_global(std::string_view name) const override {
    return project_.is_mutable_global(file_index_, name);
  }
  bool is_project_module(std::string_view qualified) const override { return project_.has_module(qualified); }
  bool is_mutable_module_attribute(Node attribute) const override {
    Node object = attribute.field("object").unparenthesized();
    if (!object.is(NodeKind::Identifier) || !file_.imports.find(object.text(src_))) return false;
    if (scope_of(object.text(src_)) != NameScope::Global) return false;
    std::string q = file_.imports.qualify(attribute, src_);
    return !q.empty() && project_.is_mutable_module_global(q);
  }
  const GlobalFacts* global_facts(std::string_view name) const override {
    auto it = file_.globals.find(name);
    return it == file_.globals.end() ? nullptr : &it->second;
  }
  std::string_view self_name() const override { return self_; }
  Value self_attribute(std::string_view attr) const override {
    if (cls_ < 0) return Value::unknown();
    Value v = project_.self_attribute({file_index_, cls_}, attr);
    if (v.kind == ValueKind::Module || v.kind == ValueKind::Unknown) {
      ClassRef sub = project_.self_attribute_class({file_index_, cls_}, attr);
      if (sub.valid()) return project_.is_module_class(sub) ? Value::of(ValueKind::Module) : Value::unknown();
    }
    return v;
  }
  bool in_condition() const override { return condition_depth_ > 0; }
  Value enclosing_value(std::string_view name) const override {
    for (int p = fn_.parent; p >= 0; p = file_.functions[static_cast<size_t>(p)].parent) {
      const FunctionInfo& f = file_.functions[static_cast<size_t>(p)];
      auto it = f.first_values.find(name);
      if (it != f.first_values.end()) return it->second;
      if (f.locals.count(name)) return Value::unknown();
    }
    return Value::unknown();
  }
  bool assigned_locally(std::string_view name) const override { return assigned_.count(name) > 0; }
  bool is_bound(std::string_view name) const override { return local(name) != nullptr; }

 private:
  const Value* local(std::string_view name) const { return env_.find(names_->find(name)); }
  void set_local(std::string_view name, const Value& v) { env_.set(names_->intern(name), v); }

  // The operator tokens of a comparison (`<`, `in`, `is not`, `not in`), read
  // from the tree: the operands' text (a string "value in range") never counts.
  std::vector<std::string_view> comparison_operators(Node cmp) const {
    std::vector<std::string_view> out;
    for_each_child(cmp, [&](Node c) {
      if (!c.is_named()) out.push_back(c.text(src_));
    });
    return out;
  }

  // --- parameters ------------------------------------------------------------
  void bind_parameters() {
    Node params = fn_.node.field("parameters");
    if (!params) return;
    bool is_method = fn_.binds_self();
    bool is_forward = is_method && fn_.name == "forward" && project_.is_module_class({file_index_, fn_.cls});
    bool first = true;
    size_t index = 0;
    for (Node p : NamedChildren(params)) {
      size_t param_index = index++;
      Node name = p;
      Node type, def;
      if (p.is(NodeKind::DefaultParameter)) {
        name = p.field("name");
        def = p.field("value");
      } else if (p.is(NodeKind::TypedDefaultParameter)) {
        name = p.field("name");
        type = p.field("type");
        def = p.field("value");
      } else if (p.is(NodeKind::TypedParameter)) {
        name = p.named_child_count() ? p.named_child(0) : Node();
        type = p.field("type");
      }
      if (!name || !name.is(NodeKind::Identifier)) {
        first = false;
        continue;
      }
      std::string_view n = name.text(src_);
      if (first && is_method) {
        self_ = n;
        first = false;
        set_local(n, Value::unknown());
        continue;
      }
      first = false;
      Value v = Value::unknown();
      // The annotation, else what a `# type:` comment says of this parameter.
      AnnotationKind kind = AnnotationKind::Other;
      if (type) kind = classify_annotation(type, src_, file_.imports);
      else if (param_index < fn_.comment_parameters.size()) kind = fn_.comment_parameters[param_index];
      if (type || kind != AnnotationKind::Other) {
        switch (kind) {
          case AnnotationKind::Tensor: v = Value::tensor(); break;
          case AnnotationKind::OptionalTensor: v = Value::of(ValueKind::OptionalTensor); break;
          case AnnotationKind::TensorSequence: v = Value::of(ValueKind::TensorSequence); break;
          case AnnotationKind::NonTensor: v = Value::of(ValueKind::Static); break;
          default: break;
        }
        if (v.kind == ValueKind::Tensor && def && def.unparenthesized().is(NodeKind::None)) {
          v = Value::of(ValueKind::OptionalTensor);
        }
      } else if (def) {
        Node d = def.unparenthesized();
        if (d.is(NodeKind::None)) {
          v = is_forward ? Value::of(ValueKind::OptionalTensor) : Value::of(ValueKind::None);
        } else if (d.is(NodeKind::Integer) || d.is(NodeKind::Float) || d.is(NodeKind::True) ||
                   d.is(NodeKind::False) || d.is(NodeKind::String) || d.is(NodeKind::Tuple) ||
                   d.is(NodeKind::UnaryOperator)) {
          v = Value::of(ValueKind::Static);
        }
      } else if (is_forward) {
        // A module's input is a tensor, unless every compiled caller that
        // calls this sub-module passes a trace-time value (a flag, a size).
        v = Value::tensor();
        if (known_ && known_->called(file_index_, fn_index())) {
          Value passed = known_->parameter(file_index_, fn_index(), param_index);
          if (passed.kind == ValueKind::Static || passed.kind == ValueKind::None) v = passed;
        }
      } else if (known_) {
        // Unannotated, no default: what every compiled caller passes.
        Value passed = known_->parameter(file_index_, fn_index(), param_index);
        if (passed.is_tensor() || passed.kind == ValueKind::TensorSequence ||
            passed.kind == ValueKind::OptionalTensor || passed.kind == ValueKind::Module) {
          v = passed;
        }
      }
      set_local(n, v);
    }
  }

  // --- statements -------------------------------------------------------------
  void walk_block(Node block) {
    for_each_child(block, [&](Node s) {
      if (s.is_named() && !s.is(NodeKind::Comment)) walk_statement(s);
    });
  }

  void walk_statement(Node s) {
    visitor_.on_statement(s, *this);
    switch (s.kind()) {
      case NodeKind::ExpressionStatement:
        for (Node c : NamedChildren(s)) {
          if (c.is(NodeKind::Assignment)) {
            walk_assignment(c, s);
          } else if (c.is(NodeKind::AugmentedAssignment)) {
            walk_augmented(c);
          } else {
            eval(c);
          }
        }
        break;
      case NodeKind::IfStatement:
        walk_if(s);
        break;
      case NodeKind::WhileStatement: {
        Node cond = s.field("condition");
        eval_condition(cond, ConditionKind::While, s);
        Env before = env_;
        if (Node body = s.field("body")) walk_block(body);
        env_ = join_envs(before, env_);
        for (Node alt : NamedChildren(s)) {
          if (alt.is(NodeKind::ElseClause)) walk_clause_body(alt);
        }
        break;
      }
      case NodeKind::ForStatement:
        walk_for(s);
        break;
      case NodeKind::WithStatement:
        for (Node c : NamedChildren(s)) {
          if (!c.is(NodeKind::WithClause)) continue;
          for (Node item : NamedChildren(c)) {
            Node value = item.field("value");
            if (!value) continue;
            if (value.is(NodeKind::AsPattern)) {
              std::vector<Node> parts = value.children();
              Value v = parts.empty() ? Value::unknown() : eval(parts[0]);
              if (Node alias = value.field("alias")) {
                Node target = alias.named_child_count() ? alias.named_child(0) : alias;
                bind(target, v);
              }
            } else {
              eval(value);
            }
          }
        }
        if (Node body = s.field("body")) walk_block(body);
        break;
      case NodeKind::TryStatement: {
        Env before = env_;
        if (Node body = s.field("body")) walk_block(body);
        Env after_body = env_;
        for (Node c : NamedChildren(s)) {
          if (c.is(NodeKind::ExceptClause) || c.is(NodeKind::ExceptGroupClause)) {
            env_ = join_envs(before, after_body);
            for (Node part : NamedChildren(c)) {
              if (part.is(NodeKind::Block)) walk_block(part);
              else if (!part.is(NodeKind::AsPattern)) eval(part);
            }
            after_body = join_envs(after_body, env_);
          } else if (c.is(NodeKind::ElseClause) || c.is(NodeKind::FinallyClause)) {
            env_ = after_body;
            walk_clause_body(c);
            after_body = env_;
          }
        }
        env_ = after_body;
        break;
      }
      case NodeKind::ReturnStatement:
      case NodeKind::RaiseStatement:
      case NodeKind::DeleteStatement:
        for (Node c : NamedChildren(s)) eval(c);
        break;
      case NodeKind::AssertStatement: {
        std::vector<Node> parts = s.children();
        if (!parts.empty()) eval_condition(parts[0], ConditionKind::Assert, s);
        for (size_t i = 1; i < parts.size(); ++i) eval(parts[i]);
        break;
      }
      case NodeKind::PrintStatement:
      case NodeKind::ExecStatement:
        for (Node c : NamedChildren(s)) eval(c);
        break;
      case NodeKind::FunctionDefinition:
      case NodeKind::ClassDefinition:
        if (Node name = s.field("name")) set_local(name.text(src_), Value::unknown());
        break;
      case NodeKind::DecoratedDefinition:
        if (Node def = s.field("definition")) {
          if (Node name = def.field("name")) set_local(name.text(src_), Value::unknown());
        }
        break;
      case NodeKind::MatchStatement: {
        Env before = env_;
        Env out = env_;
        for (Node c : NamedChildren(s)) {
          if (c.is(NodeKind::Block)) {
            for (Node cs : NamedChildren(c)) {
              env_ = before;
              if (Node body = cs.field("consequence")) walk_block(body);
              out = join_envs(out, env_);
            }
          } else {
            eval(c);
          }
        }
        env_ = out;
        break;
      }
      default:
        break;
    }
  }

  void walk_clause_body(Node clause) {
    for (Node c : NamedChildren(clause)) {
      if (c.is(NodeKind::Block)) walk_block(c);
    }
  }

  // Which arm of an `if` a tracer never runs.
  enum class Skip { None, Body, Else };
  Skip hatch_of(Node cond) {
    bool negated = false;
    Node c = cond.unparenthesized();
    if (c.is(NodeKind::NotOperator)) {
      negated = true;
      c = c.field("argument").unparenthesized();
    }
    if (!c.is(NodeKind::Call)) return Skip::None;
    switch (torch_api::hatch_predicate(resolve(c.field("function")))) {
      case torch_api::HatchPredicate::IsCompiling:
      case torch_api::HatchPredicate::IsInOnnxExport:
        return negated ? Skip::Body : Skip::Else;
      case torch_api::HatchPredicate::IsScriptingOrTracing:
        return negated ? Skip::Else : Skip::Body;
      default:
        return Skip::None;
    }
  }

  // env narrowed by knowing `cond` is true (or false).
  void narrow(Node cond, bool truth) {
    cond = cond.unparenthesized();
    if (cond.is(NodeKind::NotOperator)) {
      narrow(cond.field("argument"), !truth);
      return;
    }
    if (cond.is(NodeKind::BooleanOperator)) {
      Node op = cond.field("operator");
      std::string_view o = op ? op.text(src_) : "";
      if ((o == "and" && truth) || (o == "or" && !truth)) {
        narrow(cond.field("left"), truth);
        narrow(cond.field("right"), truth);
      }
      return;
    }
    if (cond.is(NodeKind::ComparisonOperator)) {
      std::vector<Node> parts = cond.children();
      if (parts.size() != 2 || !parts[1].is(NodeKind::None) || !parts[0].is(NodeKind::Identifier)) return;
      bool is_not = false, is = false;
      for (std::string_view op : comparison_operators(cond)) {
        is_not = is_not || (op.starts_with("is") && op.ends_with("not"));
        is = is || op == "is";
      }
      if (!is && !is_not) return;
      bool not_none = is_not == truth;
      Value* v = env_.find(names_->find(parts[0].text(src_)));
      if (!v) return;
      if (not_none && v->kind == ValueKind::OptionalTensor) *v = Value::tensor();
      if (!not_none) *v = Value::of(ValueKind::None);
      return;
    }
    if (cond.is(NodeKind::Call) && truth && resolve(cond.field("function")) == "builtins.isinstance") {
      Node args = cond.field("arguments");
      std::vector<Node> a = args ? args.children() : std::vector<Node>{};
      if (a.size() == 2 && a[0].is(NodeKind::Identifier) && resolve(a[1]) == "torch.Tensor") {
        set_local(a[0].text(src_), Value::tensor());
      }
    }
  }

  void walk_if(Node s) {
    Node cond = s.field("condition");
    Skip skip = hatch_of(cond);
    if (skip == Skip::None) eval_condition(cond, ConditionKind::If, s);
    Env before = env_;
    std::vector<Env> outs;
    bool body_terminates = false;
    if (skip != Skip::Body) {
      narrow(cond, true);
      if (Node body = s.field("consequence")) {
        walk_block(body);
        body_terminates = block_terminates(body);
      }
      if (!body_terminates) outs.push_back(env_);
    }
    env_ = before;
    if (skip != Skip::Else) {
      narrow(cond, false);
      bool has_else = false;
      for (Node alt : NamedChildren(s)) {
        if (alt.is(NodeKind::ElifClause)) {
          Node c2 = alt.field("condition");
          eval_condition(c2, ConditionKind::If, alt);
          Env pre = env_;
          narrow(c2, true);
          if (Node body = alt.field("consequence")) {
            walk_block(body);
            if (!block_terminates(body)) outs.push_back(env_);
          }
          env_ = pre;
          narrow(c2, false);
        } else if (alt.is(NodeKind::ElseClause)) {
          has_else = true;
          Node body = alt.field("body");
          if (body) {
            walk_block(body);
            if (!block_terminates(body)) outs.push_back(env_);
          }
        }
      }
      if (!has_else) outs.push_back(env_);
    }
    if (outs.empty()) {
      env_ = before;
      return;
    }
    Env merged = outs[0];
    for (size_t i = 1; i < outs.size(); ++i) merged = join_envs(merged, outs[i]);
    env_ = std::move(merged);
  }

  void walk_for(Node s) {
    Node left = s.field("left");
    Node right = s.field("right");
    if (right) eval(right);
    visitor_.on_for(s, *this);
    Env before = env_;
    bind_iteration(left, right);
    if (Node body = s.field("body")) walk_block(body);
    env_ = join_envs(before, env_);
    for (Node alt : NamedChildren(s)) {
      if (alt.is(NodeKind::ElseClause)) walk_clause_body(alt);
    }
  }

  // Binds a loop target from what iterating `iterable` yields.
  void bind_iteration(Node target, Node iterable) {
    if (!target || !iterable) return;
    Node it = iterable.unparenthesized();
    if (it.is(NodeKind::Call)) {
      std::string callee = resolve(it.field("function"));
      Node args = it.field("arguments");
      std::vector<Node> a = args ? args.children() : std::vector<Node>{};
      Node t = target.unparenthesized();
      std::vector<Node> parts = (t.is(NodeKind::PatternList) || t.is(NodeKind::TuplePattern))
                                    ? t.children() : std::vector<Node>{};
      if (callee == "builtins.range") {
        Value bound = Value::of(ValueKind::Static);
        for (Node x : a) {
          if (value_of(x).depends_on_tensor_data()) bound = Value::of(ValueKind::TensorData);
        }
        bind(target, bound);
        return;
      }
      if (callee == "builtins.enumerate" && parts.size() == 2 && !a.empty()) {
        bind(parts[0], Value::of(ValueKind::Static));
        bind(parts[1], element_of(value_of(a[0])));
        return;
      }
      if (callee == "builtins.zip" && parts.size() == a.size()) {
        for (size_t i = 0; i < parts.size(); ++i) bind(parts[i], element_of(value_of(a[i])));
        return;
      }
    }
    bind(target, element_of(value_of(iterable)));
  }

  void walk_assignment(Node a, Node statement) {
    Node left = a.field("left");
    Node right = a.field("right");
    Value v = Value::unknown();
    if (right) {
      if (right.is(NodeKind::Assignment)) {  // a = b = value
        walk_assignment(right, statement);
        v = value_of(right.field("right"));
      } else {
        v = eval(right);
      }
    }
    if (!left) return;
    eval_target_parts(left);
    Node value_node = right && !right.is(NodeKind::Assignment) ? right : Node();
    store(left, value_node, v, statement);
  }

  // Emits on_store for each target and binds names.
  void store(Node target, Node value_node, const Value& v, Node statement) {
    Node t = target.unparenthesized();
    if (t.is(NodeKind::PatternList) || t.is(NodeKind::TuplePattern) || t.is(NodeKind::ListPattern) ||
        t.is(NodeKind::ExpressionList) || t.is(NodeKind::Tuple) || t.is(NodeKind::List)) {
      std::vector<Node> parts = t.children();
      std::vector<Node> values;
      Node vn = value_node ? value_node.unparenthesized() : Node();
      if (vn && (vn.is(NodeKind::ExpressionList) || vn.is(NodeKind::Tuple) || vn.is(NodeKind::List))) {
        values = vn.children();
      }
      for (size_t i = 0; i < parts.size(); ++i) {
        if (values.size() == parts.size()) {
          store(parts[i], values[i], value_of(values[i]), statement);
        } else {
          store(parts[i], Node(), element_of(v), statement);
        }
      }
      return;
    }
    visitor_.on_store(t, value_node, statement, *this);
    if (t.is(NodeKind::Identifier)) {
      std::string_view name = t.text(src_);
      set_local(name, v);
      assigned_.insert(name);
    } else if (t.is(NodeKind::ListSplatPattern) || t.is(NodeKind::ListSplat)) {
      std::vector<Node> inner = t.children();
      if (!inner.empty() && inner[0].is(NodeKind::Identifier)) set_local(inner[0].text(src_), Value::unknown());
    }
  }

  void bind(Node target, const Value& v) {
    Node t = target.unparenthesized();
    if (t.is(NodeKind::Identifier)) {
      set_local(t.text(src_), v);
      return;
    }
    for (Node c : NamedChildren(t)) {
      if (c.is(NodeKind::Identifier) || c.is(NodeKind::PatternList) || c.is(NodeKind::TuplePattern) ||
          c.is(NodeKind::ListPattern)) {
        bind(c, element_of(v));
      }
    }
  }

  // Loads inside a store target: `z[m] = v` reads z and m; `self.x = v` reads self.
  void eval_target_parts(Node target) {
    Node t = target.unparenthesized();
    if (t.is(NodeKind::Subscript)) {
      eval(t.field("value"));
      for (Node c : NamedChildren(t)) {
        if (!(c == t.field("value"))) eval(c);
      }
    } else if (t.is(NodeKind::Attribute)) {
      eval(t.field("object"));
    } else if (t.is(NodeKind::PatternList) || t.is(NodeKind::TuplePattern) || t.is(NodeKind::ListPattern) ||
               t.is(NodeKind::Tuple) || t.is(NodeKind::List) || t.is(NodeKind::ExpressionList)) {
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
      lv = left.unparenthesized().is(NodeKind::Identifier) ? lookup(left.unparenthesized()) : value_of_target(left);
    }
    visitor_.on_augmented(a, *this);
    if (left && left.unparenthesized().is(NodeKind::Identifier)) {
      set_local(left.unparenthesized().text(src_), combine(lv, rv, false, false));
    }
  }

  Value value_of_target(Node t) {
    t = t.unparenthesized();
    if (t.is(NodeKind::Attribute)) return attribute_value(t);
    if (t.is(NodeKind::Subscript)) return subscript_value(t);
    return Value::unknown();
  }

  // --- expressions --------------------------------------------------------------
  void eval_condition(Node cond, ConditionKind kind, Node owner) {
    if (!cond) return;
    ++condition_depth_;
    Value v = eval(cond, /*test=*/true);
    --condition_depth_;
    (void)v;
    Node c = cond.unparenthesized();
    // `a and b` / `not a` report their operands themselves.
    if (!c.is(NodeKind::BooleanOperator) && !c.is(NodeKind::NotOperator)) visitor_.on_condition(cond, kind, owner, *this);
  }

  Value lookup(Node id) const {
    std::string_view name = id.text(src_);
    if (const Value* v = local(name)) return *v;
    if (scope_of(name) == NameScope::Global) {
      const GlobalFacts* g = global_facts(name);
      if (g && !g->is_mutable()) return g->value;
    }
    return Value::unknown();
  }

  Value attribute_value(Node attr) {
    Node object = attr.field("object").unparenthesized();
    Node name = attr.field("attribute");
    if (!name) return Value::unknown();
    std::string_view a = name.text(src_);
    if (object.is(NodeKind::Identifier) && !self_.empty() && object.text(src_) == self_) {
      if (a == "training") return Value::of(ValueKind::Static);
      return self_attribute(a);
    }
    Value ov = value_of(object);
    if (ov.kind == ValueKind::Tensor) return torch_api::tensor_attribute(a);
    if (ov.kind == ValueKind::Static) return Value::of(ValueKind::Static);
    if (ov.kind == ValueKind::TensorData) return Value::of(ValueKind::TensorData);
    if (a == "shape" || a == "ndim") return Value::of(ValueKind::Static);
    std::string q = resolve(attr);
    if (q.starts_with("torch.")) {
      if (dtype_from_expr(q) != TensorDtype::Unknown) return Value::of(ValueKind::Static);
    }
    return Value::unknown();
  }

  Value subscript_value(Node sub) {
    Value base = value_of(sub.field("value"));
    switch (base.kind) {
      case ValueKind::Tensor: {
        // x[mask] stays bool only if x is; x[idx] keeps x's dtype.
        return Value::tensor(base.dtype);
      }
      case ValueKind::TensorSequence:
        return Value::tensor(base.dtype);
      case ValueKind::Static:
      case ValueKind::TensorData:
        return Value::of(base.kind);
      case ValueKind::Module:
        return Value::of(ValueKind::Module);
      default:
        return Value::unknown();
    }
  }

  static Value combine(const Value& a, const Value& b, bool bitwise, bool comparison) {
    Value v = combine_kinds(a, b, bitwise, comparison);
    auto known = [](const Value& x) { return x.kind == ValueKind::Static || (x.is_tensor() && x.static_data); };
    if (v.is_tensor() && known(a) && known(b)) v.static_data = true;
    return v;
  }

  static Value combine_kinds(const Value& a, const Value& b, bool bitwise, bool comparison) {
    if (a.is_tensor() || b.is_tensor()) {
      if (comparison) return Value::tensor(TensorDtype::Bool);
      if (bitwise) {
        TensorDtype d = (a.is_bool_tensor() || !a.is_tensor()) && (b.is_bool_tensor() || !b.is_tensor())
                            ? TensorDtype::Bool : TensorDtype::Unknown;
        return Value::tensor(d);
      }
      return Value::tensor();
    }
    if (a.is_tensor_data() || b.is_tensor_data()) return Value::of(ValueKind::TensorData);
    if (a.kind == ValueKind::Static && b.kind == ValueKind::Static) return Value::of(ValueKind::Static);
    if (comparison && (a.kind == ValueKind::Static || b.kind == ValueKind::Static)) return Value::of(ValueKind::Static);
    return Value::unknown();
  }

  Value call_value(Node call) {
    Node callee = call.field("function").unparenthesized();
    Node args = call.field("arguments");
    std::vector<Node> a = args ? args.children() : std::vector<Node>{};
    std::vector<Node> positional;
    for (Node x : a) {
      if (!x.is(NodeKind::KeywordArgument) && !x.is(NodeKind::ListSplat) && !x.is(NodeKind::DictionarySplat)) positional.push_back(x);
    }
    auto keyword = [&](std::string_view k) -> Node {
      for (Node x : a) {
        if (x.is(NodeKind::KeywordArgument)) {
          Node n = x.field("name");
          if (n && n.text(src_) == k) return x.field("value");
        }
      }
      return Node();
    };
    auto dtype_kw = [&](Value v) {
      if (Node d = keyword("dtype")) {
        TensorDtype dt = dtype_from_expr(resolve(d));
        if (v.is_tensor() && dt != TensorDtype::Unknown) v.dtype = dt;
      }
      return v;
    };

    if (callee.is(NodeKind::Attribute)) {
      Node object = callee.field("object").unparenthesized();
      std::string_view method = callee.field("attribute").text(src_);
      Value ov = value_of(object);
      if (ov.kind == ValueKind::Tensor) {
        if (method == "to" || method == "type") {
          for (Node x : positional) {
            TensorDtype d = dtype_from_expr(resolve(x));
            if (d != TensorDtype::Unknown) return Value::tensor(d);
          }
          if (method == "type" && positional.empty() && !keyword("dtype")) return Value::of(ValueKind::Static);
          return dtype_kw(Value::tensor(ov.dtype));
        }
        Value r = torch_api::tensor_method_result(method);
        // Read out of a tensor built only from trace-time values: known at trace time.
        if (r.is_tensor_data() && ov.static_data) return Value::of(ValueKind::Static);
        if (r.is_tensor() && r.dtype == TensorDtype::Unknown) {
          static const std::unordered_map<std::string_view, bool> keeps = {
              {"clone", true}, {"contiguous", true}, {"detach", true}, {"view", true}, {"reshape", true},
              {"flatten", true}, {"squeeze", true}, {"unsqueeze", true}, {"permute", true}, {"transpose", true},
              {"expand", true}, {"expand_as", true}, {"repeat", true}, {"t", true}, {"flip", true},
              {"view_as", true}, {"reshape_as", true}, {"__getitem__", true}, {"cpu", true}, {"cuda", true},
              {"narrow", true}, {"roll", true}, {"masked_fill", true}, {"index_select", true}, {"gather", true}};
          if (keeps.count(method)) r.dtype = ov.dtype;
        }
        if (method == "max" || method == "min") {
          if (!positional.empty() || keyword("dim")) return Value::of(ValueKind::TensorSequence);
        }
        return r;
      }
      if (ov.kind == ValueKind::TensorSequence && (method == "index" || method == "count")) return Value::of(ValueKind::Static);
      // Shape queries are shape-level whatever the receiver turns out to be.
      if (method == "size" || method == "dim" || method == "ndimension" || method == "numel") {
        return Value::of(ValueKind::Static);
      }
      if (ov.kind == ValueKind::Static) return Value::of(ValueKind::Static);
      if (ov.kind == ValueKind::TensorData) return Value::of(ValueKind::TensorData);
      if (ov.kind == ValueKind::Module) {
        if (method == "forward" || method == "__call__") return Value::tensor();
        return Value::unknown();
      }
      // self.method(...) / self.block(...)
      if (object.is(NodeKind::Identifier) && !self_.empty() && object.text(src_) == self_ && cls_ >= 0) {
        FunctionRef m = project_.find_method({file_index_, cls_}, method);
        if (m.valid()) {
          record_call(call, m);
          return project_.file(m.file).functions[static_cast<size_t>(m.function)].returns_tensor ? Value::tensor()
                                                                                                 : Value::unknown();
        }
        if (self_attribute(method).kind == ValueKind::Module) {
          // A project sub-module: its forward receives these arguments.
          ClassRef sub = project_.self_attribute_class({file_index_, cls_}, method);
          if (sub.valid() && project_.is_module_class(sub)) {
            if (FunctionRef forward = project_.find_method(sub, "forward"); forward.valid()) record_call(call, forward);
          }
          return Value::tensor();
        }
        return Value::unknown();
      }
    }

    std::string q = resolve(callee);
    if (q.starts_with("builtins.")) {
      std::string_view b = std::string_view(q).substr(9);
      if (b == "int" || b == "float" || b == "bool" || b == "complex") {
        if (!positional.empty()) {
          Value arg = value_of(positional[0]);
          if (arg.is_tensor() && arg.static_data) return Value::of(ValueKind::Static);  // see tensor_method_result above
        }
        if (!positional.empty() && value_of(positional[0]).depends_on_tensor_data()) return Value::of(ValueKind::TensorData);
        if (!positional.empty() && value_of(positional[0]).kind == ValueKind::Static) return Value::of(ValueKind::Static);
        return Value::unknown();
      }
      if (b == "len" || b == "isinstance" || b == "hasattr" || b == "range" || b == "type" || b == "id" ||
          b == "getattr" || b == "str" || b == "repr" || b == "issubclass" || b == "callable") {
        if (b == "getattr") return Value::unknown();
        return Value::of(ValueKind::Static);
      }
      if (b == "min" || b == "max" || b == "abs" || b == "round" || b == "sum") {
        Value acc = Value::of(ValueKind::Static);
        for (Node x : positional) {
          Value v = value_of(x);
          if (v.is_tensor()) return b == "abs" || b == "sum" ? Value::tensor() : Value::unknown();
          if (v.is_tensor_data()) acc = Value::of(ValueKind::TensorData);
          else if (v.kind != ValueKind::Static) acc = acc.is_tensor_data() ? acc : Value::unknown();
        }
        return acc;
      }
      if (b == "tuple" || b == "list") {
        if (!positional.empty()) {
          Value v = value_of(positional[0]);
          if (v.kind == ValueKind::TensorSequence || v.is_tensor()) return Value::of(ValueKind::TensorSequence);
          if (v.kind == ValueKind::Static) return v;
        }
        return Value::unknown();
      }
      return Value::unknown();
    }
    if (q == "torch.where" && positional.size() == 1 && !keyword("input")) return Value::of(ValueKind::TensorSequence);
    if ((q == "torch.scalar_tensor" || q == "torch.tensor" || q == "torch.as_tensor") && !positional.empty() &&
        value_of(positional[0]).kind == ValueKind::Static) {
      Value r = dtype_kw(Value::tensor());
      r.static_data = true;
      return r;
    }
    if (q.starts_with("torch.") || q.starts_with("torchvision.")) {
      Value r = torch_api::call_result(q);
      if (r.is_tensor()) {
        if (q == "torch.where" && positional.size() == 3) {
          Value x = value_of(positional[1]), y = value_of(positional[2]);
          if (x.is_bool_tensor() && y.is_bool_tensor()) r.dtype = TensorDtype::Bool;
        }
        if ((q == "torch.cat" || q == "torch.stack" || q == "torch.clone") && !positional.empty()) {
          Value first = value_of(positional[0]);
          r.dtype = first.dtype;
        }
        if (q == "torch.full_like" || q == "torch.zeros_like" || q == "torch.ones_like" || q == "torch.empty_like") {
          if (!positional.empty()) r.dtype = value_of(positional[0]).dtype;
        }
        r = dtype_kw(r);
      }
      return r;
    }
    // A project class constructed, or a project function returning tensors.
    std::string written = dotted_text(callee, src_);
    if (!written.empty()) {
      ClassRef c = project_.resolve_class(file_index_, written);
      if (c.valid()) return project_.is_module_class(c) ? Value::of(ValueKind::Module) : Value::unknown();
      FunctionRef f = project_.resolve_function(file_index_, fn_index(), written);
      if (f.valid()) {
        record_call(call, f);
        return project_.file(f.file).functions[static_cast<size_t>(f.function)].returns_tensor ? Value::tensor()
                                                                                                : Value::unknown();
      }
    }
    if (callee.is(NodeKind::Identifier) && value_of(callee).kind == ValueKind::Module) return Value::tensor();
    return Value::unknown();
  }

  // Records the values a call binds to the callee's parameters (by position and keyword).
  void record_call(Node call, FunctionRef callee) {
    if (!record_) return;
    const FunctionInfo& target = project_.file(callee.file).functions[static_cast<size_t>(callee.function)];
    Node params = target.node.field("parameters");
    if (!params) return;
    std::vector<std::string_view> names;
    std::string_view target_src = project_.file(callee.file).source;
    for (Node p : NamedChildren(params)) {
      Node name = p.is(NodeKind::Identifier) ? p
                  : p.is(NodeKind::TypedParameter) ? (p.named_child_count() ? p.named_child(0) : Node())
                                                   : p.field("name");
      names.push_back(name && name.is(NodeKind::Identifier) ? name.text(target_src) : std::string_view());
    }
    std::vector<Value> values(names.size(), Value::unknown());
    // Through `self.method(...)` or `super().method(...)` the first parameter is bound already.
    size_t next = target.binds_self() && call.field("function").unparenthesized().is(NodeKind::Attribute) ? 1 : 0;
    Node args = call.field("arguments");
    if (!args || !args.is(NodeKind::ArgumentList)) return;
    for (Node a : NamedChildren(args)) {
      if (a.is(NodeKind::ListSplat) || a.is(NodeKind::DictionarySplat)) return;  // cannot map
      if (a.is(NodeKind::KeywordArgument)) {
        Node k = a.field("name");
        for (size_t i = 0; k && i < names.size(); ++i) {
          if (names[i] == k.text(src_)) values[i] = value_of(a.field("value"));
        }
      } else if (next < values.size()) {
        values[next++] = value_of(a);
      }
    }
    record_->record(callee.file, callee.function, values);
  }

  int fn_index() const { return static_cast<int>(&fn_ - file_.functions.data()); }

  // Evaluates an expression: walks its parts in order (emitting events) and
  // returns what it holds. `test`: it is the test of a condition.
  Value eval(Node e, bool test = false) {
    if (!e || !e.is_named()) return Value::unknown();
    Value v = eval_uncached(e, test);
    if (!is_cheap(e)) cache_.set(e.id(), v);
    return v;
  }

  Value eval_uncached(Node e, bool test) {
    switch (e.kind()) {
      case NodeKind::Identifier:
        visitor_.on_name_load(e, *this);
        return lookup(e);
      case NodeKind::Integer:
      case NodeKind::Float:
      case NodeKind::String:
      case NodeKind::ConcatenatedString:
      case NodeKind::True:
      case NodeKind::False:
      case NodeKind::Ellipsis:
        for (Node c : NamedChildren(e)) eval(c);  // f-string interpolations
        return Value::of(ValueKind::Static);
      case NodeKind::None:
        return Value::of(ValueKind::None);
      case NodeKind::ParenthesizedExpression: {
        Value v = Value::unknown();
        for (Node c : NamedChildren(e)) v = eval(c, test);
        return v;
      }
      case NodeKind::Attribute:
        eval(e.field("object"));
        return attribute_value(e);
      case NodeKind::Subscript: {
        eval(e.field("value"));
        Node value_node = e.field("value");
        for (Node c : NamedChildren(e)) {
          if (!(c == value_node)) eval(c);
        }
        visitor_.on_subscript_load(e, *this);
        return subscript_value(e);
      }
      case NodeKind::Slice:
        for (Node c : NamedChildren(e)) eval(c);
        return Value::of(ValueKind::Static);
      case NodeKind::Call: {
        Node callee = e.field("function");
        Node cu = callee.unparenthesized();
        if (cu.is(NodeKind::Attribute)) {
          eval(cu.field("object"));
          cache_.set(cu.id(), attribute_value(cu));
        } else {
          eval(callee);
        }
        if (Node args = e.field("arguments")) {
          for (Node c : NamedChildren(args)) {
            if (c.is(NodeKind::KeywordArgument)) eval(c.field("value"));
            else if (c.is(NodeKind::ListSplat) || c.is(NodeKind::DictionarySplat)) {
              for (Node x : NamedChildren(c)) eval(x);
            } else if (c.is(NodeKind::ForInClause) || c.is(NodeKind::IfClause)) {
              // generator argument: handled as a comprehension below
            } else {
              eval(c);
            }
          }
          if (args.is(NodeKind::GeneratorExpression)) eval_comprehension(args);
        }
        visitor_.on_call(e, *this);
        return call_value(e);
      }
      case NodeKind::BinaryOperator: {
        Value l = eval(e.field("left"));
        Value r = eval(e.field("right"));
        Node op = e.field("operator");
        std::string_view o = op ? op.text(src_) : "";
        return combine(l, r, o == "&" || o == "|" || o == "^", false);
      }
      case NodeKind::ComparisonOperator: {
        std::vector<Node> parts = e.children();
        Value acc = Value::of(ValueKind::Static);
        bool any_tensor = false, any_data = false;
        for (Node p : parts) {
          Value v = eval(p);
          any_tensor |= v.is_tensor();
          any_data |= v.is_tensor_data();
          if (v.kind != ValueKind::Static && v.kind != ValueKind::None && !v.is_tensor() && !v.is_tensor_data()) {
            acc = Value::unknown();
          }
        }
        bool identity = false;  // `is`, `is not`, `in`, `not in`: a Python bool, never a tensor
        for (std::string_view op : comparison_operators(e)) {
          identity = identity || op.starts_with("is") || op.ends_with("in");
        }
        if (identity) return Value::of(ValueKind::Static);
        if (any_tensor) return Value::tensor(TensorDtype::Bool);
        if (any_data) return Value::of(ValueKind::TensorData);
        return acc.kind == ValueKind::Unknown ? Value::unknown() : Value::of(ValueKind::Static);
      }
      case NodeKind::BooleanOperator: {
        Node left = e.field("left");
        Node right = e.field("right");
        Value l = eval(left, test);
        report_operand(left, l, e);
        // The right operand runs only when the left is true (and) / false (or).
        Env saved = env_;
        Node op = e.field("operator");
        narrow(left, !(op && op.text(src_) == "or"));
        Value r = eval(right, test);
        if (test) report_operand(right, r, e);
        env_ = std::move(saved);
        if (l.kind == ValueKind::Static && r.kind == ValueKind::Static) return Value::of(ValueKind::Static);
        return join(l, r);
      }
      case NodeKind::NotOperator: {
        Node arg = e.field("argument");
        Value v = eval(arg, true);
        if (!arg.unparenthesized().is(NodeKind::BooleanOperator) && !arg.unparenthesized().is(NodeKind::NotOperator)) {
          visitor_.on_condition(arg, ConditionKind::NotOperand, e, *this);
        }
        return v.is_tensor_data() ? v : Value::of(ValueKind::Static);
      }
      case NodeKind::UnaryOperator: {
        Value v = eval(e.field("argument"));
        if (v.is_tensor()) return v;
        return v;
      }
      case NodeKind::ConditionalExpression: {
        std::vector<Node> parts = e.children();
        if (parts.size() != 3) {
          for (Node p : parts) eval(p);
          return Value::unknown();
        }
        ++condition_depth_;
        eval(parts[1], true);
        --condition_depth_;
        Node c = parts[1].unparenthesized();
        if (!c.is(NodeKind::BooleanOperator) && !c.is(NodeKind::NotOperator)) {
          visitor_.on_condition(parts[1], ConditionKind::Ternary, e, *this);
        }
        Value a = eval(parts[0]);
        Value b = eval(parts[2]);
        return join(a, b);
      }
      case NodeKind::Tuple:
      case NodeKind::List:
      case NodeKind::ExpressionList:
      case NodeKind::Set: {
        bool all_tensor = true, any = false;
        for (Node c : NamedChildren(e)) {
          Value v = eval(c);
          any = true;
          all_tensor &= v.is_tensor();
        }
        if (any && all_tensor) return Value::of(ValueKind::TensorSequence);
        return Value::unknown();
      }
      case NodeKind::Dictionary:
        for (Node c : NamedChildren(e)) {
          for (Node kv : NamedChildren(c)) eval(kv);
        }
        return Value::unknown();
      case NodeKind::ListComprehension:
      case NodeKind::SetComprehension:
      case NodeKind::DictionaryComprehension:
      case NodeKind::GeneratorExpression:
        return eval_comprehension(e);
      case NodeKind::Lambda: {
        Env saved = env_;
        if (Node params = e.field("parameters")) {
          for (Node p : NamedChildren(params)) {
            Node n = p.is(NodeKind::Identifier) ? p : p.field("name");
            if (n && n.is(NodeKind::Identifier)) set_local(n.text(src_), Value::unknown());
          }
        }
        eval(e.field("body"));
        env_ = std::move(saved);
        return Value::unknown();
      }
      case NodeKind::NamedExpression: {
        Value v = eval(e.field("value"));
        if (Node n = e.field("name")) {
          set_local(n.text(src_), v);
          assigned_.insert(n.text(src_));
        }
        return v;
      }
      case NodeKind::Yield:
      case NodeKind::Await:
        for (Node c : NamedChildren(e)) eval(c);
        if (e.is(NodeKind::Yield)) visitor_.on_yield(e, *this);
        return Value::unknown();
      case NodeKind::KeywordArgument:
        return eval(e.field("value"));
      case NodeKind::ListSplat:
      case NodeKind::DictionarySplat:
        for (Node c : NamedChildren(e)) eval(c);
        return Value::unknown();
      default:
        for (Node c : NamedChildren(e)) eval(c);
        return Value::unknown();
    }
  }

  void report_operand(Node operand, const Value&, Node owner) {
    Node c = operand.unparenthesized();
    if (c.is(NodeKind::BooleanOperator) || c.is(NodeKind::NotOperator)) return;
    visitor_.on_condition(operand, ConditionKind::BoolOperand, owner, *this);
  }

  Value eval_comprehension(Node e) {
    Env saved = env_;
    Node body = e.field("body");
    std::vector<Node> clauses;
    for (Node c : NamedChildren(e)) {
      if (c.is(NodeKind::ForInClause) || c.is(NodeKind::IfClause)) clauses.push_back(c);
    }
    for (Node c : clauses) {
      if (c.is(NodeKind::ForInClause)) {
        Node right = c.field("right");
        if (right) eval(right);
        bind_iteration(c.field("left"), right);
      } else {
        std::vector<Node> cond = c.children();
        if (!cond.empty()) {
          ++condition_depth_;
          eval(cond[0], true);
          --condition_depth_;
          Node u = cond[0].unparenthesized();
          if (!u.is(NodeKind::BooleanOperator) && !u.is(NodeKind::NotOperator)) {
            visitor_.on_condition(cond[0], ConditionKind::ComprehensionFilter, c, *this);
          }
        }
      }
    }
    Value element = Value::unknown();
    if (body) {
      if (body.is(NodeKind::Other) && std::string_view(body.type()) == "pair") {
        for (Node kv : NamedChildren(body)) eval(kv);
      } else {
        element = eval(body);
      }
    }
    env_ = std::move(saved);
    if (element.is_tensor() && !e.is(NodeKind::DictionaryComprehension) && !e.is(NodeKind::SetComprehension)) {
      return Value::of(ValueKind::TensorSequence);
    }
    return Value::unknown();
  }

  // value_of on a node not walked yet (e.g. a store target): infer without events.
  Value infer_quiet(Node e) {
    class Silent : public CodeVisitor {} silent;
    Walker shadow(*this, silent);
    return shadow.eval(e);
  }

  Walker(const Walker& other, CodeVisitor& visitor)
      : project_(other.project_),
        file_index_(other.file_index_),
        file_(other.file_),
        fn_(other.fn_),
        visitor_(visitor),
        src_(other.src_),
        names_(other.names_),
        env_(other.env_),
        self_(other.self_),
        cls_(other.cls_) {}

  const ProjectModel& project_;
  int file_index_;
  int function_index_;
  const FileModel& file_;
  const FunctionInfo& fn_;
  CodeVisitor& visitor_;
  std::string_view src_;
  NameSlots own_names_;
  NameSlots* names_ = &own_names_;  // shared with shadow walkers
  Env env_;
  std::unordered_set<std::string_view> assigned_;
  ValueCache cache_;
  mutable std::unordered_map<const void*, std::string> resolved_;
  mutable std::unordered_map<const void*, CallParts> calls_;
  std::string_view self_;
  int cls_ = -1;
  int condition_depth_ = 0;
  const ArgumentTypes* known_ = nullptr;
  ArgumentTypes* record_ = nullptr;
};

}  // namespace

void walk_function(const ProjectModel& project, int file, int function, CodeVisitor& visitor,
                   const ArgumentTypes* known, ArgumentTypes* record) {
  Walker walker(project, file, function, visitor);
  walker.set_argument_types(known, record);
  walker.run();
}

}  // namespace fxlint

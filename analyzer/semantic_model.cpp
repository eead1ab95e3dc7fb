#include "analyzer/semantic_model.h"

#include <algorithm>

#include "analyzer/parameter_name.h"
#include "analyzer/torch_api.h"
#include "analyzer/trace_truth.h"

namespace fxlint {

namespace {

// Most scopes declare no `global`/`nonlocal`: skip hashing the name for those.
bool contains(const StringSet& set, std::string_view name) { return !set.empty() && set.count(name) > 0; }

bool is_literal(Node e) {
  switch (e.kind()) {
    case NodeKind::Integer: case NodeKind::Float: case NodeKind::True: case NodeKind::False:
    case NodeKind::String:
      return true;
    default:
      return false;
  }
}

}  // namespace

SemanticModel::SemanticModel(const ProjectModel& project, int file, int function, const ArgumentTypes* known,
                             ArgumentTypes* record, TraceTarget target)
    : project_(project),
      file_index_(file),
      function_index_(function),
      file_(project.file(file)),
      fn_(file_.functions[static_cast<size_t>(function)]),
      src_(file_.source),
      cls_(project.method_class(file, function)),
      known_(known),
      record_(record),
      target_(target) {}

// --- environment -------------------------------------------------------------

void SemanticModel::set_local(std::string_view name, const Value& v, ClassRef module_class) const {
  env_.set(names_.intern(name), v, module_class);
  state_ = ++next_state_;
}

void SemanticModel::restore(Snapshot s) {
  env_ = std::move(s.env);
  state_ = s.state;
}

void SemanticModel::merge(const Snapshot& other) {
  env_ = join_envs(other.env, env_);
  state_ = ++next_state_;
}

void SemanticModel::assign(std::string_view name, const Value& value, Node value_node) {
  // Only a module or an unknown value can hold a project module: most
  // assignments (tensors, numbers) skip the class lookup.
  bool may_be_module = value.kind == ValueKind::Module || value.kind == ValueKind::Unknown;
  ClassRef cls = value_node && may_be_module ? module_class_of(value_node) : ClassRef{};
  set_local(name, cls.valid() ? Value::of(ValueKind::Module) : value, cls);
  assigned_.insert(name);
}

// `Block(...)`, `self.block`, `self.blocks[i]` or a name bound to one of
// them: the project module class it holds, so that calling it records what
// that class's forward receives.
ClassRef SemanticModel::module_class_of(Node expr) const {
  Node e = expr.unparenthesized();
  ClassRef c;
  if (e.is(NodeKind::Identifier)) return env_.module_class(names_.find(e.text(src_)));
  if (e.is(NodeKind::Call)) {
    std::string written = dotted_text(e.field("function"), src_);
    c = written.empty() ? ClassRef{} : project_.resolve_class(file_index_, written);
  } else if (cls_ >= 0 && !self_.empty() && (e.is(NodeKind::Attribute) || e.is(NodeKind::Subscript))) {
    bool element = e.is(NodeKind::Subscript);
    Node attr = element ? e.field("value").unparenthesized() : e;
    if (!attr.is(NodeKind::Attribute)) return {};
    Node object = attr.field("object").unparenthesized();
    if (!object.is(NodeKind::Identifier) || object.text(src_) != self_) return {};
    std::string_view name = attr.field("attribute").text(src_);
    c = element ? project_.self_attribute_element_class({file_index_, cls_}, name)
                : project_.self_attribute_class({file_index_, cls_}, name);
  }
  return c.valid() && project_.is_module_class(c) ? c : ClassRef{};
}

ClassRef SemanticModel::receiver_class(std::string_view name) const {
  auto it = fn_.receiver_classes.find(name);
  return it == fn_.receiver_classes.end() ? ClassRef{} : project_.resolve_class(file_index_, it->second);
}

// The project class whose instance `object` is: a name annotated with it or bound only to
// its instances, or a construction (`Task(options).run(x)`).
ClassRef SemanticModel::instance_class(Node object) const {
  Node e = object.unparenthesized();
  if (e.is(NodeKind::Identifier)) {
    if (e.text(src_) == self_) return {};
    if (ClassRef c = env_.module_class(names_.find(e.text(src_))); c.valid()) return c;
    return receiver_class(e.text(src_));
  }
  if (e.is(NodeKind::Call)) {
    std::string written = dotted_text(e.field("function"), src_);
    return written.empty() ? ClassRef{} : project_.resolve_class(file_index_, written);
  }
  return {};
}

void SemanticModel::remember(Node expr, const Value& value) { walked_.set(expr.id(), value); }

void SemanticModel::bind_names(Node target, const Value& v) const {
  Node t = target.unparenthesized();
  if (t.is(NodeKind::Identifier)) {
    set_local(t.text(src_), v);
    return;
  }
  for (Node c : NamedChildren(t)) {
    if (c.is(NodeKind::Identifier) || c.is(NodeKind::PatternList) || c.is(NodeKind::TuplePattern) ||
        c.is(NodeKind::ListPattern)) {
      bind_names(c, element_of(v));
    }
  }
}

void SemanticModel::bind_loop_target(Node target, Node iterable) const {
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
      bind_names(target, bound);
      return;
    }
    if (callee == "builtins.enumerate" && parts.size() == 2 && !a.empty()) {
      bind_names(parts[0], Value::of(ValueKind::Static));
      bind_loop_target(parts[1], a[0]);  // `for i, (x, y) in enumerate(zip(xs, ys))`
      return;
    }
    if (callee == "builtins.zip" && parts.size() == a.size()) {
      for (size_t i = 0; i < parts.size(); ++i) bind_names(parts[i], element_of(value_of(a[i])));
      return;
    }
  }
  bind_element(target, iterable);
}

// `for block in self.blocks`: a block of a ModuleList built from one project
// class keeps that class, so calling it records what its forward receives.
void SemanticModel::bind_element(Node target, Node iterable) const {
  Node t = target.unparenthesized();
  Node it = iterable.unparenthesized();
  if (t.is(NodeKind::Identifier) && it.is(NodeKind::Attribute) && cls_ >= 0 && !self_.empty()) {
    Node object = it.field("object").unparenthesized();
    Node attr = it.field("attribute");
    if (object.is(NodeKind::Identifier) && object.text(src_) == self_ && attr) {
      ClassRef element = project_.self_attribute_element_class({file_index_, cls_}, attr.text(src_));
      if (element.valid() && project_.is_module_class(element)) {
        set_local(t.text(src_), Value::of(ValueKind::Module), element);
        return;
      }
    }
  }
  bind_names(target, element_of(value_of(iterable)));
}

void SemanticModel::narrow_names(Node cond, bool truth) const {
  cond = cond.unparenthesized();
  if (cond.is(NodeKind::NotOperator)) {
    narrow_names(cond.field("argument"), !truth);
    return;
  }
  if (cond.is(NodeKind::BooleanOperator)) {
    std::string_view o = operator_of(cond);
    Node left = cond.field("left"), right = cond.field("right");
    if ((o == "and" && truth) || (o == "or" && !truth)) {
      narrow_names(left, truth);
      narrow_names(right, truth);
      return;
    }
    // `a and b` false with b true under a tracer: a is false (`or` alike).
    bool absorbing = o == "or";  // the operand value that decides the result
    if (truth_when_traced(right, true) == !absorbing) narrow_names(left, truth);
    else if (truth_when_traced(left, true) == !absorbing) narrow_names(right, truth);
    return;
  }
  if (std::optional<NoneCheck> check = none_check(cond)) {
    bool not_none = check->is_not == truth;
    const Value* v = local(check->name);
    if (!v) return;
    if (not_none && v->kind == ValueKind::OptionalTensor) {
      Value t = Value::tensor(v->dtype);
      t.presumed = v->presumed;
      set_local(check->name, t);
    }
    if (!not_none) set_local(check->name, Value::of(ValueKind::None));
    return;
  }
  // `m.dtype == torch.bool` (or `is`): where it holds, m is a mask (kornia's refinement
  // takes a mask or weights in one parameter, and checks which).
  if (truth && cond.is(NodeKind::ComparisonOperator)) {
    std::vector<Node> parts = cond.children();
    std::vector<std::string_view> ops = comparison_operators(cond);
    if (parts.size() == 2 && ops.size() == 1 && (ops[0] == "==" || ops[0] == "is")) {
      for (int i = 0; i < 2; ++i) {
        Node attr = parts[static_cast<size_t>(i)].unparenthesized();
        Node object = attr.is(NodeKind::Attribute) ? attr.field("object").unparenthesized() : Node();
        if (!object || !object.is(NodeKind::Identifier) || attr.field("attribute").text(src_) != "dtype") continue;
        if (resolve(parts[static_cast<size_t>(1 - i)]) != "torch.bool") continue;
        const Value* v = local(object.text(src_));
        if (v && (v->kind == ValueKind::Tensor || v->kind == ValueKind::OptionalTensor)) {
          Value b = *v;
          b.dtype = TensorDtype::Bool;
          set_local(object.text(src_), b);
        }
      }
    }
    return;
  }
  if (cond.is(NodeKind::Call) && resolve(cond.field("function")) == "builtins.isinstance") {
    Node args = cond.field("arguments");
    std::vector<Node> a = args ? args.children() : std::vector<Node>{};
    if (a.size() == 2 && a[0].is(NodeKind::Identifier) && resolve(a[1]) == "torch.Tensor") {
      const Value* v = local(a[0].text(src_));
      if (!truth) {  // whatever it holds in the other arm, it is no tensor
        if (v && v->is_tensor()) set_local(a[0].text(src_), Value::unknown());
        return;
      }
      // A name known to hold a Python number or None never takes this arm: leave it so.
      if (v && (v->kind == ValueKind::Static || v->kind == ValueKind::None)) return;
      set_local(a[0].text(src_), Value::tensor());
      return;
    }
    if (a.size() != 2 || !a[0].is(NodeKind::Identifier)) return;
    const Value* v = local(a[0].text(src_));
    if (!v) return;
    std::vector<std::string> classes;  // `isinstance(v, (list, tuple))` names each
    Node spec = a[1].unparenthesized();
    if (spec.is(NodeKind::Tuple)) {
      for (Node c : NamedChildren(spec)) classes.push_back(resolve(c));
    } else {
      classes.push_back(resolve(spec));
    }
    auto sequence_class = [](const std::string& q) { return q == "builtins.list" || q == "builtins.tuple"; };
    if (truth) {
      // Nothing was known of v: a Python sequence, which a tensor index reads as an int
      // (SAM's `[v[i] for i in keep]`).
      if (v->kind == ValueKind::Unknown && !classes.empty() && std::all_of(classes.begin(), classes.end(), sequence_class)) {
        set_local(a[0].text(src_), Value::of(ValueKind::Static));
      }
      return;
    }
    // False where v is known to be a list of tensors: there it is something else
    // (ultralytics' `shape[2:] if isinstance(feats, list) else int(...)`).
    bool sequence = v->kind == ValueKind::TensorSequence, dict = v->kind == ValueKind::TensorDict;
    for (const std::string& q : classes) {
      if ((sequence && sequence_class(q)) || (dict && q == "builtins.dict")) {
        set_local(a[0].text(src_), Value::unknown());
        return;
      }
    }
  }
}

void SemanticModel::decide_truth(Node cond) {
  cond = cond.unparenthesized();
  // `not x` tests x; `x and y` / `x or y` surely test x, and y only sometimes.
  if (cond.is(NodeKind::NotOperator)) return decide_truth(cond.field("argument"));
  if (cond.is(NodeKind::BooleanOperator)) return decide_truth(cond.field("left"));
  if (cond.is(NodeKind::ComparisonOperator)) {
    // Most comparisons are of trace-time values: only one of data is worth taking apart.
    if (!value_of(cond).is_data_dependent_scalar()) return;
    if (auto [name, hash] = literal_comparison(cond); hash) {
      const Value* v = local(name);
      if (!v || !v->is_data_dependent_scalar()) return;
      Value decided = *v;
      decided.decided_comparison = hash;
      set_local(name, decided);
    }
    return;
  }
  if (!cond.is(NodeKind::Identifier)) return;
  std::string_view name = cond.text(src_);
  const Value* v = local(name);
  if (!v || !v->is_data_dependent_scalar() || v->truth_decided) return;
  Value decided = *v;
  decided.truth_decided = true;
  set_local(name, decided);
}

std::pair<std::string_view, uint32_t> SemanticModel::literal_comparison(Node cond) const {
  std::vector<Node> parts = cond.children();
  if (parts.size() != 2 || comparison_operators(cond).size() != 1) return {};
  auto literal = [](Node n) {
    Node u = n.unparenthesized();
    if (u.is(NodeKind::UnaryOperator)) u = u.field("argument");
    return u.is(NodeKind::Integer) || u.is(NodeKind::Float);
  };
  Node name = parts[0].unparenthesized().is(NodeKind::Identifier) && literal(parts[1]) ? parts[0].unparenthesized()
              : parts[1].unparenthesized().is(NodeKind::Identifier) && literal(parts[0]) ? parts[1].unparenthesized()
                                                                                          : Node();
  if (!name) return {};
  auto h = static_cast<uint32_t>(std::hash<std::string_view>{}(cond.text(src_)));
  return {name.text(src_), h == 0 ? 1 : h};
}

std::optional<SemanticModel::NoneCheck> SemanticModel::none_check(Node cond) const {
  cond = cond.unparenthesized();
  if (!cond.is(NodeKind::ComparisonOperator)) return std::nullopt;
  std::vector<Node> parts = cond.children();
  if (parts.size() != 2 || !parts[1].is(NodeKind::None) || !parts[0].is(NodeKind::Identifier)) return std::nullopt;
  std::vector<std::string_view> ops = comparison_operators(cond);
  if (ops.size() != 1 || (ops[0] != "is" && ops[0] != "is not")) return std::nullopt;
  return NoneCheck{parts[0].text(src_), ops[0] == "is not"};
}

std::optional<bool> SemanticModel::truth_when_traced(Node cond, bool from_values) const {
  return fxlint::truth_when_traced(cond, src_, [&](Node leaf) -> std::optional<bool> {
    // `if VERBOSE:` with `VERBOSE = False` bound once at module level.
    if (leaf.is(NodeKind::Identifier) && !local(leaf.text(src_))) {
      if (std::optional<bool> t = project_.constant_global_truth(file_index_, function_index_, leaf.text(src_))) return t;
    }
    if (leaf.is(NodeKind::Call)) {
      Node callee = leaf.field("function");
      return truth_of_hatch(project_.hatch_of_call(file_index_, function_index_, callee, resolve(callee)),
                            target_.tracer, target_.exporting);
    }
    // `x is None` / `x is not None` where x is known to hold None or a tensor.
    std::optional<NoneCheck> check = from_values ? none_check(leaf) : std::nullopt;
    const Value* v = check ? local(check->name) : nullptr;
    if (!v) return std::nullopt;
    bool is_none;
    if (v->kind == ValueKind::None) is_none = true;
    else if (v->kind == ValueKind::Tensor || v->kind == ValueKind::TensorSequence) is_none = false;
    else return std::nullopt;
    return check->is_not ? !is_none : is_none;
  });
}

// --- parameters ----------------------------------------------------------------

void SemanticModel::bind_parameters() {
  Node params = fn_.node.field("parameters");
  if (!params) return;
  bool is_method = fn_.binds_self();
  // A module handed on as an argument, that no compiled code is seen calling, is
  // called elsewhere with what its receiver chooses (`rel_pos(i, j)` with sizes):
  // its inputs are not known to be tensors.
  bool called = known_ && known_->called(file_index_, function_index_);
  bool is_forward = is_method && fn_.name == "forward" && project_.is_module_class({file_index_, fn_.cls}) &&
                    (called || !project_.handed_on({file_index_, fn_.cls}));
  // A function handed to torch.compile, or decorated with it, that no compiled code calls:
  // its inputs are the compiled frame's, presumed tensors as a module's are. (Not a function
  // that is compiled code for its `-> Tensor` annotation, nor a configured entry point.)
  bool compiled = fn_.seed == SeedReason::CompileCall || fn_.seed == SeedReason::Decorator ||
                  project_.is_compile_call_target(file_index_, function_index_);
  is_forward = is_forward || (!called && compiled);
  size_t index = 0;
  for (Node p : NamedChildren(params)) {
    size_t param_index = index++;
    Node name = parameter_name(p);
    if (!name) continue;
    std::string_view n = name.text(src_);
    if (param_index == 0 && is_method) {
      self_ = n;
      set_local(n, Value::unknown());
      continue;
    }
    Value v = parameter_value(p, param_index, is_forward);
    if (v.data_dependent) {
      dependent_parameters_ = true;
      if (plain_arguments_) v.data_dependent = false;
    }
    // `model: Whisper`: an instance of a project module class, whose calls run its forward.
    if (ClassRef c = v.kind == ValueKind::Unknown ? receiver_class(n) : ClassRef{};
        c.valid() && project_.is_module_class(c)) {
      set_local(n, Value::of(ValueKind::Module), c);
      continue;
    }
    set_local(n, v);
  }
}

std::vector<std::string> SemanticModel::self_attribute_constructors(std::string_view attr) const {
  if (cls_ < 0) return {};
  return project_.attribute_constructors({file_index_, cls_}, attr);
}

bool SemanticModel::holds_parameters(Node module) const {
  module = module.unparenthesized();
  if (module.is(NodeKind::Identifier) && module.text(src_) == self_ && !self_.empty()) {
    return cls_ >= 0 && project_.holds_parameters({file_index_, cls_});
  }
  if (module.is(NodeKind::Attribute)) {
    Node owner = module.field("object").unparenthesized();
    if (!owner.is(NodeKind::Identifier) || owner.text(src_) != self_ || self_.empty()) return false;
    for (const std::string& q : self_attribute_constructors(module.field("attribute").text(src_))) {
      if (torch_api::makes_parameters(q)) return true;
    }
    ClassRef sub = cls_ >= 0 ? project_.self_attribute_class({file_index_, cls_}, module.field("attribute").text(src_))
                             : ClassRef{};
    return project_.holds_parameters(sub);
  }
  if (module.is(NodeKind::Identifier)) {  // `criterion = Loss(...)`, then `criterion.to(device)`
    Node bound = sole_binding(module.text(src_));
    if (!bound || !bound.unparenthesized().is(NodeKind::Call)) return false;
    std::string callee = dotted_text(bound.unparenthesized().field("function"), src_);
    return !callee.empty() && project_.makes_parameters(file_index_, callee);
  }
  return false;
}

Value SemanticModel::parameter_value(Node p, size_t param_index, bool is_forward) const {
  Node type, def;
  if (p.is(NodeKind::DefaultParameter)) {
    def = p.field("value");
  } else if (p.is(NodeKind::TypedDefaultParameter)) {
    type = p.field("type");
    def = p.field("value");
  } else if (p.is(NodeKind::TypedParameter)) {
    type = p.field("type");
  }
  // What compiled callers pass, where they agree.
  bool called = known_ && known_->called(file_index_, function_index_);
  Value passed = called ? known_->parameter(file_index_, function_index_, param_index) : Value::unknown();
  // The annotation, else what a `# type:` comment says of this parameter.
  AnnotationKind kind = AnnotationKind::Other;
  if (type) kind = project_.annotation_kind(file_index_, type);
  else if (param_index < fn_.comment_parameters.size()) kind = fn_.comment_parameters[param_index];
  if (type || kind != AnnotationKind::Other) {
    Value v = Value::unknown();
    switch (kind) {
      case AnnotationKind::Tensor: v = Value::tensor(); break;
      case AnnotationKind::OptionalTensor: v = Value::of(ValueKind::OptionalTensor); break;
      case AnnotationKind::TensorSequence: v = Value::of(ValueKind::TensorSequence); break;
      // Indexed or iterated, either alternative gives tensors, all a tensor sequence promises.
      case AnnotationKind::TensorOrSequence: v = Value::of(ValueKind::TensorSequence); break;
      case AnnotationKind::NonTensor:
        // `timestep: int` that every compiled caller passes a tensor for, or `paddings:
        // tuple[int, int]` a tuple of them, holds tensors when traced (diffusers' schedulers
        // given `t` of `scheduler.timesteps`, EnCodec's padding buffers): what runs, not what the
        // annotation says. Not where a caller's tensor is only presumed one (BEiT hands its
        // module input `window_size` on so).
        if ((passed.is_tensor() || passed.kind == ValueKind::TensorSequence) && !passed.presumed) return passed;
        v = Value::of(ValueKind::Static);
        break;
      // A dict annotated as holding tensors often holds sizes and flags beside them
      // (`data: Dict[str, Tensor]` with `data["hw0_c"] = feat.shape[2:]`: kornia's LoFTR).
      case AnnotationKind::TensorDict:
        v = Value::of(ValueKind::TensorDict);
        v.presumed = true;
        break;
      case AnnotationKind::TensorDictSequence:
        v = Value::of(ValueKind::TensorDictList);
        v.presumed = true;
        break;
      default: break;
    }
    if (v.kind == ValueKind::Tensor && def && def.unparenthesized().is(NodeKind::None)) {
      v = Value::of(ValueKind::OptionalTensor);
    }
    // Tensors with data-dependent rows from any caller (whatever the others pass).
    bool tensor = v.kind == ValueKind::Tensor || v.kind == ValueKind::OptionalTensor ||
                  v.kind == ValueKind::TensorSequence || v.kind == ValueKind::TensorDict ||
                  v.kind == ValueKind::TensorDictList;
    if (v.kind == passed.kind || (tensor && passed.kind == ValueKind::Unknown)) {
      v.data_dependent = passed.data_dependent;
    }
    // `mask: torch.BoolTensor` is a mask; so is `mask: Tensor` (or optional) that every compiled
    // caller passes a bool tensor for. The parameter's own annotation says it first.
    auto maybe_tensor = [](ValueKind k) { return k == ValueKind::Tensor || k == ValueKind::OptionalTensor; };
    if (type && maybe_tensor(v.kind)) v.dtype = annotated_dtype(type, src_, file_.imports);
    if (maybe_tensor(v.kind) && maybe_tensor(passed.kind) && v.dtype == TensorDtype::Unknown) v.dtype = passed.dtype;
    v.frame_input = v.kind == ValueKind::Tensor && !called;
    return v;
  }
  if (def) {
    Node d = def.unparenthesized();
    // `flag=None` that every caller fills with a value drawn from tensor data
    if (passed.kind == ValueKind::Static && passed.data_dependent) return passed;
    if (d.is(NodeKind::None)) {
      // `length=None` that every compiled caller passes a tensor (or its own optional
      // tensor) for: a tensor wherever it is not None.
      if (is_forward || passed.kind == ValueKind::Tensor || passed.kind == ValueKind::OptionalTensor) {
        Value v = Value::of(ValueKind::OptionalTensor);
        v.data_dependent = passed.data_dependent && passed.kind != ValueKind::Unknown;
        v.presumed = (passed.kind != ValueKind::Tensor && passed.kind != ValueKind::OptionalTensor) || passed.presumed;
        return v;
      }
      return Value::of(ValueKind::None);
    }
    if (is_literal(d) || d.is(NodeKind::Tuple) || d.is(NodeKind::UnaryOperator)) return Value::of(ValueKind::Static);
    return Value::unknown();
  }
  if (is_forward) {
    // A module's input is a tensor, unless every compiled caller that
    // calls this sub-module passes a trace-time value (a flag, a size).
    if (passed.kind == ValueKind::Static || passed.kind == ValueKind::None) return passed;
    if (passed.kind == ValueKind::TensorSequence) return passed;  // `self.heads(x, proposals)`
    Value v = Value::tensor();
    v.data_dependent = (passed.is_tensor() || passed.kind == ValueKind::Unknown) && passed.data_dependent;
    v.frame_input = !called;
    v.presumed = !passed.is_tensor() || passed.presumed;
    return v;
  }
  // Unannotated, no default: what every compiled caller passes (a trace-time
  // value too: `window` passed as `self.window` is a constant of the trace).
  if (passed.is_tensor() || passed.kind == ValueKind::TensorSequence || passed.kind == ValueKind::OptionalTensor ||
      passed.kind == ValueKind::Module || passed.kind == ValueKind::Static || passed.kind == ValueKind::TensorDict ||
      passed.kind == ValueKind::TensorDictList) {
    return passed;
  }
  return Value::unknown();
}

// --- names and scopes -------------------------------------------------------------

const CallParts& SemanticModel::call_parts(Node call) const {
  auto it = calls_.find(call.id());
  if (it == calls_.end()) it = calls_.emplace(call.id(), split_call(call, src_)).first;
  return it->second;
}

// Checks ask the meaning of the same callee many times: remember it per node.
std::string SemanticModel::resolve(Node expr) const {
  auto it = resolved_.find(expr.id());
  if (it != resolved_.end()) return it->second;
  std::string r = resolve_uncached(expr);
  resolved_.emplace(expr.id(), r);
  return r;
}

std::string SemanticModel::resolve_uncached(Node expr) const {
  std::string dotted = dotted_text(expr, src_);
  if (dotted.empty()) return {};
  std::string_view head = std::string_view(dotted).substr(0, dotted.find('.'));
  NameScope scope = scope_of(head);
  if (scope == NameScope::Builtin) return "builtins." + dotted;
  if (scope == NameScope::Local && !file_.imports.find(head)) return {};
  if (scope == NameScope::Global) {
    const GlobalFacts* g = global_facts(head);
    int owner = file_index_;
    // `from pkg.log import logger`: the global of the module it comes from.
    if (!g && file_.imports.find(head)) {
      g = project_.module_global_facts(file_.imports.qualify(std::string(head)), &owner);
    }
    if (g && !g->origin.empty() && dotted.size() > head.size()) {
      // logger.info where logger = logging.getLogger(...), or a project's or library's wrapper of it
      std::string origin = project_.is_logger_factory(owner, g->origin) ? std::string("logging.getLogger") : g->origin;
      return origin + "()" + dotted.substr(head.size());
    }
  }
  return file_.imports.qualify(dotted);
}

NameScope SemanticModel::scope_of(std::string_view name) const {
  if (contains(fn_.globals, name)) return NameScope::Global;
  if (contains(fn_.nonlocals, name)) return NameScope::Enclosing;
  if (fn_.locals.count(name) || local(name)) return NameScope::Local;
  for (int p = fn_.parent; p >= 0; p = file_.functions[static_cast<size_t>(p)].parent) {
    if (file_.functions[static_cast<size_t>(p)].locals.count(name)) return NameScope::Enclosing;
  }
  if (file_.globals.count(name) || file_.imports.find(name)) return NameScope::Global;
  return NameScope::Builtin;
}

bool SemanticModel::declared_global(std::string_view name) const { return contains(fn_.globals, name); }
bool SemanticModel::declared_nonlocal(std::string_view name) const { return contains(fn_.nonlocals, name); }
bool SemanticModel::is_mutable_global(std::string_view name) const {
  return project_.is_mutable_global(file_index_, name);
}
bool SemanticModel::is_project_module(std::string_view qualified) const { return project_.has_module(qualified); }

bool SemanticModel::is_mutable_module_attribute(Node attribute) const {
  Node object = attribute.field("object").unparenthesized();
  if (!object.is(NodeKind::Identifier) || !file_.imports.find(object.text(src_))) return false;
  if (scope_of(object.text(src_)) != NameScope::Global) return false;
  std::string q = file_.imports.qualify(attribute, src_);
  return !q.empty() && project_.is_mutable_module_global(q);
}

const GlobalFacts* SemanticModel::global_facts(std::string_view name) const {
  auto it = file_.globals.find(name);
  return it == file_.globals.end() ? nullptr : &it->second;
}

Value SemanticModel::self_attribute(std::string_view attr) const {
  if (cls_ < 0) return Value::unknown();
  Value v = project_.self_attribute({file_index_, cls_}, attr);
  if (v.kind == ValueKind::Module || v.kind == ValueKind::Unknown) {
    ClassRef sub = project_.self_attribute_class({file_index_, cls_}, attr);
    if (sub.valid()) return project_.is_module_class(sub) ? Value::of(ValueKind::Module) : Value::unknown();
  }
  return v;
}

Value SemanticModel::enclosing_value(std::string_view name) const {
  for (int p = fn_.parent; p >= 0; p = file_.functions[static_cast<size_t>(p)].parent) {
    const FunctionInfo& f = file_.functions[static_cast<size_t>(p)];
    auto it = f.first_values.find(name);
    if (it != f.first_values.end()) return it->second;
    if (f.locals.count(name)) return Value::unknown();
  }
  return Value::unknown();
}

bool SemanticModel::closure_in_traced_call(std::string_view name) const {
  // A hook runs in later calls of its module: what it updates outlives the call that made it.
  if (project_.is_hook(file_index_, function_index_)) return false;
  for (int p = fn_.parent; p >= 0; p = file_.functions[static_cast<size_t>(p)].parent) {
    const FunctionInfo& f = file_.functions[static_cast<size_t>(p)];
    if (contains(f.nonlocals, name)) continue;  // bound further out
    if (f.locals.count(name)) return project_.in_region(file_index_, p);
  }
  return false;
}

bool SemanticModel::is_compile_entry() const { return project_.is_compile_entry(file_index_, function_index_); }
bool SemanticModel::in_module_class() const {
  return fn_.cls >= 0 && project_.is_module_class({file_index_, fn_.cls});
}

std::vector<std::string_view> SemanticModel::comparison_operators(Node cmp) const {
  std::vector<std::string_view> out;
  for_each_child(cmp, [&](Node c) {
    if (!c.is_named()) out.push_back(c.text(src_));
  });
  return out;
}

std::string_view SemanticModel::operator_of(Node expr) const {
  Node op = expr.field("operator");
  return op ? op.text(src_) : std::string_view();
}

Value SemanticModel::lookup(Node id) const {
  std::string_view name = id.text(src_);
  if (const Value* v = local(name)) return *v;
  NameScope scope = scope_of(name);
  if (scope == NameScope::Global) {
    const GlobalFacts* g = global_facts(name);
    if (g && !g->is_mutable()) return g->value;
  }
  // A closure's free name: what it held where the enclosing function defined this one.
  if (scope == NameScope::Enclosing && known_ && !contains(fn_.nonlocals, name)) {
    return known_->closure(file_index_, function_index_, name);
  }
  return Value::unknown();
}

void SemanticModel::record_closures(Node def) const {
  if (!record_ || quiet_ > 0) return;
  Node name = def.field("name");
  auto nested = name ? fn_.nested.find(name.text(src_)) : fn_.nested.end();
  if (nested == fn_.nested.end()) return;
  const FunctionInfo& inner = file_.functions[static_cast<size_t>(nested->second)];
  std::unordered_set<std::string_view> seen;
  auto visit = [&](auto&& self, Node n) -> void {
    if (n.is(NodeKind::Identifier)) {
      Node p = n.parent();
      // `obj.name` and `f(name=...)` name no variable.
      if (p && ((p.is(NodeKind::Attribute) && p.field("attribute") == n) ||
                (p.is(NodeKind::KeywordArgument) && p.field("name") == n))) {
        return;
      }
      std::string_view id = n.text(src_);
      if (!seen.insert(id).second || inner.locals.count(id) || contains(inner.nonlocals, id) ||
          contains(inner.globals, id) || contains(fn_.nonlocals, id)) {
        return;
      }
      NameScope scope = scope_of(id);
      if (scope != NameScope::Local && scope != NameScope::Enclosing) return;
      Value v = lookup(n);
      // As for an argument: Dynamo broke where a value was drawn from data.
      if (v.is_tensor_data()) {
        v = Value::of(ValueKind::Static);
        v.data_dependent = true;
      }
      if (v.kind != ValueKind::Unknown) record_->record_closure(file_index_, nested->second, id, v);
      return;
    }
    for (Node c : NamedChildren(n)) self(self, c);
  };
  if (Node body = def.field("body")) visit(visit, body);
}

Value SemanticModel::target_value(Node t) const {
  t = t.unparenthesized();
  if (t.is(NodeKind::Identifier)) return lookup(t);
  if (t.is(NodeKind::Attribute)) return attribute_value(t);
  if (t.is(NodeKind::Subscript)) return subscript_value(t);
  return Value::unknown();
}

// --- bindings --------------------------------------------------------------------

namespace {

// Whether an identifier whose parent is `p` is bound there other than by a
// plain assignment (augmented, loop, with, walrus, unpacking, del, parameter).
bool binds_otherwise(Node p) {
  return p.is(NodeKind::AugmentedAssignment) || p.is(NodeKind::ForStatement) || p.is(NodeKind::NamedExpression) ||
         p.is(NodeKind::PatternList) || p.is(NodeKind::TuplePattern) || p.is(NodeKind::AsPatternTarget) ||
         p.is(NodeKind::DeleteStatement) || p.is(NodeKind::Parameters) || p.is(NodeKind::DefaultParameter) ||
         p.is(NodeKind::TypedParameter) || p.is(NodeKind::TypedDefaultParameter);
}

}  // namespace

Node SemanticModel::sole_binding(std::string_view name) const {
  int count = binding_count(name);
  return count == 1 ? bindings_->find(name)->second.value : Node();
}

int SemanticModel::binding_count(std::string_view name) const {
  if (!bindings_) {
    bindings_.emplace();
    auto visit = [&](auto&& self, Node n) -> void {
      if (n.is(NodeKind::FunctionDefinition) || n.is(NodeKind::Lambda) || n.is(NodeKind::ClassDefinition)) return;
      if (n.is(NodeKind::Identifier)) {
        Node p = n.parent();
        if (!p) return;
        if (p.is(NodeKind::Assignment) && p.field("left") == n && !p.field("type")) {
          Bindings& b = (*bindings_)[n.text(src_)];
          ++b.count;
          b.value = p.field("right");
        } else if (!(p.is(NodeKind::Attribute) && !(p.field("object") == n)) && binds_otherwise(p)) {
          (*bindings_)[n.text(src_)].count += 2;
        }
        return;
      }
      for_each_child(n, [&](Node c) { self(self, c); });
    };
    if (Node params = fn_.node.field("parameters")) visit(visit, params);
    if (Node body = fn_.node.field("body")) visit(visit, body);
  }
  auto it = bindings_->find(name);
  return it == bindings_->end() ? 0 : it->second.count;
}

}  // namespace fxlint

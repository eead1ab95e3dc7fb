// What an expression holds, from what its parts hold: the typing half of the
// semantic model (semantic_model.cpp holds names, scopes and binding).
#include <set>
#include <unordered_map>

#include "analyzer/parameter_name.h"
#include "analyzer/semantic_model.h"
#include "analyzer/torch_api.h"

namespace fxlint {

namespace {

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

Value combine_kinds(const Value& a, const Value& b, bool bitwise, bool comparison) {
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

// A string literal: no tensor operation takes one.
bool is_string(Node n) { return n.is(NodeKind::String) || n.is(NodeKind::ConcatenatedString); }

// Tensor methods whose result keeps the receiver's dtype.
bool keeps_dtype(std::string_view method) {
  static const std::unordered_map<std::string_view, bool> keeps = {
      {"clone", true}, {"contiguous", true}, {"detach", true}, {"view", true}, {"reshape", true},
      {"flatten", true}, {"squeeze", true}, {"unsqueeze", true}, {"permute", true}, {"transpose", true},
      {"expand", true}, {"expand_as", true}, {"repeat", true}, {"t", true}, {"flip", true},
      {"view_as", true}, {"reshape_as", true}, {"__getitem__", true}, {"cpu", true}, {"cuda", true},
      {"narrow", true}, {"roll", true}, {"masked_fill", true}, {"index_select", true}, {"gather", true}};
  return keeps.count(method) > 0;
}

// What an operand holds where the operation succeeds: an operator, an
// attribute, a method or a subscript on None raises, so an optional tensor
// that gets through one is a tensor.
Value operand(Value v) {
  if (v.kind == ValueKind::OptionalTensor) v.kind = ValueKind::Tensor;  // its dtype and facts stay
  return v;
}

}  // namespace

// Saves the environment and puts it back on exit, with its state number, so
// what was inferred under it stays valid.
class SemanticModel::Scope {
 public:
  explicit Scope(const SemanticModel& m) : m_(m), env_(m.env_), state_(m.state_) {}
  ~Scope() {
    m_.env_ = std::move(env_);
    m_.state_ = state_;
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  const SemanticModel& m_;
  Env env_;
  uint64_t state_;
};

Value SemanticModel::value_of(Node expr) const {
  switch (expr.kind()) {
    case NodeKind::Identifier: return lookup(expr);
    case NodeKind::None: return Value::of(ValueKind::None);
    case NodeKind::Integer: case NodeKind::Float: case NodeKind::True: case NodeKind::False:
    case NodeKind::String:
      return Value::of(ValueKind::Static);
    default:
      break;
  }
  if (!expr || !expr.is_named()) return Value::unknown();
  if (const Value* walked = walked_.find(expr.id())) return *walked;
  return infer(expr);
}

Value SemanticModel::infer(Node expr) const {
  if (const Inferred* known = inferred_.find(expr.id()); known && known->state == state_) return known->value;
  uint64_t state = state_;
  ++quiet_;
  Value v = type_of(expr);
  --quiet_;
  inferred_.set(expr.id(), {state, v});
  return v;
}

Value SemanticModel::type_of(Node e) const {
  switch (e.kind()) {
    case NodeKind::Identifier:
      return lookup(e);
    case NodeKind::Integer: case NodeKind::Float: case NodeKind::String: case NodeKind::ConcatenatedString:
    case NodeKind::True: case NodeKind::False: case NodeKind::Ellipsis: case NodeKind::Slice:
      return Value::of(ValueKind::Static);
    case NodeKind::None:
      return Value::of(ValueKind::None);
    case NodeKind::ParenthesizedExpression: {
      Value v = Value::unknown();
      for (Node c : NamedChildren(e)) v = value_of(c);
      return v;
    }
    case NodeKind::Attribute:
      return attribute_value(e);
    case NodeKind::Subscript:
      return subscript_value(e);
    case NodeKind::Call:
      return call_value(e);
    case NodeKind::BinaryOperator: {
      std::string_view o = operator_of(e);
      Value left = operand(value_of(e.field("left"))), right = operand(value_of(e.field("right")));
      Value v = combine(left, right, o == "&" || o == "|" || o == "^", false);
      // Two boolean tensors multiply and add to one: `mask_a * mask_b` is their `&`.
      if ((o == "*" || o == "+") && left.is_bool_tensor() && right.is_bool_tensor()) v.dtype = TensorDtype::Bool;
      // Arithmetic on what may be a number gives what may be a number.
      v.presumed = v.is_tensor() && (left.presumed || right.presumed);
      return v;
    }
    case NodeKind::ComparisonOperator:
      return comparison_value(e);
    case NodeKind::BooleanOperator:
      return boolean_value(e);
    case NodeKind::NotOperator: {
      Value v = value_of(e.field("argument"));
      return v.is_tensor_data() ? v : Value::of(ValueKind::Static);
    }
    case NodeKind::UnaryOperator:
      return value_of(e.field("argument"));
    case NodeKind::ConditionalExpression: {
      std::vector<Node> parts = e.children();
      if (parts.size() != 3) return Value::unknown();
      return join(value_of(parts[0]), value_of(parts[2]));
    }
    case NodeKind::Tuple: case NodeKind::List: case NodeKind::ExpressionList: case NodeKind::Set: {
      // Data-dependent only when every element is: an element read out of it is then one.
      bool all_tensor = true, all_static = true, any = false, data_dependent = true, presumed = false;
      for (Node c : NamedChildren(e)) {
        any = true;
        Value v = value_of(c);
        all_tensor = all_tensor && v.is_tensor();
        presumed = presumed || v.presumed;
        all_static = all_static && v.kind == ValueKind::Static && !v.data_dependent;
        data_dependent = data_dependent && v.data_dependent;
      }
      if (!any && e.is(NodeKind::List)) return Value::of(ValueKind::EmptyList);
      // `(2, 4)`: known when tracing, as a number is. A list stays unknown: a
      // mutable container stored on `self` is FX204's, not a frozen scalar.
      if (any && all_static && !e.is(NodeKind::List) && !e.is(NodeKind::Set)) return Value::of(ValueKind::Static);
      if (any && !all_tensor) return dicts_value(e);
      Value r = any ? Value::of(ValueKind::TensorSequence) : Value::unknown();
      r.data_dependent = r.kind == ValueKind::TensorSequence && data_dependent;
      r.presumed = r.kind == ValueKind::TensorSequence && presumed;
      return r;
    }
    case NodeKind::Dictionary: {
      // `{"boxes": b, "scores": s}`: a dict of tensors when every entry is one.
      Value r = Value::unknown();
      bool first = true;
      for (Node c : NamedChildren(e)) {
        if (std::string_view(c.type()) != "pair") return Value::unknown();
        Value v = value_of(c.field("value"));
        if (!v.is_tensor()) return Value::unknown();
        r = holding(ValueKind::TensorDict, r, v, first);
        first = false;
      }
      return r;
    }
    case NodeKind::ListComprehension: case NodeKind::SetComprehension: case NodeKind::DictionaryComprehension:
    case NodeKind::GeneratorExpression:
      return comprehension_value(e);
    case NodeKind::NamedExpression:
    case NodeKind::KeywordArgument:
      return value_of(e.field("value"));
    default:
      return Value::unknown();
  }
}

// `[d1, d2]` of dicts of tensors; unknown otherwise.
Value SemanticModel::dicts_value(Node e) const {
  Value r = Value::unknown();
  bool first = true;
  for (Node c : NamedChildren(e)) {
    Value v = value_of(c);
    if (v.kind != ValueKind::TensorDict) return Value::unknown();
    r = holding(ValueKind::TensorDictList, r, v, first);
    first = false;
  }
  return r;
}

Value SemanticModel::unpacked_element(Node value_node, const Value& v, size_t index, size_t count) const {
  Node call = value_node ? value_node.unparenthesized() : Node();
  if (known_ && call.is(NodeKind::Call)) {
    // `boxes, losses = self.rpn(x)`: what the callee's `return boxes, losses` gave.
    if (auto it = callees_.find(call.id()); it != callees_.end()) {
      std::optional<ArgumentTypes::Returned> r = returned_to(call, it->second);
      if (r && r->elements.size() == count && r->elements[index].kind != ValueKind::Unknown) return r->elements[index];
      // What the callee's `-> Tuple[Tensor, Tensor]` declares, where its body does not tell.
      const FunctionInfo& callee = project_.file(it->second.file).functions[static_cast<size_t>(it->second.function)];
      if (callee.return_elements.size() == count && callee.return_elements[index] == AnnotationKind::Tensor) {
        return Value::tensor();
      }
      if (r && r->elements.size() == count) return r->elements[index];
    }
  }
  if (v.is_tensor() && call.is(NodeKind::Call)) {
    // A module's forward or a project function typed as returning a tensor
    // often returns a tuple (`emb, h, w = self.patch_embed(x)`); only torch's
    // own functions and tensor methods are known to give a tensor here.
    Node callee = call.field("function").unparenthesized();
    bool tensor_method = callee.is(NodeKind::Attribute) && value_of(callee.field("object")).is_tensor();
    if (!tensor_method && !resolve(callee).starts_with("torch.")) return Value::unknown();
  }
  return element_of(v);
}

Value SemanticModel::combine(const Value& a, const Value& b, bool bitwise, bool comparison) {
  Value v = combine_kinds(a, b, bitwise, comparison);
  auto known = [](const Value& x) { return x.kind == ValueKind::Static || (x.is_tensor() && x.static_data); };
  if (v.is_tensor() && known(a) && known(b)) v.static_data = true;
  // A shape from data broadcasts into the result; a size from data stays one.
  if (v.is_tensor()) v.data_dependent = (a.is_tensor() && a.data_dependent) || (b.is_tensor() && b.data_dependent);
  if (v.kind == ValueKind::Static) {
    v.data_dependent =
        (a.kind == ValueKind::Static && a.data_dependent) || (b.kind == ValueKind::Static && b.data_dependent);
  }
  return v;
}

Value SemanticModel::comparison_value(Node e) const {
  Value acc = Value::of(ValueKind::Static);
  bool any_tensor = false, any_data = false, any_data_dependent = false;
  // `<` and friends raise on None (`==` does not): their operands are tensors.
  bool ordering = true;
  for (std::string_view op : comparison_operators(e)) ordering = ordering && (op == "<" || op == ">" || op == "<=" || op == ">=");
  for (Node p : e.children()) {
    Value v = ordering ? operand(value_of(p)) : value_of(p);
    any_tensor = any_tensor || v.is_tensor();
    any_data = any_data || v.is_tensor_data();
    any_data_dependent = any_data_dependent || ((v.is_tensor() || v.kind == ValueKind::Static) && v.data_dependent);
    if (v.kind != ValueKind::Static && v.kind != ValueKind::None && !v.is_tensor() && !v.is_tensor_data()) {
      acc = Value::unknown();
    }
  }
  // `is`, `is not`, `in`, `not in`: a Python bool, never a tensor.
  for (std::string_view op : comparison_operators(e)) {
    if (op.starts_with("is") || op.ends_with("in")) return Value::of(ValueKind::Static);
  }
  // A tensor `==` / `!=` a string is a Python bool (`cache != "Rep"`): no tensor op takes strings.
  for (Node p : e.children()) {
    if (is_string(p)) return Value::of(ValueKind::Static);
  }
  Value r = any_tensor ? Value::tensor(TensorDtype::Bool)
            : any_data ? Value::of(ValueKind::TensorData)
            : acc.kind == ValueKind::Unknown ? Value::unknown() : Value::of(ValueKind::Static);
  if (r.is_tensor() || r.kind == ValueKind::Static) r.data_dependent = any_data_dependent;
  if (r.kind == ValueKind::Static && r.data_dependent) {
    // The same comparison of the same value, tested on every path before: decided there.
    if (auto [name, hash] = literal_comparison(e); hash) {
      const Value* v = local(name);
      r.truth_decided = v && v->decided_comparison == hash;
    }
  }
  return r;
}

// The right operand runs only when the left is true (and) / false (or).
Value SemanticModel::boolean_value(Node e) const {
  Node left = e.field("left");
  Value l = value_of(left);
  Value r;
  {
    Scope scope(*this);
    narrow_names(left, operator_of(e) != "or");
    r = value_of(e.field("right"));
  }
  if (l.kind == ValueKind::Static && r.kind == ValueKind::Static) return Value::of(ValueKind::Static);
  return join(l, r);
}

Value SemanticModel::comprehension_value(Node e) const {
  Scope scope(*this);
  for (Node c : NamedChildren(e)) {
    if (c.is(NodeKind::ForInClause)) bind_loop_target(c.field("left"), c.field("right"));
  }
  Node body = e.field("body");
  if (!body || e.is(NodeKind::DictionaryComprehension) || e.is(NodeKind::SetComprehension)) return Value::unknown();
  Value element = value_of(body);
  if (element.is_tensor() || element.kind == ValueKind::TensorDict) {
    Value r = Value::of(element.is_tensor() ? ValueKind::TensorSequence : ValueKind::TensorDictList);
    r.dtype = element.dtype;
    r.data_dependent = element.data_dependent;
    return r;
  }
  // `[b.size(0) for b in boxes]`: sizes, each drawn from data when the tensors' rows are;
  // `[v + 1 for v in t.tolist()]`: values read from tensor data.
  if ((element.kind == ValueKind::Static || element.is_tensor_data()) && !e.is(NodeKind::GeneratorExpression)) {
    return element;
  }
  return Value::unknown();
}

ClassRef SemanticModel::attribute_chain_class(Node expr, int depth) const {
  if (cls_ < 0 || depth > 8) return {};
  expr = expr.unparenthesized();
  if (expr.is(NodeKind::Identifier)) {
    return !self_.empty() && expr.text(src_) == self_ ? ClassRef{file_index_, cls_} : ClassRef{};
  }
  if (!expr.is(NodeKind::Attribute)) return {};
  ClassRef owner = attribute_chain_class(expr.field("object"), depth + 1);
  Node name = expr.field("attribute");
  return owner.valid() && name ? project_.self_attribute_class(owner, name.text(src_)) : ClassRef{};
}

Value SemanticModel::attribute_value(Node attr) const {
  Node object = attr.field("object").unparenthesized();
  Node name = attr.field("attribute");
  if (!name) return Value::unknown();
  std::string_view a = name.text(src_);
  if (object.is(NodeKind::Identifier) && !self_.empty() && object.text(src_) == self_) {
    if (a == "training") return Value::of(ValueKind::Static);
    return self_attribute(a);
  }
  // `self.policy.head.buffer`: an attribute of a project sub-module, through its class.
  if (object.is(NodeKind::Attribute)) {
    ClassRef owner = attribute_chain_class(object, 0);
    if (owner.valid()) {
      if (a == "training") return Value::of(ValueKind::Static);
      Value v = project_.self_attribute(owner, a);
      if (v.kind == ValueKind::Module || v.kind == ValueKind::Unknown) {
        ClassRef sub = project_.self_attribute_class(owner, a);
        if (sub.valid()) return project_.is_module_class(sub) ? Value::of(ValueKind::Module) : Value::unknown();
      }
      return v;
    }
  }
  Value ov = operand(value_of(object));
  if (ov.kind == ValueKind::Tensor) {
    Value r = torch_api::tensor_attribute(a);
    if (a == "shape" && r.kind == ValueKind::Static) r.data_dependent = ov.data_dependent;
    return r;
  }
  if (ov.kind == ValueKind::Static) return Value::of(ValueKind::Static);
  if (ov.kind == ValueKind::TensorData) return Value::of(ValueKind::TensorData);
  if (a == "shape" || a == "ndim") return Value::of(ValueKind::Static);
  std::string q = resolve(attr);
  if (q.starts_with("torch.") && dtype_from_expr(q) != TensorDtype::Unknown) return Value::of(ValueKind::Static);
  return Value::unknown();
}

Value SemanticModel::subscript_value(Node sub) const {
  Value base = operand(value_of(sub.field("value")));
  Node index = sub.field("subscript");
  Node first = index ? index.unparenthesized() : Node();
  bool whole_first_dim = first && (first.is(NodeKind::Slice) || first.is(NodeKind::Ellipsis));
  switch (base.kind) {
    case ValueKind::Tensor: {  // x[mask] stays bool only if x is; x[idx] keeps x's dtype
      // A tensor takes no string index: `x["instances"]` says `x` was no tensor.
      if (first && is_string(first)) return Value::unknown();
      Value r = Value::tensor(base.dtype);
      // A mask or an index tensor of data-dependent length selects that many
      // rows; a slice keeps the rows there are.
      Value iv = first ? value_of(first) : Value::unknown();
      r.data_dependent = iv.is_bool_tensor() || (iv.is_tensor() && iv.data_dependent) ||
                         (base.data_dependent && whole_first_dim);
      r.presumed = base.presumed;  // `data["hw"][0]` of a dict that may hold a size
      return r;
    }
    case ValueKind::TensorSequence: {
      if (first && first.is(NodeKind::Slice)) return base;  // `xs[1:]` is a list still
      Value r = Value::tensor(base.dtype);
      r.data_dependent = base.data_dependent;  // torch.where(m)[0]
      r.presumed = base.presumed;
      return r;
    }
    case ValueKind::Static: {
      // `cfg["boxes"]`: an entry of a Python dict, which may hold anything.
      if (first && first.is(NodeKind::String)) return Value::unknown();
      Value r = Value::of(ValueKind::Static);
      // x.shape[0] of a tensor with data-dependent rows
      bool rows = first && (first.is(NodeKind::Slice) || (first.is(NodeKind::Integer) && first.text(src_) == "0"));
      r.data_dependent = base.data_dependent && rows;
      return r;
    }
    case ValueKind::TensorDict:
      return entry_of(base);
    case ValueKind::TensorDictList:
      return whole_first_dim ? base : element_of(base);
    case ValueKind::TensorData:
    case ValueKind::Module:
      return Value::of(base.kind);
    default:
      return Value::unknown();
  }
}

namespace {

Node keyword_argument(const std::vector<Node>& args, std::string_view key, std::string_view src) {
  for (Node x : args) {
    if (!x.is(NodeKind::KeywordArgument)) continue;
    Node n = x.field("name");
    if (n && n.text(src) == key) return x.field("value");
  }
  return Node();
}

// `nonzero(as_tuple=True)`: one index tensor per dimension, each as long as the count of
// nonzero elements, as `torch.where(m)` gives.
bool nonzero_as_tuple(const std::vector<Node>& args, std::string_view src) {
  Node v = keyword_argument(args, "as_tuple", src);
  return v && v.unparenthesized().is(NodeKind::True);
}

Value index_tensors_of_data() {
  Value r = Value::of(ValueKind::TensorSequence);
  r.dtype = TensorDtype::Integer;
  r.data_dependent = true;
  return r;
}

}  // namespace

Value SemanticModel::call_value(Node call) const {
  Node callee = call.field("function").unparenthesized();
  Node args = call.field("arguments");
  std::vector<Node> a = args ? args.children() : std::vector<Node>{};
  std::vector<Node> positional;
  for (Node x : a) {
    if (!x.is(NodeKind::KeywordArgument) && !x.is(NodeKind::ListSplat) && !x.is(NodeKind::DictionarySplat)) {
      positional.push_back(x);
    }
  }
  if (callee.is(NodeKind::Attribute)) {
    Node object = callee.field("object").unparenthesized();
    std::string_view method = callee.field("attribute").text(src_);
    Value ov = operand(value_of(object));
    if (ov.kind == ValueKind::Tensor) {
      if (method == "nonzero" && nonzero_as_tuple(a, src_)) return index_tensors_of_data();
      Value r = tensor_method_value(method, ov, positional, a);
      if (r.kind == ValueKind::Static && (method == "numel" || method == "size")) {
        // The number of rows of a tensor whose rows depend on data.
        bool rows = method == "numel" || positional.empty() ||
                    (positional[0].is(NodeKind::Integer) && positional[0].text(src_) == "0");
        r.data_dependent = ov.data_dependent && rows && (method == "numel" || positional.size() <= 1);
      } else if (r.is_tensor() || r.kind == ValueKind::TensorSequence) {
        bool full_reduction = torch_api::is_reduction(method) && a.empty();
        // `output_size=` gives the length up front: the shape no longer depends on the repeats.
        bool tensor_repeats = method == "repeat_interleave" && !positional.empty() &&
                              value_of(positional[0]).is_tensor() && !output_size_given(a);
        r.data_dependent =
            torch_api::is_dynamic_shape_method(method) || tensor_repeats || (ov.data_dependent && !full_reduction);
      }
      return r;
    }
    if (ov.kind == ValueKind::TensorSequence && (method == "index" || method == "count")) {
      return Value::of(ValueKind::Static);
    }
    // Shape queries are shape-level whatever the receiver turns out to be.
    if (method == "size" || method == "dim" || method == "ndimension" || method == "numel") {
      return Value::of(ValueKind::Static);
    }
    if (ov.kind == ValueKind::Static) {
      // A Python container is state known at trace time; what its entries hold is not
      // (`self._stats = dict(**kwargs)` holds tensors).
      bool entries = method == "items" || method == "values" || method == "get" || method == "pop" ||
                     method == "setdefault" || method == "popitem";
      return entries ? Value::unknown() : Value::of(ValueKind::Static);
    }
    if (ov.kind == ValueKind::TensorData) return Value::of(ValueKind::TensorData);
    // `self.model.encoder(x)`: a sub-module of a project sub-module, called.
    if (ClassRef owner = object.is(NodeKind::Attribute) ? attribute_chain_class(object, 0) : ClassRef{};
        owner.valid() && !project_.find_method(owner, method).valid()) {
      ClassRef sub = project_.self_attribute_class(owner, method);
      if (sub.valid() && project_.is_module_class(sub)) {
        FunctionRef forward = project_.find_method(sub, "forward");
        if (!forward.valid()) return Value::tensor();
        record_call(call, forward);
        return project_result(call, forward, Value::tensor());
      }
      if (!sub.valid() && project_.self_attribute(owner, method).kind == ValueKind::Module) return Value::tensor();
    }
    if (ov.kind == ValueKind::Module) {
      if (method == "forward" || method == "__call__") return record_module_call(call, object);
      if (std::optional<Value> r = instance_method_value(call, object, method)) return *r;
      // `self.transform.postprocess(...)`: a method of the sub-module's project class.
      return attribute_method_value(call, object, method).value_or(Value::unknown());
    }
    if (object.is(NodeKind::Identifier) && !self_.empty() && object.text(src_) == self_ && cls_ >= 0) {
      return method_call_value(call, callee);
    }
    if (std::optional<Value> r = attribute_method_value(call, object, method)) return *r;
    if (std::optional<Value> r = instance_method_value(call, object, method)) return *r;
  }
  return function_call_value(call, callee, positional, a);
}

// What method `method` of a tensor `ov` gives, from its name and arguments.
Value SemanticModel::tensor_method_value(std::string_view method, const Value& ov, const std::vector<Node>& positional,
                                         const std::vector<Node>& a) const {
  if (method == "to" || method == "type") {
    for (Node x : positional) {
      TensorDtype d = dtype_from_expr(resolve(x));
      if (d != TensorDtype::Unknown) return Value::tensor(d);
    }
    if (method == "type" && positional.empty() && !keyword_argument(a, "dtype", src_)) {
      return Value::of(ValueKind::Static);
    }
    return with_dtype_keyword(Value::tensor(ov.dtype), a);
  }
  // An array TorchDynamo keeps in the graph: what a tensor of its elements would be.
  if (method == "numpy" && target_.numpy_as_tensors) {
    made_arrays_ = true;
    return Value::tensor(ov.dtype);
  }
  // An array's own methods, which no tensor has (`a.astype(np.uint8)`): an array still.
  if ((method == "astype" || method == "copy") && target_.numpy_as_tensors) return Value::tensor();
  Value r = torch_api::tensor_method_result(method);
  // Read out of a tensor built only from trace-time values: known at trace time.
  if (r.is_tensor_data() && ov.static_data) return Value::of(ValueKind::Static);
  if (r.is_tensor() && r.dtype == TensorDtype::Unknown && keeps_dtype(method)) r.dtype = ov.dtype;
  // `x.new_ones(n, dtype=torch.bool)`, `x.new_zeros(...)`, `x.new_full(...)`.
  if (r.is_tensor() && method.starts_with("new_")) r = with_dtype_keyword(r, a);
  if ((method == "max" || method == "min") && (!positional.empty() || keyword_argument(a, "dim", src_))) {
    return Value::of(ValueKind::TensorSequence);
  }
  return r;
}

// A tensor with the dtype a `dtype=` keyword among `args` names, when it names one.
Value SemanticModel::with_dtype_keyword(Value v, const std::vector<Node>& args) const {
  if (Node d = keyword_argument(args, "dtype", src_)) {
    TensorDtype dt = dtype_from_expr(resolve(d));
    if (v.is_tensor() && dt != TensorDtype::Unknown) v.dtype = dt;
  }
  return v;
}

// A call of a function: torch's, a builtin, or the project's.
Value SemanticModel::function_call_value(Node call, Node callee, const std::vector<Node>& positional,
                                         const std::vector<Node>& a) const {
  std::string q = resolve(callee);
  if (q.starts_with("builtins.")) return builtin_call_value(std::string_view(q).substr(9), positional);
  if (q == "torch.where" && positional.size() == 1 && !keyword_argument(a, "input", src_)) {
    Value r = Value::of(ValueKind::TensorSequence);
    r.data_dependent = true;
    return r;
  }
  if (q == "torch.nonzero" && nonzero_as_tuple(a, src_)) return index_tensors_of_data();
  if ((q == "torch.scalar_tensor" || q == "torch.tensor" || q == "torch.as_tensor") && !positional.empty() &&
      value_of(positional[0]).kind == ValueKind::Static) {
    Value r = with_dtype_keyword(Value::tensor(), a);
    r.static_data = true;
    return r;
  }
  // `torch.as_tensor(keep, device=d)` of a tensor is that tensor, moved (or cast by `dtype=`).
  if ((q == "torch.as_tensor" || q == "torch.asarray" || q == "torch.tensor") && !positional.empty()) {
    if (Value v = value_of(positional[0]); v.is_tensor()) return with_dtype_keyword(v, a);
  }
  // einops' `rearrange(mask, "b n -> (b n)")` and `repeat`: the same elements in another
  // layout, so a mask stays a mask (a list of tensors is stacked first).
  if ((q == "einops.rearrange" || q == "einops.repeat") && !positional.empty()) {
    Value v = value_of(positional[0]);
    if (v.is_tensor() || v.kind == ValueKind::TensorSequence) {
      Value r = Value::tensor(v.dtype);
      r.data_dependent = v.data_dependent;
      return r;
    }
  }
  if (target_.numpy_as_tensors && q.starts_with("numpy.") && !q.starts_with("numpy.random.")) {
    if (std::optional<Value> r = traced_numpy_call_value(q, a)) return *r;
  }
  if (q.starts_with("torch.") || q.starts_with("torchvision.")) {
    Value r = torch_api::call_result(q);
    if (r.is_tensor()) {
      if (q == "torch.where" && positional.size() == 3) {
        auto boolean = [&](Node n) { return n.is(NodeKind::True) || n.is(NodeKind::False) || value_of(n).is_bool_tensor(); };
        if (boolean(positional[1]) && boolean(positional[2])) r.dtype = TensorDtype::Bool;
      }
      // `torch.flatten(mask)` keeps the mask's dtype, as `mask.flatten()` does.
      std::string_view name = std::string_view(q).substr(q.rfind('.') + 1);
      if (r.dtype == TensorDtype::Unknown && !positional.empty() && keeps_dtype(name) &&
          q.find('.', 6) == std::string::npos) {
        r.dtype = value_of(positional[0]).dtype;
      }
      if ((q == "torch.cat" || q == "torch.stack" || q == "torch.clone") && !positional.empty()) {
        r.dtype = value_of(positional[0]).dtype;
      }
      if (q == "torch.full_like" || q == "torch.zeros_like" || q == "torch.ones_like" || q == "torch.empty_like") {
        if (!positional.empty()) r.dtype = value_of(positional[0]).dtype;
      }
      r = with_dtype_keyword(r, a);
      if (torch_api::is_pure_arithmetic(q) && !positional.empty()) {
        bool known = true;
        for (Node x : a) {
          Value v = value_of(x.is(NodeKind::KeywordArgument) ? x.field("value") : x);
          known = known && (v.kind == ValueKind::Static || (v.is_tensor() && v.static_data));
        }
        r.static_data = known;
      }
    }
    // torchvision's own functions, linted with it: they learn what their
    // callers pass, and give the tensor they declare.
    if (q.starts_with("torchvision.")) {
      std::string written = dotted_text(callee, src_);
      FunctionRef f =
          written.empty() ? FunctionRef{} : project_.resolve_function(file_index_, function_index_, written);
      if (f.valid()) {
        record_call(call, f);
        const FunctionInfo& info = project_.file(f.file).functions[static_cast<size_t>(f.function)];
        if (r.kind == ValueKind::Unknown) r = project_result(call, f, info.returns_tensor ? Value::tensor() : r);
      }
    }
    if (r.is_tensor() || r.kind == ValueKind::TensorSequence) {
      r.data_dependent = data_dependent_result(q, positional, a);
    }
    return r;
  }
  // A project class constructed, or a project function returning tensors.
  std::string written = dotted_text(callee, src_);
  if (!written.empty()) {
    ClassRef c = project_.resolve_class(file_index_, written);
    if (c.valid()) return project_.is_module_class(c) ? Value::of(ValueKind::Module) : Value::unknown();
    if (FunctionRef forward = project_.autograd_forward(file_index_, written); forward.valid()) {
      record_call(call, forward, false, 1);  // after `ctx`
      return project_result(call, forward, Value::tensor(), false, 1);
    }
    FunctionRef f = project_.resolve_function(file_index_, function_index_, written);
    if (f.valid()) {
      record_call(call, f);
      return project_result(
          call, f, project_.file(f.file).functions[static_cast<size_t>(f.function)].returns_tensor ? Value::tensor()
                                                                                                  : Value::unknown());
    }
  }
  if (callee.is(NodeKind::Identifier) && value_of(callee).kind == ValueKind::Module) {
    return record_module_call(call, callee);
  }
  // self.blocks[i](x): of a project class, or a torch.nn one (`nn.ModuleList([nn.Linear(...)])`).
  if (callee.is(NodeKind::Subscript) && (module_class_of(callee).valid() || value_of(callee).kind == ValueKind::Module)) {
    return record_module_call(call, callee);
  }
  return Value::unknown();
}

// A NumPy function TorchDynamo runs in its graph on an array of it (`np.cumsum(a)`): an
// array of the graph, except what answers with a shape, a type or a dtype's limits. Nothing
// when no argument is such an array: on values known when tracing Dynamo makes an array too,
// and breaks at a branch on it, but reads a number out of one without a break or with one
// (`int(np.ceil(n / 3))` none, `int(np.prod(shape))` one), so it is not analyzed.
std::optional<Value> SemanticModel::traced_numpy_call_value(std::string_view q, const std::vector<Node>& a) const {
  std::string_view name = q.substr(6);
  if (name == "shape" || name == "ndim" || name == "size" || name == "result_type" || name == "isscalar" ||
      name == "issubdtype" || name == "finfo" || name == "iinfo" || name == "dtype" || name.starts_with("float") ||
      name.starts_with("int") || name.starts_with("uint") || name.starts_with("bool") ||
      name.starts_with("complex") || name.find('.') != std::string_view::npos) {
    return std::nullopt;
  }
  bool array = false;
  for (Node x : a) {
    if (x.is(NodeKind::ListSplat) || x.is(NodeKind::DictionarySplat)) continue;
    Value v = value_of(x.is(NodeKind::KeywordArgument) ? x.field("value") : x);
    array = array || v.is_tensor() || v.kind == ValueKind::TensorSequence;
  }
  if (!array) return std::nullopt;
  made_arrays_ = true;
  return Value::tensor();
}

const FunctionInfo* SemanticModel::called_project_function(Node call) const {
  std::string written = dotted_text(call.field("function"), src_);
  if (written.empty()) return nullptr;
  Node callee = call.field("function").unparenthesized();
  Node object = callee.is(NodeKind::Attribute) ? callee.field("object").unparenthesized() : Node();
  bool self_method = cls_ >= 0 && !self_.empty() && object.is(NodeKind::Identifier) && object.text(src_) == self_;
  FunctionRef f = self_method ? project_.find_method({file_index_, cls_}, callee.field("attribute").text(src_))
                              : project_.resolve_function(file_index_, function_index_, written);
  return f.valid() ? &project_.file(f.file).functions[static_cast<size_t>(f.function)] : nullptr;
}

bool SemanticModel::output_size_given(const std::vector<Node>& arguments) const {
  Node size = keyword_argument(arguments, "output_size", src_);
  if (!size || size.unparenthesized().is(NodeKind::None)) return false;
  ValueKind k = value_of(size).kind;
  if (k == ValueKind::None || k == ValueKind::OptionalTensor) return false;
  // A parameter that defaults to None (PyG's `output_size: Optional[int] = None`, passed on as
  // `output_size=output_size`) may leave the length to the repeats.
  Node v = size.unparenthesized();
  Node params = v.is(NodeKind::Identifier) && fn_.node ? fn_.node.field("parameters") : Node();
  if (!params) return true;
  for (Node p : NamedChildren(params)) {
    Node name = parameter_name(p);
    if (!name || name.text(src_) != v.text(src_)) continue;
    Node def = p.field("value");
    return !def || !def.unparenthesized().is(NodeKind::None);
  }
  return true;
}

bool SemanticModel::output_size_given(Node call) const {
  Node args = call.field("arguments");
  return args && output_size_given(args.children());
}

// Whether torch function `q` gives a result of data-dependent shape: it makes
// one (FX303), or it maps such a tensor elementwise or row by row.
bool SemanticModel::data_dependent_result(std::string_view q, const std::vector<Node>& positional,
                                          const std::vector<Node>& a) const {
  if (torch_api::is_dynamic_shape_function(q)) return true;
  if (q == "torch.repeat_interleave" && positional.size() >= 2 && value_of(positional[1]).is_tensor() &&
      !output_size_given(a))
    return true;
  auto dot = q.rfind('.');
  bool full_reduction = torch_api::is_reduction(q.substr(dot + 1)) && positional.size() == 1 && a.size() == 1;
  if (full_reduction || positional.empty()) return false;
  Value first = value_of(positional[0]);
  return (first.is_tensor() || first.kind == ValueKind::TensorSequence) && first.data_dependent;
}

// self.box_coder.decode(...): a method of the project class `self.box_coder`
// was built from (or passed to the constructor as); nullopt when it is not one.
std::optional<Value> SemanticModel::attribute_method_value(Node call, Node object, std::string_view method) const {
  if (cls_ < 0 || self_.empty() || !object.is(NodeKind::Attribute)) return std::nullopt;
  Node owner = object.field("object").unparenthesized();
  if (!owner.is(NodeKind::Identifier) || owner.text(src_) != self_) return std::nullopt;
  ClassRef c = project_.self_attribute_class({file_index_, cls_}, object.field("attribute").text(src_));
  FunctionRef m = c.valid() ? project_.find_method(c, method) : FunctionRef{};
  if (!m.valid()) return std::nullopt;
  record_call(call, m, true);
  bool annotated = project_.file(m.file).functions[static_cast<size_t>(m.function)].returns_tensor;
  return project_result(call, m, annotated ? Value::tensor() : Value::unknown(), true);
}

// `model.logits(x)` on an instance of a project class (instance_class): that method runs
// with these arguments, and gives what it returns.
std::optional<Value> SemanticModel::instance_method_value(Node call, Node object, std::string_view method) const {
  ClassRef c = instance_class(object);
  FunctionRef m = c.valid() ? project_.find_method(c, method) : FunctionRef{};
  if (!m.valid()) return std::nullopt;
  record_call(call, m, true);
  bool annotated = project_.file(m.file).functions[static_cast<size_t>(m.function)].returns_tensor;
  return project_result(call, m, annotated ? Value::tensor() : Value::unknown(), true);
}

// self.method(...) / self.block(...)
Value SemanticModel::method_call_value(Node call, Node callee) const {
  std::string_view method = callee.field("attribute").text(src_);
  FunctionRef m = project_.find_method({file_index_, cls_}, method);
  if (m.valid()) {
    record_call(call, m);
    // A sub-module class that inherits the caller runs its own override with these arguments.
    if (project_.is_module_class({file_index_, cls_})) {
      for (FunctionRef o : project_.overrides({file_index_, cls_}, method)) record_call(call, o);
    }
    return project_result(
        call, m, project_.file(m.file).functions[static_cast<size_t>(m.function)].returns_tensor ? Value::tensor()
                                                                                                : Value::unknown());
  }
  // `self.loss = self.a if flag else self.b` in __init__: each may receive these arguments.
  if (const std::vector<std::string>* aliases = project_.attribute_methods({file_index_, cls_}, method)) {
    Value r = Value::unknown();
    bool first = true;
    for (const std::string& a : *aliases) {
      FunctionRef m = project_.find_method({file_index_, cls_}, a);
      if (!m.valid()) return Value::unknown();
      record_call(call, m);
      Value v = project_result(call, m, project_.file(m.file).functions[static_cast<size_t>(m.function)].returns_tensor
                                            ? Value::tensor()
                                            : Value::unknown());
      r = first ? v : join(r, v);
      first = false;
    }
    return r;
  }
  // A project sub-module (built here, or passed to the constructor): its forward receives these arguments.
  ClassRef sub = project_.self_attribute_class({file_index_, cls_}, method);
  bool project_module = sub.valid() && project_.is_module_class(sub);
  if (!project_module && self_attribute(method).kind != ValueKind::Module) return Value::unknown();
  if (project_module) {
    if (FunctionRef forward = project_.find_method(sub, "forward"); forward.valid()) {
      record_call(call, forward);
      return project_result(call, forward, Value::tensor());
    }
  }
  return Value::tensor();
}

Value SemanticModel::builtin_call_value(std::string_view b, const std::vector<Node>& positional) const {
  if (b == "int" || b == "float" || b == "bool" || b == "complex") {
    if (positional.empty()) return Value::unknown();
    Value arg = value_of(positional[0]);
    if (arg.is_tensor() && arg.static_data) return Value::of(ValueKind::Static);  // see tensor_method_result
    if (arg.depends_on_tensor_data()) return Value::of(ValueKind::TensorData);
    if (arg.kind == ValueKind::Static) return arg;
    return Value::unknown();
  }
  if (b == "getattr") return Value::unknown();
  if ((b == "all" || b == "any") && positional.size() == 1 && value_of(positional[0]).is_tensor()) {
    return Value::of(ValueKind::TensorData);  // each element's truth, read into Python
  }
  if (b == "len" && positional.size() == 1) {
    Value arg = value_of(positional[0]);
    Value r = Value::of(ValueKind::Static);
    r.data_dependent = arg.is_tensor() && arg.data_dependent;
    return r;
  }
  if (b == "len" || b == "isinstance" || b == "hasattr" || b == "range" || b == "type" || b == "id" || b == "str" ||
      b == "repr" || b == "issubclass" || b == "callable") {
    return Value::of(ValueKind::Static);
  }
  if (b == "min" || b == "max" || b == "abs" || b == "round" || b == "sum") {
    Value acc = Value::of(ValueKind::Static);
    for (Node x : positional) {
      Value v = value_of(x);
      // `min(lengths)` of one tensor gives one of its elements, a tensor. min/max of a tensor
      // and a number gives either in eager; TorchDynamo and torch.export trace it as
      // `clamp` / `maximum`, a tensor (`max(self.padding_total, extra)` with a buffer).
      if (v.is_tensor()) return Value::tensor();
      if (v.is_tensor_data()) acc = Value::of(ValueKind::TensorData);
      else if (v.kind != ValueKind::Static) acc = acc.is_tensor_data() ? acc : Value::unknown();
      else if (acc.kind == ValueKind::Static) acc.data_dependent = acc.data_dependent || v.data_dependent;
    }
    return acc;
  }
  // A copy, or a reversed view, holds what its argument holds: `list(reversed(t.tolist()))`
  // is still data read from a tensor.
  if (b == "tuple" || b == "list" || b == "reversed") {
    if (positional.empty()) return Value::unknown();
    Value v = value_of(positional[0]);
    if (v.kind == ValueKind::TensorSequence || v.is_tensor()) return Value::of(ValueKind::TensorSequence);
    return v.kind == ValueKind::Static || v.kind == ValueKind::TensorData ? v : Value::unknown();
  }
  return Value::unknown();
}

Value SemanticModel::record_module_call(Node call, Node module) const {
  ClassRef cls = module_class_of(module);
  if (!cls.valid()) return Value::tensor();
  FunctionRef forward = project_.find_method(cls, "forward");
  if (!forward.valid()) return Value::tensor();
  record_call(call, forward, true);
  return project_result(call, forward, Value::tensor(), true);
}

Value SemanticModel::project_result(Node call, FunctionRef f, Value otherwise, bool instance, size_t bound) const {
  // Noted even before anything is known: a later walk that knows more must walk again.
  if (record_) record_->consulted(f.file, f.function);
  if (!known_) return otherwise;
  callees_[call.id()] = f;
  std::optional<ArgumentTypes::Returned> r = returned_to(call, f);
  if (!r || r->whole.kind == ValueKind::Unknown) return otherwise;
  Value out = r->whole;
  // `_cumsum(tps, dim=1)`: rows as this call's argument has them, not as any caller's do.
  if (r->shape_of >= 0 && out.is_tensor()) {
    if (Node arg = argument_for(call, f, r->shape_of, instance, bound)) {
      Value a = value_of(arg);
      if (a.is_tensor()) out.data_dependent = a.data_dependent;
    }
  }
  return out;
}

std::optional<ArgumentTypes::Returned> SemanticModel::returned_to(Node call, FunctionRef f) const {
  std::optional<ArgumentTypes::Returned> r = known_->returned(f.file, f.function);
  if (!r || r->plain.empty()) return r;
  bool dependent = false;
  if (Node args = call.field("arguments")) {
    for (Node a : NamedChildren(args)) {
      Node v = a.is(NodeKind::KeywordArgument) ? a.field("value")
               : a.is(NodeKind::ListSplat) || a.is(NodeKind::DictionarySplat) ? a.named_child(0)
                                                                                : a;
      if (!v || v.is(NodeKind::Comment)) continue;
      if (Value x = value_of(v); x.data_dependent || x.is_tensor_data()) dependent = true;
    }
  }
  return r->for_call(dependent);
}

Node SemanticModel::argument_for(Node call, FunctionRef f, int index, bool instance, size_t bound) const {
  const FileModel& file = project_.file(f.file);
  const FunctionInfo& target = file.functions[static_cast<size_t>(f.function)];
  std::vector<Node> args = bind_arguments(call, target, file.source, bound_parameters(call, target, instance, bound));
  return index >= 0 && static_cast<size_t>(index) < args.size() ? args[static_cast<size_t>(index)] : Node();
}

// Through `self.method(...)`, `super().method(...)` or a module call the first parameter
// is bound already; `bound` more before the arguments (`ctx` of `Fn.apply`).
size_t SemanticModel::bound_parameters(Node call, const FunctionInfo& target, bool instance, size_t bound) const {
  bool receiver = instance || call.field("function").unparenthesized().is(NodeKind::Attribute);
  return bound + (target.binds_self() && receiver ? 1 : 0);
}

// Positions fill the parameters before `*`, `*args` or `**kw` (past `/`), from `skip` on;
// after a `*rest` argument no position is known. Keywords bind by name; a parameter
// `**extra` may fill stays unbound.
std::vector<Node> SemanticModel::bind_arguments(Node call, const FunctionInfo& target, std::string_view target_src,
                                                size_t skip) const {
  Node params = target.node.field("parameters");
  Node args = call.field("arguments");
  if (!params || !args || !args.is(NodeKind::ArgumentList)) return {};
  std::vector<std::string_view> names;
  std::vector<size_t> positions;  // the parameters a position fills, in order
  bool positional = true;
  for (Node p : NamedChildren(params)) {
    Node n = parameter_name(p);
    names.push_back(n ? n.text(target_src) : std::string_view());
    if (!n && !p.is(NodeKind::PositionalSeparator)) positional = false;
    if (n && positional) positions.push_back(names.size() - 1);
  }
  std::vector<Node> out(names.size());
  size_t next = skip;
  for (Node a : NamedChildren(args)) {
    if (a.is(NodeKind::DictionarySplat)) continue;
    if (a.is(NodeKind::ListSplat)) {
      next = positions.size();
      continue;
    }
    if (a.is(NodeKind::KeywordArgument)) {
      Node k = a.field("name");
      for (size_t i = 0; k && i < names.size(); ++i) {
        if (!names[i].empty() && names[i] == k.text(src_)) out[i] = a.field("value");
      }
    } else if (next < positions.size()) {
      out[positions[next++]] = a;
    }
  }
  return out;
}

void SemanticModel::add_consulted(std::vector<std::pair<int, int>>& out) const {
  for (const auto& [call, f] : callees_) out.emplace_back(f.file, f.function);
}

int SemanticModel::shape_parameter(Node value, int depth) const {
  // Tensor methods and torch functions whose result has their input's shape.
  static const std::set<std::string_view> keeping = {
      "clone", "detach", "contiguous", "float", "double", "half", "int", "long", "bool", "abs", "neg", "cpu",
      "cuda", "to", "type_as", "cumsum", "cumprod", "exp", "log", "sigmoid", "relu", "sqrt", "sign", "clamp",
      "clip", "flip", "roll", "logical_not", "zeros_like", "ones_like", "full_like", "empty_like"};
  Node n = value ? value.unparenthesized() : Node();
  if (!n || depth > 8) return -1;
  if (n.is(NodeKind::Identifier)) {
    std::string_view name = n.text(src_);
    int i = 0;
    if (Node params = fn_.node.field("parameters")) {
      for (Node p : NamedChildren(params)) {
        Node pn = parameter_name(p);
        if (pn && pn.text(src_) == name) {
          bool plain = p.is(NodeKind::Identifier) || p.is(NodeKind::TypedParameter) ||
                       p.is(NodeKind::DefaultParameter) || p.is(NodeKind::TypedDefaultParameter);
          // Bound by the call only (a parameter's binding counts twice).
          return plain && binding_count(name) == 2 ? i : -1;
        }
        ++i;
      }
    }
    Node bound = scope_of(name) == NameScope::Local ? sole_binding(name) : Node();
    return bound ? shape_parameter(bound, depth + 1) : -1;
  }
  if (n.is(NodeKind::BinaryOperator)) {
    Node l = n.field("left").unparenthesized(), r = n.field("right").unparenthesized();
    auto number = [](Node x) { return x.is(NodeKind::Integer) || x.is(NodeKind::Float); };
    if (number(r)) return shape_parameter(l, depth + 1);
    if (number(l)) return shape_parameter(r, depth + 1);
    return -1;
  }
  if (!n.is(NodeKind::Call)) return -1;
  Node callee = n.field("function").unparenthesized();
  if (callee.is(NodeKind::Attribute) && keeping.count(callee.field("attribute").text(src_)) &&
      value_of(callee.field("object")).is_tensor()) {
    return shape_parameter(callee.field("object"), depth + 1);
  }
  std::string q = resolve(callee);
  Node args = n.field("arguments");
  if (!q.starts_with("torch.") || !keeping.count(std::string_view(q).substr(6)) || !args) return -1;
  for (Node a : NamedChildren(args)) {
    if (a.is(NodeKind::Comment)) continue;
    return a.is(NodeKind::KeywordArgument) || a.is(NodeKind::ListSplat) ? -1 : shape_parameter(a, depth + 1);
  }
  return -1;
}

void SemanticModel::note_return(Node value) {
  if (!record_) return;
  ArgumentTypes::Returned r;
  r.whole = value ? value_of(value) : Value::of(ValueKind::None);
  r.shape_of = r.whole.is_tensor() ? shape_parameter(value) : -1;
  Node v = value ? value.unparenthesized() : Node();
  if (v && (v.is(NodeKind::ExpressionList) || v.is(NodeKind::Tuple))) {
    for (Node e : NamedChildren(v)) r.elements.push_back(value_of(e));
  }
  returns_ = returns_ ? ArgumentTypes::Returned::join(*returns_, r) : std::move(r);
}

void SemanticModel::finish_returns(bool generator) {
  if (record_ && returns_ && !generator) record_->record_return(file_index_, function_index_, *returns_);
}

// Records the values a call binds to the callee's parameters (by position and
// keyword). Only calls the walk reaches count: an inference records nothing.
void SemanticModel::record_call(Node call, FunctionRef callee, bool instance, size_t bound) const {
  if (!record_ || quiet_ > 0) return;
  const FileModel& file = project_.file(callee.file);
  const FunctionInfo& target = file.functions[static_cast<size_t>(callee.function)];
  std::vector<Node> args = bind_arguments(call, target, file.source, bound_parameters(call, target, instance, bound));
  if (args.empty()) return;
  std::vector<Value> values;
  for (Node a : args) values.push_back(a ? value_of(a) : Value::unknown());
  // A value drawn from tensor data reaches the callee as a Python value: Dynamo
  // broke where it was made; torch.export carries it as a symbol.
  for (Value& v : values) {
    if (v.is_tensor_data()) {
      v = Value::of(ValueKind::Static);
      v.data_dependent = true;
    }
  }
  record_->record(callee.file, callee.function, values);
}

}  // namespace fxlint

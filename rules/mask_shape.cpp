#include "rules/mask_shape.h"

#include <set>
#include <string>
#include <vector>

#include "analyzer/parameter_name.h"

#include "rules/check_support.h"
#include "rules/fix_support.h"

namespace fxlint::fixes {

namespace {

// What a mask's shape was read from: the names it reads, and whether it goes through
// a local bound earlier. `m = x > 0` says something of `x` as it was there.
struct Trail {
  std::vector<Node> reads;  // the names, where they are read
  bool through_local = false;  // false when the mask is written where it is used
  void read(Node name) { reads.push_back(name); }
};

// The name whose shape a tensor expression has, following locals assigned once
// from shape-keeping expressions (`z = x.clone()`, `out = torch.zeros_like(x)`,
// `y = x * 2`): "x" for all of those; the expression's own text otherwise.
std::string shape_root(Node e, const SemanticModel& ctx, Trail& trail, int depth = 0) {
  static const std::set<std::string_view> keeping_methods = {"clone", "detach", "contiguous", "float", "double",
                                                              "half", "int", "long", "bool", "abs", "neg"};
  static const std::set<std::string_view> like = {"zeros_like", "ones_like", "empty_like", "full_like",
                                                   "rand_like", "randn_like", "clone"};
  std::string_view src = ctx.source();
  Node n = e.unparenthesized();
  if (depth > 8) return std::string(n.text(src));
  if (n.is(NodeKind::Identifier)) trail.read(n);
  if (n.is(NodeKind::Identifier) && ctx.scope_of(n.text(src)) == NameScope::Local) {
    if (Node value = ctx.sole_binding(n.text(src))) {
      trail.through_local = true;
      std::string root = shape_root(value, ctx, trail, depth + 1);
      if (!root.empty()) return root;
    }
    return std::string(n.text(src));
  }
  if (n.is(NodeKind::Call)) {
    Node arguments = n.field("arguments");
    std::string_view method = tensor_method(n, ctx);
    if (!method.empty()) {
      if (keeping_methods.count(method) && arguments && arguments.named_child_count() == 0) {
        return shape_root(support::receiver(n), ctx, trail, depth + 1);
      }
      return std::string(n.text(src));
    }
    std::string q = ctx.resolve(n.field("function"));
    std::vector<Node> args = support::positional_args(n);
    if (q.starts_with("torch.") && like.count(std::string_view(q).substr(6)) && !args.empty()) {
      return shape_root(args[0], ctx, trail, depth + 1);
    }
    return std::string(n.text(src));
  }
  if (n.is(NodeKind::BinaryOperator)) {
    Node l = n.field("left"), r = n.field("right");
    if (is_number_literal(r)) return shape_root(l, ctx, trail, depth + 1);
    if (is_number_literal(l)) return shape_root(r, ctx, trail, depth + 1);
  }
  return std::string(n.text(src));
}

// An expression computed elementwise from tensors of z's shape and numbers
// only, so it has z's shape: `z > 0`, `(z < -1) | (z > 1)`, `torch.isnan(z)`,
// `~z.isfinite()`, or a local assigned once from such an expression.
bool elementwise_of(Node e, Node z, const SemanticModel& ctx, Trail& trail, int depth = 0);

bool elementwise_of(Node e, Node z, const SemanticModel& ctx, Trail& trail, int depth) {
  if (depth > 8) return false;
  static const std::set<std::string_view> functions = {"isnan", "isinf", "isfinite", "isposinf", "isneginf",
                                                        "abs", "signbit", "logical_not", "isreal", "sign"};
  std::string_view src = ctx.source();
  Node n = e.unparenthesized();
  if (n.is(NodeKind::Identifier) || n.is(NodeKind::Attribute)) {
    if (n.is(NodeKind::Identifier)) trail.read(n);
    if (n.text(src) == z.text(src) || shape_root(n, ctx, trail) == shape_root(z, ctx, trail)) return true;
    if (n.is(NodeKind::Identifier) && ctx.scope_of(n.text(src)) == NameScope::Local) {
      Node value = ctx.sole_binding(n.text(src));
      if (value) trail.through_local = true;
      return value && elementwise_of(value, z, ctx, trail, depth + 1);
    }
    return false;
  }
  if (is_number_literal(n) || n.is(NodeKind::True) || n.is(NodeKind::False)) return true;
  if (n.is(NodeKind::ComparisonOperator)) {
    bool has_z = false;
    for (Node c : n.children()) {
      if (!c.is_named()) {
        std::string_view op = c.text(src);
        if (op != "<" && op != ">" && op != "<=" && op != ">=" && op != "==" && op != "!=") return false;
        continue;
      }
      if (!elementwise_of(c, z, ctx, trail, depth + 1)) return false;
      has_z = has_z || !is_number_literal(c);
    }
    return has_z;
  }
  if (n.is(NodeKind::BinaryOperator)) {
    Node op = n.field("operator");
    std::string_view o = op ? op.text(src) : "";
    if (o != "&" && o != "|" && o != "^" && o != "+" && o != "-" && o != "*") return false;
    return elementwise_of(n.field("left"), z, ctx, trail, depth + 1) &&
           elementwise_of(n.field("right"), z, ctx, trail, depth + 1);
  }
  if (n.is(NodeKind::UnaryOperator)) return elementwise_of(n.field("argument"), z, ctx, trail, depth + 1);
  if (n.is(NodeKind::Call)) {
    Node arguments = n.field("arguments");
    std::string_view method = tensor_method(n, ctx);
    if (!method.empty()) {
      return functions.count(method) && arguments && arguments.named_child_count() == 0 &&
             elementwise_of(support::receiver(n), z, ctx, trail, depth + 1);
    }
    std::string q = ctx.resolve(n.field("function"));
    std::vector<Node> args = support::positional_args(n);
    return q.starts_with("torch.") && functions.count(std::string_view(q).substr(6)) && args.size() == 1 &&
           arguments.named_child_count() == 1 && elementwise_of(args[0], z, ctx, trail, depth + 1);
  }
  return false;
}

bool is_parameter(const SemanticModel& ctx, std::string_view name) {
  Node params = ctx.function().node ? ctx.function().node.field("parameters") : Node();
  if (!params) return false;
  for (Node p : NamedChildren(params)) {
    if (Node n = parameter_name(p); n && n.text(ctx.source()) == name) return true;
  }
  return false;
}

// `x.unsqueeze_(1)`, `x.resize_(...)`, `x.data = ...` anywhere in the function: x's
// shape is not the one it had where the mask was read.
bool reshaped_in_place(const SemanticModel& ctx, std::string_view name) {
  static const std::set<std::string_view> reshaping = {"unsqueeze_", "squeeze_", "resize_", "resize_as_", "t_",
                                                        "transpose_", "swapdims_", "swapaxes_", "as_strided_", "set_"};
  Node body = ctx.function().node ? ctx.function().node.field("body") : Node();
  if (!body) return false;
  std::string_view src = ctx.source();
  bool found = false;
  for_each_descendant(body, [&](Node n) {
    if (found) return false;
    if (!n.is(NodeKind::Attribute)) return true;
    Node object = n.field("object").unparenthesized();
    if (!object.is(NodeKind::Identifier) || object.text(src) != name) return true;
    std::string_view attr = n.field("attribute").text(src);
    Node p = n.parent();
    found = (reshaping.count(attr) && p && p.is(NodeKind::Call) && p.field("function") == n) ||
            (attr == "data" && p && p.is(NodeKind::Assignment) && p.field("left") == n);
    return !found;
  });
  return found;
}

// Whether the name read at `read` holds there the tensor, with the shape, it holds from
// then on: bound nowhere in the function, or once, before that read; never reshaped in place.
bool settled_at(const SemanticModel& ctx, Node read) {
  std::string_view name = read.text(ctx.source());
  if (reshaped_in_place(ctx, name)) return false;
  int bound = ctx.binding_count(name) - (is_parameter(ctx, name) ? 2 : 0);
  if (bound <= 0) return true;
  Node value = bound == 1 ? ctx.sole_binding(name) : Node();
  return value && value.end() <= read.start();
}
}  // namespace

// A mask known to have z's shape: computed elementwise from tensors of that shape,
// which still have it (and are still those tensors) where `z[mask] = ...` runs.
Applicability mask_applicability(Node mask, Node z, const SemanticModel& ctx) {
  Trail trail;
  if (!elementwise_of(mask, z, ctx, trail)) return Applicability::Unsafe;
  // Written where it is used (`z[z > 0] = 0`): mask and target are read together.
  if (!trail.through_local) return Applicability::Safe;
  // `m = x > 0` read earlier: an attribute may have been rebound since, and so may a local.
  Node target = z.unparenthesized();
  if (!target.is(NodeKind::Identifier)) return Applicability::Unsafe;
  trail.read(target);
  for (Node read : trail.reads) {
    if (!settled_at(ctx, read)) return Applicability::Unsafe;
  }
  return Applicability::Safe;
}
}  // namespace fxlint::fixes

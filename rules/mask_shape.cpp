#include "rules/mask_shape.h"

#include <set>
#include <string>

#include "rules/check_support.h"
#include "rules/fix_support.h"

namespace fxlint::fixes {

namespace {

// The name whose shape a tensor expression has, following locals assigned once
// from shape-keeping expressions (`z = x.clone()`, `out = torch.zeros_like(x)`,
// `y = x * 2`): "x" for all of those; the expression's own text otherwise.
std::string shape_root(Node e, const SemanticModel& ctx, int depth = 0) {
  static const std::set<std::string_view> keeping_methods = {"clone", "detach", "contiguous", "float", "double",
                                                              "half", "int", "long", "bool", "abs", "neg"};
  static const std::set<std::string_view> like = {"zeros_like", "ones_like", "empty_like", "full_like",
                                                   "rand_like", "randn_like", "clone"};
  std::string_view src = ctx.source();
  Node n = e.unparenthesized();
  if (depth > 8) return std::string(n.text(src));
  if (n.is(NodeKind::Identifier) && ctx.scope_of(n.text(src)) == NameScope::Local) {
    if (Node value = ctx.sole_binding(n.text(src))) {
      std::string root = shape_root(value, ctx, depth + 1);
      if (!root.empty()) return root;
    }
    return std::string(n.text(src));
  }
  if (n.is(NodeKind::Call)) {
    Node arguments = n.field("arguments");
    std::string_view method = tensor_method(n, ctx);
    if (!method.empty()) {
      if (keeping_methods.count(method) && arguments && arguments.named_child_count() == 0) {
        return shape_root(support::receiver(n), ctx, depth + 1);
      }
      return std::string(n.text(src));
    }
    std::string q = ctx.resolve(n.field("function"));
    std::vector<Node> args = support::positional_args(n);
    if (q.starts_with("torch.") && like.count(std::string_view(q).substr(6)) && !args.empty()) {
      return shape_root(args[0], ctx, depth + 1);
    }
    return std::string(n.text(src));
  }
  if (n.is(NodeKind::BinaryOperator)) {
    Node l = n.field("left"), r = n.field("right");
    if (is_number_literal(r)) return shape_root(l, ctx, depth + 1);
    if (is_number_literal(l)) return shape_root(r, ctx, depth + 1);
  }
  return std::string(n.text(src));
}

// An expression computed elementwise from tensors of z's shape and numbers
// only, so it has z's shape: `z > 0`, `(z < -1) | (z > 1)`, `torch.isnan(z)`,
// `~z.isfinite()`, or a local assigned once from such an expression.
bool elementwise_of(Node e, Node z, const SemanticModel& ctx, int depth = 0);

bool elementwise_of(Node e, Node z, const SemanticModel& ctx, int depth) {
  if (depth > 8) return false;
  static const std::set<std::string_view> functions = {"isnan", "isinf", "isfinite", "isposinf", "isneginf",
                                                        "abs", "signbit", "logical_not", "isreal", "sign"};
  std::string_view src = ctx.source();
  Node n = e.unparenthesized();
  if (n.is(NodeKind::Identifier) || n.is(NodeKind::Attribute)) {
    if (n.text(src) == z.text(src) || shape_root(n, ctx) == shape_root(z, ctx)) return true;
    if (n.is(NodeKind::Identifier) && ctx.scope_of(n.text(src)) == NameScope::Local) {
      Node value = ctx.sole_binding(n.text(src));
      return value && elementwise_of(value, z, ctx, depth + 1);
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
      if (!elementwise_of(c, z, ctx, depth + 1)) return false;
      has_z = has_z || !is_number_literal(c);
    }
    return has_z;
  }
  if (n.is(NodeKind::BinaryOperator)) {
    Node op = n.field("operator");
    std::string_view o = op ? op.text(src) : "";
    if (o != "&" && o != "|" && o != "^" && o != "+" && o != "-" && o != "*") return false;
    return elementwise_of(n.field("left"), z, ctx, depth + 1) && elementwise_of(n.field("right"), z, ctx, depth + 1);
  }
  if (n.is(NodeKind::UnaryOperator)) return elementwise_of(n.field("argument"), z, ctx, depth + 1);
  if (n.is(NodeKind::Call)) {
    Node arguments = n.field("arguments");
    std::string_view method = tensor_method(n, ctx);
    if (!method.empty()) {
      return functions.count(method) && arguments && arguments.named_child_count() == 0 &&
             elementwise_of(support::receiver(n), z, ctx, depth + 1);
    }
    std::string q = ctx.resolve(n.field("function"));
    std::vector<Node> args = support::positional_args(n);
    return q.starts_with("torch.") && functions.count(std::string_view(q).substr(6)) && args.size() == 1 &&
           arguments.named_child_count() == 1 && elementwise_of(args[0], z, ctx, depth + 1);
  }
  return false;
}

// A mask known to have z's shape: computed elementwise from tensors of that shape.
}  // namespace

Applicability mask_applicability(Node mask, Node z, const SemanticModel& ctx) {
  return elementwise_of(mask, z, ctx) ? Applicability::Safe : Applicability::Unsafe;
}

}  // namespace fxlint::fixes

#include "rules/check_support.h"

#include <algorithm>
#include <cstdlib>

namespace fxlint::support {

std::string_view method_name(Node call, std::string_view src) {
  Node callee = call.field("function").unparenthesized();
  if (!callee.is(NodeKind::Attribute)) return {};
  Node attr = callee.field("attribute");
  return attr ? attr.text(src) : std::string_view();
}

Node receiver(Node call) {
  Node callee = call.field("function").unparenthesized();
  if (!callee.is(NodeKind::Attribute)) return Node();
  return callee.field("object");
}

std::vector<Node> positional_args(Node call) {
  std::vector<Node> out;
  Node args = call.field("arguments");
  if (!args || !args.is(NodeKind::ArgumentList)) return out;
  for (Node a : NamedChildren(args)) {
    if (!a.is(NodeKind::KeywordArgument) && !a.is(NodeKind::ListSplat) && !a.is(NodeKind::DictionarySplat)) {
      out.push_back(a);
    }
  }
  return out;
}

Node keyword_arg(Node call, std::string_view name, std::string_view src) {
  Node args = call.field("arguments");
  if (!args || !args.is(NodeKind::ArgumentList)) return Node();
  for (Node a : NamedChildren(args)) {
    if (a.is(NodeKind::KeywordArgument)) {
      Node n = a.field("name");
      if (n && n.text(src) == name) return a.field("value");
    }
  }
  return Node();
}

std::vector<Node> subscript_indices(Node subscript) {
  std::vector<Node> out;
  Node value = subscript.field("value");
  for (Node c : NamedChildren(subscript)) {
    if (!(c == value)) out.push_back(c);
  }
  return out;
}

std::string qualified_callee(Node call, const SemanticModel& ctx) {
  Node callee = call.field("function");
  std::string q = ctx.resolve(callee);
  if (!q.empty() || !callee.is(NodeKind::Identifier)) return q;
  std::string_view name = callee.text(ctx.source());
  const FileModel& file = ctx.file();
  if (file.module_name.empty() || !file.top_functions.count(name) || ctx.scope_of(name) != NameScope::Global) {
    return q;
  }
  return file.module_name + "." + std::string(name);
}

bool is_outer_object(Node expr, const SemanticModel& ctx) {
  expr = expr.unparenthesized();
  std::string_view src = ctx.source();
  if (expr.is(NodeKind::Identifier)) {
    NameScope scope = ctx.scope_of(expr.text(src));
    if (scope == NameScope::Global) {
      const GlobalFacts* g = ctx.global_facts(expr.text(src));
      return g && !g->is_function_or_class && !ctx.file().imports.find(expr.text(src));
    }
    return scope == NameScope::Enclosing && !ctx.closure_in_traced_call(expr.text(src));
  }
  if (expr.is(NodeKind::Attribute)) {
    Node object = expr.field("object").unparenthesized();
    return object.is(NodeKind::Identifier) && !ctx.self_name().empty() && object.text(src) == ctx.self_name();
  }
  return false;
}

bool is_module_state(Node target, const SemanticModel& ctx) {
  target = target.unparenthesized();
  while (target.is(NodeKind::Subscript)) target = target.field("value").unparenthesized();
  return target.is(NodeKind::Attribute) && ctx.in_module_class() && is_outer_object(target, ctx);
}

namespace {
// The attributes of `self` that `n` reads (`self.grid` in `self.grid[i].shape`).
void self_attributes_in(Node n, const SemanticModel& ctx, std::vector<std::string_view>& out) {
  if (n.is(NodeKind::Attribute)) {
    Node object = n.field("object").unparenthesized();
    if (object.is(NodeKind::Identifier) && object.text(ctx.source()) == ctx.self_name()) {
      out.push_back(n.field("attribute").text(ctx.source()));
      return;
    }
  }
  for (Node c : NamedChildren(n)) self_attributes_in(c, ctx, out);
}

// Whether `n` reads a parameter or local of the function other than `self`.
bool reads_a_local(Node n, const SemanticModel& ctx) {
  if (n.is(NodeKind::Identifier)) return n.text(ctx.source()) != ctx.self_name() && ctx.is_bound(n.text(ctx.source()));
  if (n.is(NodeKind::Attribute)) return reads_a_local(n.field("object"), ctx);
  if (n.is(NodeKind::Lambda)) return false;
  for (Node c : NamedChildren(n)) {
    if (reads_a_local(c, ctx)) return true;
  }
  return false;
}

// Whether a statement under `n` assigns to one of `names` of `self` (or to an item of one).
bool writes_any(Node n, const std::vector<std::string_view>& names, const SemanticModel& ctx) {
  if (n.is(NodeKind::Assignment) || n.is(NodeKind::AugmentedAssignment)) {
    std::vector<std::string_view> written;
    self_attributes_in(n.field("left"), ctx, written);
    for (std::string_view w : written) {
      if (std::find(names.begin(), names.end(), w) != names.end()) return true;
    }
  }
  if (n.is(NodeKind::FunctionDefinition) || n.is(NodeKind::ClassDefinition)) return false;
  for (Node c : NamedChildren(n)) {
    if (writes_any(c, names, ctx)) return true;
  }
  return false;
}

// The attributes of `self` that comparisons in `test` read, other than `is` / `is not`:
// `self.prev != n`, `key not in self.labels` compare the cache with what the call needs.
// A comparison of tensor data (`self.x_min.min() > -1e-5`) or with nothing
// of the call (`self.steps < 5`) tests a running state, not a key.
void compared_self_attributes(Node test, const SemanticModel& ctx, std::vector<std::string_view>& out) {
  if (test.is(NodeKind::ComparisonOperator)) {
    Value v = ctx.value_of(test);
    if (v.is_tensor() || v.kind == ValueKind::TensorData || !reads_a_local(test, ctx)) return;
    bool identity = false;
    for (std::string_view op : ctx.comparison_operators(test)) identity |= op.starts_with("is");
    if (!identity) self_attributes_in(test, ctx, out);
    return;
  }
  if (test.is(NodeKind::FunctionDefinition) || test.is(NodeKind::Lambda)) return;
  for (Node c : NamedChildren(test)) compared_self_attributes(c, ctx, out);
}

// Whether the last statement of `block` is a `return`.
bool ends_in_return(Node block) {
  Node last;
  for (Node c : NamedChildren(block)) {
    if (!c.is(NodeKind::Comment)) last = c;
  }
  return last && last.is(NodeKind::ReturnStatement);
}
}  // namespace

namespace {
// The attribute of `self` that `target` stores into (`cache` for `self.cache[token]`); empty
// when it is not one.
std::string_view stored_attribute(Node target, const SemanticModel& ctx) {
  target = target.unparenthesized();
  while (target.is(NodeKind::Subscript) || target.is(NodeKind::Attribute)) {
    Node object = target.field(target.is(NodeKind::Subscript) ? "value" : "object").unparenthesized();
    if (target.is(NodeKind::Attribute) && object.is(NodeKind::Identifier) &&
        object.text(ctx.source()) == ctx.self_name()) {
      return target.field("attribute").text(ctx.source());
    }
    target = object;
  }
  return {};
}

// Whether `write`, a store into attribute `stored` of `self`, fills a cache on a miss.
bool in_cache_fill(Node write, std::string_view stored, const SemanticModel& ctx) {
  for (Node n = write, parent = write.parent(); parent; n = parent, parent = parent.parent()) {
    if (parent.is(NodeKind::FunctionDefinition)) return false;
    bool branch = parent.is(NodeKind::IfStatement) || parent.is(NodeKind::ElifClause);
    if (branch && parent.field("consequence") == n) {
      std::vector<std::string_view> tested;
      compared_self_attributes(parent.field("condition"), ctx, tested);
      if (!tested.empty() && writes_any(n, tested, ctx)) return true;
    }
    // A hit that returns early (`if n <= self.cached_len: return self.cached[:n]`, `if token
    // in self.cache: return self.cache[token]`), and the key written after it: what follows
    // runs on a miss, and fills the key and the values the hit returns. Scanned only for a
    // finding about to be reported.
    if (!parent.is(NodeKind::Block)) continue;
    std::vector<Node> statements;
    for (Node c : NamedChildren(parent)) statements.push_back(c);
    auto at = std::find(statements.begin(), statements.end(), n);
    for (auto hit = statements.begin(); hit != at; ++hit) {
      if (!hit->is(NodeKind::IfStatement) || !ends_in_return(hit->field("consequence"))) continue;
      std::vector<std::string_view> keys;
      compared_self_attributes(hit->field("condition"), ctx, keys);
      bool filled = false;
      for (auto later = hit + 1; later != statements.end() && !keys.empty() && !filled; ++later) {
        filled = writes_any(*later, keys, ctx);
      }
      if (!filled) continue;
      std::vector<std::string_view> cache = keys;
      self_attributes_in(hit->field("consequence"), ctx, cache);
      if (std::find(cache.begin(), cache.end(), stored) != cache.end()) return true;
    }
  }
  return false;
}
}  // namespace

bool exported_cache_fill(Node target, Node write, const SemanticModel& ctx, Target t) {
  if (t != Target::Export || ctx.self_name().empty() || !is_module_state(target, ctx)) return false;
  std::string_view stored = stored_attribute(target, ctx);
  return !stored.empty() && in_cache_fill(write, stored, ctx);
}

namespace {
bool is_number(Node n, const SemanticModel& ctx) {
  n = n.unparenthesized();
  if (n.is(NodeKind::UnaryOperator)) n = n.field("argument").unparenthesized();
  if (n.is(NodeKind::Integer) || n.is(NodeKind::Float)) return true;
  Value v = ctx.value_of(n);
  return v.kind == ValueKind::Static && !v.data_dependent;
}
}  // namespace

Node number_update_target(Node n, const SemanticModel& ctx) {
  if (n.is(NodeKind::AugmentedAssignment)) {
    std::string_view o = ctx.operator_of(n);
    if (o != "+=" && o != "-=" && o != "*=" && o != "/=") return {};
    return is_number(n.field("right"), ctx) ? n.field("left").unparenthesized() : Node{};
  }
  if (!n.is(NodeKind::Call)) return {};
  const CallParts& parts = ctx.call_parts(n);
  std::string_view m = parts.method;
  if (m != "add_" && m != "sub_" && m != "mul_" && m != "div_") return {};
  if (parts.positional.size() != 1 || !is_number(parts.positional[0], ctx)) return {};
  return parts.receiver ? parts.receiver.unparenthesized() : Node{};
}

std::string_view truth_of_each_element(Node call, const SemanticModel& ctx) {
  if (!call.is(NodeKind::Call)) return {};
  std::string callee = ctx.resolve(call.field("function"));
  std::string_view name = callee == "builtins.all" ? "all" : callee == "builtins.any" ? "any" : "";
  const auto& args = positional_args(call, ctx);
  if (name.empty() || args.size() != 1 || !ctx.value_of(args[0]).is_tensor()) return {};
  return name;
}

Node enclosing_statement(Node node) {
  for (Node n = node; n; n = n.parent()) {
    Node p = n.parent();
    if (p && (p.is(NodeKind::Block) || p.is(NodeKind::Module))) return n;
  }
  return Node();
}

namespace {

// Whether a torch version ("2.14", "2.3.1") is at least major.minor; an empty
// one (unknown) is not.
bool at_least(std::string_view v, int major, int minor) {
  if (v.empty()) return false;
  int have_major = std::atoi(std::string(v).c_str());
  auto dot = v.find('.');
  int have_minor = dot == std::string_view::npos ? 0 : std::atoi(std::string(v.substr(dot + 1)).c_str());
  return have_major > major || (have_major == major && have_minor >= minor);
}

}  // namespace

bool dynamo_traces_numpy(std::string_view v, Target target) {
  return target == Target::Dynamo && (v.empty() || at_least(v, 2, 1));
}

std::string_view compile_guard_function(std::string_view v, Target target) {
  if (target == Target::Fx2Onnx) {
    // From 2.9 is_fx_tracing logs a warning and is also true under non-strict export.
    if (at_least(v, 2, 9)) return "torch.fx._symbolic_trace.is_fx_symbolic_tracing";
    return "torch.fx._symbolic_trace.is_fx_tracing";
  }
  if (v.empty()) return "torch._dynamo.is_compiling";
  if (at_least(v, 2, 3)) return "torch.compiler.is_compiling";
  if (at_least(v, 2, 0)) return "torch._dynamo.is_compiling";
  return "torch.fx._symbolic_trace.is_fx_tracing";
}

const char* once_or_replayed(Target target) {
  if (target == Target::Dynamo) return "; TorchDynamo replays it after the graph and recompiles when the value changes";
  // torch.export succeeds: what goes wrong is silent, so say so.
  if (target == Target::Export) return "; torch.export runs it once while tracing, and the exported program never does";
  return "; the trace runs it once and never again";
}

const char* once_or_replayed(Target t, Node target, const SemanticModel& ctx) {
  if (t == Target::Export && is_module_state(target, ctx)) return "; the exported program never runs it";
  return once_or_replayed(t);
}

const char* frozen_or_guarded(Target target, bool branch) {
  if (target == Target::Dynamo) return "; TorchDynamo guards on it and recompiles when it changes";
  return branch ? "; the branch taken at trace time is frozen" : "; the trace freezes its current value";
}

}  // namespace fxlint::support

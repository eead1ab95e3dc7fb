// FX204 / FX404: compiled code mutates a container that outlives the call
// (`CACHE[k] = v`, `log.append(x)`); storing a tensor there is FX404.
#include <unordered_map>

#include "rules/check.h"
#include "rules/check_support.h"

namespace fxlint {
namespace {

// The positional arguments a list, deque, dict or set method that changes the
// container takes (least, most); null for any other name.
const std::pair<size_t, size_t>* container_mutator_arity(std::string_view m) {
  static const std::unordered_map<std::string_view, std::pair<size_t, size_t>> arity = {
      {"append", {1, 1}}, {"extend", {1, 1}}, {"insert", {2, 2}}, {"pop", {0, 2}}, {"popleft", {0, 0}},
      {"appendleft", {1, 1}}, {"remove", {1, 1}}, {"clear", {0, 0}}, {"update", {0, 1}},
      {"setdefault", {1, 2}}, {"add", {1, 1}}, {"discard", {1, 1}}, {"popitem", {0, 0}}};
  auto it = arity.find(m);
  return it == arity.end() ? nullptr : &it->second;
}

bool not_a_container(const Value& v) {
  return v.is_tensor() || v.kind == ValueKind::Module || v.kind == ValueKind::OptionalTensor;
}

// `self.metrics = {}` as a statement of the function's body before `where`:
// every call fills a new container, which TorchDynamo replays and never guards on.
bool rebuilt_before(Node recv, Node where, std::string_view src) {
  if (!recv.is(NodeKind::Attribute)) return false;
  Node fn = where.parent();
  while (fn && !fn.is(NodeKind::FunctionDefinition)) fn = fn.parent();
  Node body = fn ? fn.field("body") : Node();
  if (!body) return false;
  for (Node stmt : body.children()) {
    if (stmt.start() >= where.start()) break;
    if (!stmt.is(NodeKind::ExpressionStatement) || stmt.named_child_count() != 1) continue;
    Node a = stmt.named_child(0);
    if (!a.is(NodeKind::Assignment) || a.field("left").text(src) != recv.text(src)) continue;
    Node right = a.field("right") ? a.field("right").unparenthesized() : Node();
    if (right && (right.is(NodeKind::Dictionary) || right.is(NodeKind::List) || right.is(NodeKind::Set))) return true;
  }
  return false;
}

// `cache[:b, start:end] = x`: slices in several dimensions index an array, not a
// Python list or dict; so does a slice given a number (`att[:n] = 1.0`: a list
// takes only an iterable there).
bool array_store(Node subscript, Node value) {
  std::vector<Node> indices = support::subscript_indices(subscript);
  bool slice = false;
  for (Node i : indices) slice |= i.is(NodeKind::Slice);
  if (!slice) return false;
  if (indices.size() >= 2) return true;
  Node v = value ? value.unparenthesized() : Node();
  if (v && v.is(NodeKind::UnaryOperator)) v = v.field("argument").unparenthesized();
  return v && (v.is(NodeKind::Integer) || v.is(NodeKind::Float) || v.is(NodeKind::True) || v.is(NodeKind::False));
}

// `pattern[row_mask] -= 1`: only a tensor takes a tensor index, so the
// receiver is one even where its value is not known.
bool indexed_by_tensor(Node subscript, const SemanticModel& ctx) {
  for (Node i : support::subscript_indices(subscript))
    if (ctx.value_of(i).is_tensor()) return true;
  return false;
}

class OuterContainerMutation final : public Check {
 public:
  using Check::Check;

  void on_call(Node call, const SemanticModel& ctx) override {
    report_cached_tensor(call, ctx);
    const std::pair<size_t, size_t>* arity = container_mutator_arity(support::method_name(call, ctx));
    if (!arity) return;
    Node recv = support::receiver(call, ctx);
    if (!support::is_outer_object(recv, ctx) || not_a_container(ctx.value_of(recv))) return;
    // A call that does not fit the method (`cache.update(pos, k, v)`) is a project class's.
    std::vector<Node> args = support::positional_args(call, ctx);
    if (args.size() < arity->first || args.size() > arity->second) return;
    bool stores_tensor = false;
    for (Node a : args) stores_tensor |= ctx.value_of(a).is_tensor() ||
                                                                   ctx.value_of(a).kind == ValueKind::TensorSequence;
    report(call, recv, stores_tensor, ctx);
  }

  void on_statement(Node stmt, const SemanticModel& ctx) override {
    if (!stmt.is(NodeKind::DeleteStatement)) return;
    for (Node t : stmt.children()) {
      std::vector<Node> targets = t.is(NodeKind::ExpressionList) ? t.children() : std::vector<Node>{t};
      for (Node sub : targets) {
        if (!sub.is(NodeKind::Subscript) || indexed_by_tensor(sub, ctx)) continue;
        Node recv = sub.field("value");
        if (support::is_outer_object(recv, ctx) && !not_a_container(ctx.value_of(recv))) report(sub, recv, false, ctx);
      }
    }
  }

  // `COUNTS["n"] += 1`: a read and a store of the item.
  void on_augmented(Node stmt, const SemanticModel& ctx) override {
    Node target = stmt.field("left").unparenthesized();
    if (!target.is(NodeKind::Subscript) || array_store(target, stmt.field("right")) || indexed_by_tensor(target, ctx))
      return;
    Node recv = target.field("value");
    if (!support::is_outer_object(recv, ctx) || not_a_container(ctx.value_of(recv))) return;
    report(target, recv, ctx.value_of(stmt.field("right")).is_tensor(), ctx);
  }

  void on_store(Node target, Node value, Node, const SemanticModel& ctx) override {
    if (!target.is(NodeKind::Subscript) || array_store(target, value) || indexed_by_tensor(target, ctx)) return;
    Node recv = target.field("value");
    if (!support::is_outer_object(recv, ctx) || not_a_container(ctx.value_of(recv))) return;
    bool stores_tensor = value && ctx.value_of(value).is_tensor();
    report(target, recv, stores_tensor, ctx);
  }

 private:
  // `mask = make_mask(n)` where `make_mask` is a `functools.lru_cache` function that returns a
  // tensor: the cache outlives the call, and non-strict torch.export stores its fake tensor
  // there, which eager calls with the same sizes then get back. TorchDynamo traces through
  // the cache; torch.fx passes proxies, which no later call's arguments equal.
  void report_cached_tensor(Node call, const SemanticModel& ctx) {
    if (settings_.target != Target::Export) return;
    const FunctionInfo* f = ctx.called_project_function(call);
    if (!f) return;
    bool cached = false;
    for (const std::string& d : f->other_decorators) cached |= d == "functools.lru_cache" || d == "functools.cache";
    Value v = ctx.value_of(call);
    if (!cached || !(v.is_tensor() || v.kind == ValueKind::TensorSequence)) return;
    sink_.report(RuleId::FX404, call.range(),
                 "`" + f->name + "` keeps its tensor results in a functools cache, which outlives the call: "
                 "torch.export stores its fake tensor there, and eager calls with the same arguments get it back");
  }

  void report(Node where, Node recv, bool tensor, const SemanticModel& ctx) {
    std::string name(recv.text(ctx.source()));
    if (support::exported_cache_fill(recv, where, ctx, settings_.target)) return;
    if (tensor) {
      sink_.report(RuleId::FX404, where.range(),
                   "stores a tensor into `" + name + "`, which outlives the call; the graph cannot hold it");
    } else {
      if (settings_.target == Target::Dynamo && rebuilt_before(recv, where, ctx.source())) return;
      sink_.report(RuleId::FX204, where.range(),
                   "mutates `" + name + "`, which outlives the call" +
                       support::once_or_replayed(settings_.target, recv, ctx));
    }
  }
};

}  // namespace
std::unique_ptr<Check> make_outer_container_mutation(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<OuterContainerMutation>(s, c);
}
}  // namespace fxlint

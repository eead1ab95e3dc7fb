// FX203: compiled code rebinds or augments Python state that outlives the call:
// `global a; a += 1`, `nonlocal n; n += 1`, `self.steps += 1`. Its fixes keep a
// counter in a 0-d tensor updated in place (a module global, or a buffer).
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "rules/check.h"
#include "rules/check_support.h"
#include "rules/fix_support.h"

namespace fxlint {
namespace {

using namespace fixes;

// `+=` -> add_, `-=` -> sub_, `*=` -> mul_; "" for operators without an in-place method here.
std::string_view inplace_method(Node augmented, std::string_view src) {
  Node op = augmented.field("operator");
  std::string_view o = op ? op.text(src) : "";
  if (o == "+=") return "add_";
  if (o == "-=") return "sub_";
  if (o == "*=") return "mul_";
  return {};
}

// Whether a float literal (`0.`, `0e400`, `0_0.0`) is zero: its mantissa has
// no non-zero digit. Read from the text, so no literal is out of range; an
// imaginary literal (`0j`) is not a float.
bool float_literal_is_zero(std::string_view text) {
  if (text.ends_with('j') || text.ends_with('J')) return false;
  for (char c : text) {
    if (c == 'e' || c == 'E') break;
    if (c >= '1' && c <= '9') return false;
  }
  return true;
}

// The 0-d tensor that holds a counter initialised with the literal zero, in
// the dtype Python computes with (int -> int64, float -> float64); "" otherwise.
std::string zero_dim_tensor(Node literal, const TorchRef& torch, std::string_view src, bool* is_float) {
  Node v = literal.unparenthesized();
  std::string_view dtype;
  if (v.is(NodeKind::Integer) && v.text(src) == "0") dtype = "torch.int64";
  else if (v.is(NodeKind::Float) && float_literal_is_zero(v.text(src))) dtype = "torch.float64";
  else return {};
  *is_float = dtype == "torch.float64";
  return torch.spell("torch.zeros") + "((), dtype=" + torch.spell(dtype) + ")";
}

Node root_of(Node n) {
  while (n.parent()) n = n.parent();
  return n;
}

// `t.item()` as the whole expression: the tensor `t`, else a null node.
Node item_receiver(Node expr, std::string_view src) {
  Node e = expr.unparenthesized();
  if (e.is(NodeKind::Call) && support::method_name(e, src) == "item") {
    Node arguments = e.field("arguments");
    if (arguments && arguments.named_child_count() == 0) return support::receiver(e);
  }
  return Node();
}

// `target += v` -> `target.add_(v)`, computing what Python computes: an int
// counter takes int literals; a float (float64) counter also takes float
// literals and `t.item()`, which becomes `t.detach().reshape(())` (the same
// number, without tying the counter to t's autograd graph). Anything else
// would change the counter's type or raise where Python did not.
std::optional<Edit> inplace_update(Node augmented, std::string_view target, std::string_view src, bool is_float) {
  std::string_view method = inplace_method(augmented, src);
  Node right = augmented.field("right");
  if (method.empty() || !right) return std::nullopt;
  std::string operand(right.text(src));
  Node r = right.unparenthesized();
  if (r.is(NodeKind::UnaryOperator)) r = r.field("argument");
  if (Node t = item_receiver(right, src); t && is_float) {
    operand = std::string(t.text(src)) + ".detach().reshape(())";
  } else if (!(r.is(NodeKind::Integer) || (is_float && r.is(NodeKind::Float)))) {
    return std::nullopt;
  }
  return Edit{augmented.range(), std::string(target) + "." + std::string(method) + "(" + operand + ")"};
}

// An update the rewrite can carry: by a number literal or by `t.item()`
// (inplace_update then decides by the counter's type).
bool literal_update(Node n, std::string_view src) {
  if (!n.is(NodeKind::AugmentedAssignment)) return false;
  Node right = n.field("right");
  if (!right) return false;
  if (item_receiver(right, src)) return true;
  Node r = right.unparenthesized();
  if (r.is(NodeKind::UnaryOperator)) r = r.field("argument");
  return r.is(NodeKind::Integer) || r.is(NodeKind::Float);
}


// How a file or a class uses each name that could hold a counter: its plain
// assignments, and whether anything but an update by a literal touches it.
struct CounterUse {
  int bindings = 0;  // module-level `name = ...` / `self.name = ...`
  Node initializer;  // the right side of the last such binding
  Node init_statement;
  bool other_use = false;
};
using CounterUses = std::unordered_map<std::string_view, CounterUse>;

// Every module-level name, in one pass over the module. A module-level
// `name = 0`, updates by number literals in functions and `global name` keep
// it a counter; any other read (`mine = name`, `print(name)`) would see a
// tensor, shared and updated in place, where it saw an int.
CounterUses module_counters(Node root, std::string_view src) {
  CounterUses uses;
  auto visit = [&](auto&& self, Node n, bool in_function) -> void {
    if (n.is(NodeKind::FunctionDefinition) || n.is(NodeKind::Lambda)) in_function = true;
    if (n.is(NodeKind::GlobalStatement)) return;
    if (n.is(NodeKind::Assignment) || n.is(NodeKind::AugmentedAssignment)) {
      Node l = n.field("left").unparenthesized();
      if (l.is(NodeKind::Identifier)) {
        CounterUse& u = uses[l.text(src)];
        if (n.is(NodeKind::AugmentedAssignment)) {
          if (!literal_update(n, src) || !in_function) u.other_use = true;
        } else if (!in_function && n.parent().is(NodeKind::ExpressionStatement) &&
                   n.parent().parent().is(NodeKind::Module)) {
          ++u.bindings;
          u.initializer = n.field("right");
        } else {
          u.other_use = true;
        }
        if (Node right = n.field("right")) self(self, right, in_function);
        return;
      }
    }
    if (n.is(NodeKind::Identifier)) {
      Node parent = n.parent();
      bool attribute_name = parent && parent.is(NodeKind::Attribute) && parent.field("attribute") == n;
      bool keyword = parent && parent.is(NodeKind::KeywordArgument) && parent.field("name") == n;
      if (!attribute_name && !keyword) uses[n.text(src)].other_use = true;
      return;
    }
    for_each_child(n, [&](Node c) {
      if (c.is_named()) self(self, c, in_function);
    });
  };
  visit(visit, root, false);
  return uses;
}

// Every attribute name of a class, in one pass over it: exactly one plain
// `self.<name> = 0` in __init__, and every other `<obj>.<name>` an update by a
// number literal (a read would see a tensor).
CounterUses attribute_counters(Node cls, std::string_view src) {
  CounterUses uses;
  auto visit = [&](auto&& self, Node n, bool in_init) -> void {
    if (n.is(NodeKind::FunctionDefinition)) {
      Node fname = n.field("name");
      in_init = fname && fname.text(src) == "__init__";
    }
    if (n.is(NodeKind::Assignment) || n.is(NodeKind::AugmentedAssignment)) {
      Node l = n.field("left").unparenthesized();
      if (l.is(NodeKind::Attribute) && l.field("attribute")) {
        CounterUse& u = uses[l.field("attribute").text(src)];
        if (n.is(NodeKind::AugmentedAssignment)) {
          if (!literal_update(n, src)) u.other_use = true;
        } else {
          ++u.bindings;
          if (in_init && n.parent().is(NodeKind::ExpressionStatement) &&
              l.field("object").unparenthesized().is(NodeKind::Identifier)) {
            u.init_statement = n;
            u.initializer = n.field("right");
          }
        }
        self(self, l.field("object"), in_init);
        if (Node right = n.field("right")) self(self, right, in_init);
        return;
      }
    }
    if (n.is(NodeKind::Attribute) && n.field("attribute")) uses[n.field("attribute").text(src)].other_use = true;
    for_each_child(n, [&](Node c) {
      if (c.is_named()) self(self, c, in_init);
    });
  };
  visit(visit, cls, false);
  return uses;
}

// Whether the class around `attribute` (`self.x`) reads `x` anywhere: any
// `.x` that is not an assignment's target (`self.x += 1` reads it). Outside a
// class, assumed read.
bool read_in_class(Node attribute, std::string_view src) {
  Node cls = attribute.parent();
  while (cls && !cls.is(NodeKind::ClassDefinition)) cls = cls.parent();
  if (!cls) return true;
  std::string_view name = attribute.field("attribute").text(src);
  auto reads = [&](auto&& self, Node n) -> bool {
    if (n.is(NodeKind::Attribute) && n.field("attribute") && n.field("attribute").text(src) == name) {
      Node p = n.parent();
      bool stored = p && p.is(NodeKind::Assignment) && p.field("left") == n;
      if (!stored) return true;
    }
    bool found = false;
    for_each_child(n, [&](Node c) { found = found || (c.is_named() && self(self, c)); });
    return found;
  };
  return reads(reads, cls);
}

// A number, string, bool or None written as such (`0.0`, `-1`, `"mean"`).
bool is_literal_value(Node value) {
  Node v = value.unparenthesized();
  if (v.is(NodeKind::UnaryOperator)) v = v.field("argument").unparenthesized();
  return v.is(NodeKind::Integer) || v.is(NodeKind::Float) || v.is(NodeKind::String) || v.is(NodeKind::True) ||
         v.is(NodeKind::False) || v.is(NodeKind::None);
}

// `self.x = <literal>` whose value never crosses calls: every other store to `.x` in the
// class outside `__init__` writes that same literal, and every read of it there comes
// after this store in the same function (a flag a later call tests, `if not
// self.is_initialized:`, does cross them).
bool only_store_of(Node attribute, Node value, Node statement, std::string_view src) {
  if (!is_literal_value(value)) return false;
  Node cls = attribute.parent(), fn;
  for (; cls && !cls.is(NodeKind::ClassDefinition); cls = cls.parent()) {
    if (!fn && cls.is(NodeKind::FunctionDefinition)) fn = cls;
  }
  if (!cls || !fn) return false;
  std::string_view name = attribute.field("attribute").text(src);
  std::string_view text = value.unparenthesized().text(src);
  auto same = [&](auto&& self, Node n, bool in_init, bool in_fn) -> bool {
    if (n.is(NodeKind::FunctionDefinition)) {
      Node fname = n.field("name");
      in_init = fname && fname.text(src) == "__init__";
      in_fn = n == fn;
    }
    if (n.is(NodeKind::Assignment) || n.is(NodeKind::AugmentedAssignment)) {
      Node l = n.field("left").unparenthesized();
      if (l.is(NodeKind::Attribute) && l.field("attribute") && l.field("attribute").text(src) == name) {
        Node r = n.field("right");
        if (!in_init && (n.is(NodeKind::AugmentedAssignment) || !r || r.unparenthesized().text(src) != text)) {
          return false;
        }
        return (!r || self(self, r, in_init, in_fn)) && self(self, l.field("object"), in_init, in_fn);
      }
    }
    // A read: `.x`, or the name as a string (`getattr(self, "x", False)`).
    bool read = (n.is(NodeKind::Attribute) && n.field("attribute") && n.field("attribute").text(src) == name) ||
                (n.is(NodeKind::String) && n.text(src).size() == name.size() + 2 &&
                 n.text(src).substr(1, name.size()) == name);
    if (!in_init && read && !(in_fn && n.start() >= statement.end())) return false;
    bool ok = true;
    for_each_child(n, [&](Node c) { ok = ok && (!c.is_named() || self(self, c, in_init, in_fn)); });
    return ok;
  };
  return same(same, cls, false, false);
}

// Per-call bookkeeping (`self.batch_size = x.shape[0]` at the top of `forward`, speechbrain's
// searchers, ultralytics' assigner): the store runs on every call of its method before any
// read there, and every other read of the attribute in the class lies in a method that runs
// only after it, called from that method past the store (directly or through each other).
// No read sees a value an earlier call left, so a program that leaves the store out computes
// what eager does. Stores elsewhere but `__init__` make the value cross calls.
class PerCallAttribute {
 public:
  PerCallAttribute(Node attribute, Node statement, std::string_view src) : src_(src), target_(attribute) {
    name_ = attribute.field("attribute").text(src);
    while (statement.parent() && !statement.parent().is(NodeKind::Block)) statement = statement.parent();
    for (Node n = statement.parent(); n; n = n.parent()) {
      if (n.is(NodeKind::FunctionDefinition)) {
        fn_ = n;
        break;
      }
    }
    if (!fn_ || !statement.parent() || !(statement.parent() == fn_.field("body"))) return;  // unconditional only
    Node cls = fn_.parent();
    while (cls && !cls.is(NodeKind::ClassDefinition)) cls = cls.parent();
    if (!cls || !cls.field("body")) return;
    // The methods of a project base class could read it too (transformers' cache layers read
    // the `device` a subclass stores); only a class on `nn.Module` or `object` is read whole.
    if (Node bases = cls.field("superclasses")) {
      for (Node b : NamedChildren(bases)) {
        std::string_view t = b.text(src);
        if (t != "nn.Module" && t != "torch.nn.Module" && t != "Module" && t != "object") return;
      }
    }
    store_end_ = statement.end();
    for (Node c : NamedChildren(cls.field("body"))) {
      Node def = c.is(NodeKind::DecoratedDefinition) ? c.field("definition") : c;
      if (def && def.is(NodeKind::FunctionDefinition) && def.field("name")) methods_[def.field("name").text(src)] = def;
    }
    holds_ = true;
  }

  bool holds() {
    if (!holds_) return false;
    // The methods the storing method calls past the store, and what they call in turn.
    std::vector<Node> work = {fn_};
    after_.insert(fn_.id());
    for (size_t i = 0; i < work.size(); ++i) {
      for_calls(work[i], work[i] == fn_, [&](Node def) {
        if (after_.insert(def.id()).second) work.push_back(def);
      });
    }
    for (const auto& [name, def] : methods_) {
      if (name == "__init__" || def == fn_) continue;
      bool after = after_.count(def.id()) > 0;
      if (!after && (touches(def) || calls_any_after(def))) return false;
      if (after && stores(def)) return false;
    }
    return !reads_before_store(fn_);
  }

 private:
  // Calls `self.<method>(...)` of this class in `def` (past the store when `past_store`).
  template <typename Fn>
  void for_calls(Node n, bool past_store, const Fn& fn) {
    if (n.is(NodeKind::Call)) {
      Node callee = n.field("function").unparenthesized();
      if (callee.is(NodeKind::Attribute) && (!past_store || n.start() >= store_end_)) {
        Node object = callee.field("object").unparenthesized();
        auto it = methods_.find(callee.field("attribute").text(src_));
        if (object.is(NodeKind::Identifier) && object.text(src_) == "self" && it != methods_.end()) fn(it->second);
      }
    }
    for (Node c : NamedChildren(n)) for_calls(c, past_store, fn);
  }
  bool calls_any_after(Node def) {
    bool found = false;
    for_calls(def, false, [&](Node m) { found = found || (after_.count(m.id()) > 0 && !(m == fn_)); });
    return found;
  }
  // `self.<name>`, or the name as a string (`getattr(self, "name", None)`).
  bool is_name(Node n) const {
    auto on_self = [&](Node a) {
      Node o = a.field("object").unparenthesized();
      return o.is(NodeKind::Identifier) && o.text(src_) == "self";
    };
    return (n.is(NodeKind::Attribute) && n.field("attribute") && n.field("attribute").text(src_) == name_ &&
            on_self(n)) ||
           (n.is(NodeKind::String) && n.text(src_).size() == name_.size() + 2 &&
            n.text(src_).substr(1, name_.size()) == name_);
  }
  bool touches(Node n) const {
    if (is_name(n)) return true;
    for (Node c : NamedChildren(n)) {
      if (touches(c)) return true;
    }
    return false;
  }
  bool stores(Node n) const {
    if (n.is(NodeKind::Assignment) || n.is(NodeKind::AugmentedAssignment)) {
      if (Node l = n.field("left"); l && is_name(l.unparenthesized())) return true;
    }
    for (Node c : NamedChildren(n)) {
      if (stores(c)) return true;
    }
    return false;
  }
  // A use of the attribute in the storing method before the store, or in the store's value.
  bool reads_before_store(Node n) const {
    if (n.start() >= store_end_) return false;
    if (is_name(n) && !(n == target_)) return true;
    for (Node c : NamedChildren(n)) {
      if (reads_before_store(c)) return true;
    }
    return false;
  }

  std::string_view src_, name_;
  Node target_, fn_;
  uint32_t store_end_ = 0;
  bool holds_ = false;
  std::unordered_map<std::string_view, Node> methods_;
  std::unordered_set<const void*> after_;
};

class PythonStateMutation final : public Check {
 public:
  using Check::Check;

  void on_augmented(Node stmt, const SemanticModel& ctx) override {
    Node left = stmt.field("left").unparenthesized();
    std::string_view src = ctx.source();
    if (left.is(NodeKind::Identifier)) {
      std::string_view name = left.text(src);
      if (ctx.declared_global(name)) {
        const GlobalFacts* g = ctx.global_facts(name);
        if (g && g->value.is_tensor()) return;  // in-place on a tensor
        sink_.report(RuleId::FX203, stmt.range(),
                     "updates global `" + std::string(name) + "`" + support::once_or_replayed(settings_.target),
                     global_scalar_to_tensor(stmt, ctx));
      } else if (ctx.declared_nonlocal(name) && !ctx.closure_in_traced_call(name)) {
        sink_.report(RuleId::FX203, stmt.range(),
                     "updates closure variable `" + std::string(name) + "`" +
                         support::once_or_replayed(settings_.target));
      }
      return;
    }
    if (left.is(NodeKind::Attribute) && support::is_outer_object(left, ctx)) {
      Node attr = left.field("attribute");
      Value v = ctx.self_attribute(attr.text(src));
      if (v.kind != ValueKind::Static) return;  // tensors update in place; unknowns are not flagged
      if (support::exported_cache_fill(left, stmt, ctx, settings_.target)) return;
      sink_.report(RuleId::FX203, stmt.range(),
                   "updates Python attribute `" + std::string(left.text(src)) + "`" +
                       support::once_or_replayed(settings_.target, left, ctx),
                   attribute_scalar_to_buffer(stmt, ctx));
    }
  }

  void on_store(Node target, Node value, Node stmt, const SemanticModel& ctx) override {
    if (target.is(NodeKind::Attribute) && value && !ctx.function().is_constructor() &&
        support::is_outer_object(target, ctx) && ctx.value_of(value).kind == ValueKind::Static) {
      // TorchDynamo guards on what compiled code reads: an attribute its class
      // only writes (`self.last_shape = z.shape`) is replayed, never guarded on.
      if (settings_.target == Target::Dynamo && !read_in_class(target, ctx.source())) return;
      if (support::exported_cache_fill(target, stmt, ctx, settings_.target)) return;
      // The same literal on every call (AHNet's `self.dropout_prob = 0.0`), and no other
      // store outside `__init__`: what the traced code read after it is that literal, and the
      // store a program leaves out changes nothing a later call sees (the tracer ran it on the
      // module too). A flag that other code resets (`self.seen = True`) is reported.
      if (settings_.target != Target::Dynamo && only_store_of(target, value, stmt, ctx.source())) return;
      if (settings_.target != Target::Dynamo && PerCallAttribute(target, stmt, ctx.source()).holds()) return;
      sink_.report(RuleId::FX203, stmt.range(),
                   "rebinds Python attribute `" + std::string(target.text(ctx.source())) + "`" +
                       support::once_or_replayed(settings_.target, target, ctx));
      return;
    }
    if (!target.is(NodeKind::Identifier) || !value) return;
    std::string_view name = target.text(ctx.source());
    bool global = ctx.declared_global(name);
    if (!global && !(ctx.declared_nonlocal(name) && !ctx.closure_in_traced_call(name))) return;
    if (ctx.value_of(value).is_tensor()) return;  // FX401 / FX402
    sink_.report(RuleId::FX203, stmt.range(),
                 std::string(global ? "rebinds global `" : "rebinds closure variable `") + std::string(name) +
                     "`" + support::once_or_replayed(settings_.target));
  }

 private:
  // `global g; g += v` with `g = 0` at module level -> a 0-d tensor updated in place (unsafe).
  std::optional<Fix> global_scalar_to_tensor(Node statement, const SemanticModel& ctx) {
    std::string_view src = ctx.source();
    Node left = statement.field("left").unparenthesized();
    std::string name(left.text(src));
    // torch's own modules run this at their import, before torch can build tensors.
    const std::string& module = ctx.file().module_name;
    if (module == "torch" || module.starts_with("torch.")) return std::nullopt;
    // One pass over the module answers for every global of the file.
    if (!module_counters_) module_counters_ = module_counters(root_of(statement), src);
    auto it = module_counters_->find(name);
    if (it == module_counters_->end()) return std::nullopt;
    const CounterUse& use = it->second;
    if (use.bindings != 1 || use.other_use || !use.initializer) return std::nullopt;
    std::optional<TorchRef> torch = torch_ref(statement, ctx);
    if (!torch) return std::nullopt;
    bool is_float = false;
    std::string tensor = zero_dim_tensor(use.initializer, *torch, src, &is_float);
    if (tensor.empty()) return std::nullopt;
    auto site = inplace_update(statement, name, src, is_float);
    if (!site) return std::nullopt;
    return sorted_fix("Keep `" + name + "` in a 0-d tensor updated in place; another module that reads `" + name +
                          "` gets the tensor",
                      Applicability::Unsafe, torch->with_import({Edit{use.initializer.range(), tensor}, *site}));
  }

  // `self.n += v` with `self.n = 0` in __init__ -> a non-persistent buffer (unsafe).
  std::optional<Fix> attribute_scalar_to_buffer(Node statement, const SemanticModel& ctx) {
    std::string_view src = ctx.source();
    Node left = statement.field("left").unparenthesized();
    Node object = left.field("object").unparenthesized();
    Node attr = left.field("attribute");
    if (!object.is(NodeKind::Identifier) || object.text(src) != ctx.self_name() || !attr) return std::nullopt;
    // Only an nn.Module has register_buffer.
    if (!ctx.in_module_class()) return std::nullopt;
    std::string name(attr.text(src));
    Node cls = statement;
    while (cls && !cls.is(NodeKind::ClassDefinition)) cls = cls.parent();
    if (!cls) return std::nullopt;
    auto found = class_counters_.find(cls.id());
    if (found == class_counters_.end()) found = class_counters_.emplace(cls.id(), attribute_counters(cls, src)).first;
    auto it = found->second.find(name);
    if (it == found->second.end()) return std::nullopt;
    const CounterUse& use = it->second;
    if (use.bindings != 1 || use.other_use || !use.init_statement || !use.initializer) return std::nullopt;
    std::optional<TorchRef> torch = torch_ref(statement, ctx);
    if (!torch) return std::nullopt;
    bool is_float = false;
    std::string tensor = zero_dim_tensor(use.initializer, *torch, src, &is_float);
    if (tensor.empty()) return std::nullopt;
    auto site = inplace_update(statement, left.text(src), src, is_float);
    if (!site) return std::nullopt;
    std::string self_text(use.init_statement.field("left").field("object").text(src));
    std::string reg = self_text + ".register_buffer(\"" + name + "\", " + tensor + ", persistent=False)";
    return sorted_fix("Keep `" + std::string(left.text(src)) +
                          "` in a non-persistent buffer updated in place; it moves with `.to()` and is left "
                          "out of state_dict",
                      Applicability::Unsafe, torch->with_import({Edit{use.init_statement.range(), reg}, *site}));
  }

  // A check lives for one file: these are computed once per file and class.
  std::optional<CounterUses> module_counters_;
  std::unordered_map<const void*, CounterUses> class_counters_;
};

}  // namespace
std::unique_ptr<Check> make_python_state_mutation(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<PythonStateMutation>(s, c);
}
}  // namespace fxlint

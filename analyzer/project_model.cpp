#include "analyzer/project_model.h"

#include "analyzer/predicate_body.h"

#include <deque>
#include <optional>
#include <set>

#include "analyzer/parameter_name.h"
#include "analyzer/torch_api.h"
#include "analyzer/trace_truth.h"

namespace fxlint {

namespace {
std::pair<std::string_view, std::string_view> split_last(std::string_view q) {
  auto dot = q.rfind('.');
  if (dot == std::string_view::npos) return {{}, q};
  return {q.substr(0, dot), q.substr(dot + 1)};
}
}  // namespace

ProjectModel::ProjectModel(std::span<const FileModel* const> files, const std::vector<std::string>& entry_points)
    : files_(files) {
  for (size_t i = 0; i < files.size(); ++i) {
    if (!files[i]->module_name.empty()) by_module_[files[i]->module_name] = static_cast<int>(i);
  }
  // A name through namespace packages resolves when no module has it and one file does.
  StringMap<int> aliases;
  for (size_t i = 0; i < files.size(); ++i) {
    for (const std::string& a : files[i]->module_aliases) {
      if (by_module_.count(a)) continue;
      auto [it, first] = aliases.try_emplace(a, static_cast<int>(i));
      if (!first && it->second != static_cast<int>(i)) it->second = -1;
    }
  }
  for (const auto& [a, i] : aliases) {
    if (i >= 0) by_module_.emplace(a, i);
  }
  for (size_t i = 0; i < files.size(); ++i) {
    module_class_.emplace_back(files[i]->classes.size(), int8_t{-1});
    for (const std::string& w : files[i]->external_writes) external_writes_.insert(w);
  }
  for (size_t i = 0; i < files.size(); ++i) {
    for (size_t c = 0; c < files[i]->classes.size(); ++c) {
      module_class_uncached({static_cast<int>(i), static_cast<int>(c)}, 0);
    }
  }
  for (const FileModel* f : files) {
    size_t n = f->functions.size();
    hatch_.push_back(std::make_unique<std::atomic<int8_t>[]>(n));
    for (size_t i = 0; i < n; ++i) hatch_.back()[i].store(-1, std::memory_order_relaxed);
  }
  for (const FileModel* f : files_) {
    reexported_opaque_.emplace_back(f->functions.size(), uint8_t{0});
    reexported_seed_.emplace_back(f->functions.size(), false);
    for (size_t i = 0; i < f->functions.size(); ++i) {
      for (const std::string& d : f->functions[i].other_decorators) {
        std::string q = torch_name_of(d);
        if (q.empty()) continue;
        reexported_opaque_.back()[i] |= torch_api::opaque_decorator(q);
        if (torch_api::is_compile_decorator(q)) reexported_seed_.back()[i] = true;
      }
    }
  }
  compute_regions(entry_points, Tracer::Fx);
  compute_regions(entry_points, Tracer::Dynamo);
  for (auto& truths : condition_truth_) truths.clear();
}

std::string ProjectModel::torch_name_of(const std::string& qualified) const {
  std::string q = qualified;
  for (int hop = 0; hop < 3; ++hop) {
    auto [module, name] = split_last(q);
    auto m = by_module_.find(module);
    if (m == by_module_.end()) return "";
    std::string re = file(m->second).imports.qualify(name);
    if (re.empty() || re == q) return "";
    if (re.starts_with("torch.")) return re;
    q = re;
  }
  return "";
}

torch_api::HatchPredicate ProjectModel::hatch_of_function(FunctionRef f) const {
  std::vector<FunctionRef> visiting;
  return hatch_uncached(f, visiting);
}

namespace {

// `callee` names Python's built-in `name`: not imported, nor defined at the top of the file.
bool is_builtin(const FileModel& f, Node callee, std::string_view name) {
  Node c = callee ? callee.unparenthesized() : Node();
  return c && c.is(NodeKind::Identifier) && c.text(f.source) == name && !f.imports.find(name) &&
         !f.top_functions.count(name) && !f.globals.count(name);
}

}  // namespace

torch_api::HatchPredicate ProjectModel::hatch_of_call(int file, int scope, Node callee, std::string_view qualified) const {
  std::vector<FunctionRef> visiting;
  return hatch_of_call(file, scope, callee, qualified, visiting);
}

torch_api::HatchPredicate ProjectModel::hatch_of_call(int file, int scope, Node callee, std::string_view qualified,
                                                     std::vector<FunctionRef>& visiting) const {
  torch_api::HatchPredicate k = torch_api::hatch_predicate(qualified);
  if (k != torch_api::HatchPredicate::NotAHatch) return k;
  std::string written = dotted_text(callee.unparenthesized(), this->file(file).source);
  FunctionRef f = written.empty() ? FunctionRef{} : resolve_function(file, scope, written);
  if (f.valid()) return hatch_uncached(f, visiting);
  Node c = callee.unparenthesized();
  return c.is(NodeKind::Identifier) ? hatch_of_global(file, scope, c.text(this->file(file).source))
                                    : torch_api::HatchPredicate::NotAHatch;
}

torch_api::HatchPredicate ProjectModel::hatch_of_global(int file_index, int scope, std::string_view name) const {
  Node value = constant_global_value(file_index, scope, name);
  return value ? hatch_of_callable(file_index, value, 0) : torch_api::HatchPredicate::NotAHatch;
}

torch_api::HatchPredicate ProjectModel::hatch_of_callable(int file_index, Node e, int depth) const {
  using torch_api::HatchPredicate;
  const FileModel& f = file(file_index);
  e = e ? e.unparenthesized() : Node();
  if (!e || depth > 4) return HatchPredicate::NotAHatch;
  // `a or b`: the first of the spellings the torch in use has (the other is None there).
  if (e.is(NodeKind::BooleanOperator)) {
    Node op = e.field("operator");
    if (!op || op.text(f.source) != "or") return HatchPredicate::NotAHatch;
    HatchPredicate l = hatch_of_callable(file_index, e.field("left"), depth + 1);
    HatchPredicate r = hatch_of_callable(file_index, e.field("right"), depth + 1);
    return l == r ? l : HatchPredicate::NotAHatch;
  }
  if (e.is(NodeKind::Identifier) || e.is(NodeKind::Attribute)) {
    return torch_api::hatch_predicate(f.imports.qualify(e, f.source));
  }
  // getattr(torch.compiler, "is_compiling", None)
  if (!e.is(NodeKind::Call) || !is_builtin(f, e.field("function"), "getattr")) return HatchPredicate::NotAHatch;
  std::vector<Node> args;
  if (Node list = e.field("arguments")) {
    for (Node a : NamedChildren(list)) {
      if (!a.is(NodeKind::Comment)) args.push_back(a);
    }
  }
  if (args.size() < 2 || !args[1].is(NodeKind::String)) return HatchPredicate::NotAHatch;
  std::string_view literal = args[1].text(f.source);
  if (literal.size() < 3 || (literal.front() != '"' && literal.front() != '\'') || literal.back() != literal.front()) {
    return HatchPredicate::NotAHatch;
  }
  std::string owner = f.imports.qualify(args[0], f.source);
  if (owner.empty()) return HatchPredicate::NotAHatch;
  return torch_api::hatch_predicate(owner + "." + std::string(literal.substr(1, literal.size() - 2)));
}

// Memoized over the call graph; a function met again on its own call chain is
// NotAHatch there, so cycles end.
torch_api::HatchPredicate ProjectModel::hatch_uncached(FunctionRef f, std::vector<FunctionRef>& visiting) const {
  using torch_api::HatchPredicate;
  std::atomic<int8_t>& memo = hatch_[static_cast<size_t>(f.file)][static_cast<size_t>(f.function)];
  int8_t known = memo.load(std::memory_order_relaxed);
  if (known >= 0) return static_cast<HatchPredicate>(known);
  for (FunctionRef v : visiting) {
    if (v.file == f.file && v.function == f.function) return HatchPredicate::NotAHatch;
  }
  if (visiting.size() > 8) return HatchPredicate::NotAHatch;
  visiting.push_back(f);
  HatchPredicate k = hatch_computed(f, visiting);
  visiting.pop_back();
  memo.store(static_cast<int8_t>(k), std::memory_order_relaxed);
  return k;
}

torch_api::HatchPredicate ProjectModel::hatch_computed(FunctionRef f, std::vector<FunctionRef>& visiting) const {
  using torch_api::HatchPredicate;
  const FunctionInfo& info = file(f.file).functions[static_cast<size_t>(f.function)];
  std::vector<std::pair<Node, bool>> returns;
  if (!returned_values(info.node, returns) || returns.empty()) return HatchPredicate::NotAHatch;
  std::optional<HatchPredicate> kind;
  for (auto [value, in_except] : returns) {
    if (!value) return HatchPredicate::NotAHatch;
    // `except Exception: return False`: the eager fallback of a guarded import; and a
    // `return False` beside the hatch (`if torch.__version__ >= "2.3": return
    // torch.compiler.is_compiling()` then `return False`: PyG): the fallback of older torch.
    if (value.is(NodeKind::False)) continue;
    HatchPredicate k = hatch_of_expression(f, info.node.field("body"), value, 0, visiting);
    if (k == HatchPredicate::NotAHatch || (kind && *kind != k)) return HatchPredicate::NotAHatch;
    kind = k;
  }
  return kind ? *kind : HatchPredicate::NotAHatch;
}

bool ProjectModel::traced_path(FunctionRef f, int guard, Tracer tracer) {
  const FileModel& fm = file(f.file);
  const std::vector<ArmGuard>& guards = fm.functions[static_cast<size_t>(f.function)].guards;
  auto& truths = condition_truth_[index_of(tracer)];
  auto truth = [&](Node cond) -> std::optional<bool> {
    auto cached = truths.find(cond.id());
    if (cached != truths.end()) return cached->second;
    std::optional<bool> t = truth_when_traced(cond, fm.source, [&](Node leaf) -> std::optional<bool> {
      if (leaf.is(NodeKind::Identifier)) return constant_global_truth(f.file, f.function, leaf.text(fm.source));
      if (!leaf.is(NodeKind::Call)) return std::nullopt;
      Node callee = leaf.field("function");
      return truth_of_hatch(hatch_of_call(f.file, f.function, callee, fm.imports.qualify(callee, fm.source)), tracer);
    });
    truths.emplace(cond.id(), t);
    return t;
  };
  for (int g = guard; g >= 0; g = guards[static_cast<size_t>(g)].parent) {
    const ArmGuard& arm = guards[static_cast<size_t>(g)];
    std::optional<bool> t = truth(arm.condition);
    if (t && *t != arm.when) return false;
  }
  return true;
}

torch_api::HatchPredicate ProjectModel::hatch_of_expression(FunctionRef f, Node body, Node e, int depth,
                                                           std::vector<FunctionRef>& visiting) const {
  using torch_api::HatchPredicate;
  const FileModel& fm = file(f.file);
  if (depth > 8) return HatchPredicate::NotAHatch;  // `x = x or y`, deep wrappers
  e = e.unparenthesized();
  if (e.is(NodeKind::Call)) {
    Node callee = e.field("function");
    std::string q = fm.imports.qualify(callee, fm.source);
    // `bool(_is_compiling())`: the truth of the hatch.
    if (is_builtin(fm, callee, "bool")) {
      Node args = e.field("arguments");
      Node only = args && args.named_child_count() == 1 ? args.named_child(0) : Node();
      return only ? hatch_of_expression(f, body, only, depth + 1, visiting) : HatchPredicate::NotAHatch;
    }
    return hatch_of_call(f.file, f.function, callee, q, visiting);
  }
  // `bool(_is_compiling()) if _is_compiling is not None else False`: the fallback of a torch
  // without that spelling, as `return False` is.
  if (e.is(NodeKind::ConditionalExpression)) {
    Node alternative = e.named_child(2);
    if (!alternative || !alternative.unparenthesized().is(NodeKind::False)) return HatchPredicate::NotAHatch;
    return hatch_of_expression(f, body, e.named_child(0), depth + 1, visiting);
  }
  // `a or b`: true under a tracer when either is (is_compiling() or is_jit_tracing()).
  if (e.is(NodeKind::BooleanOperator)) {
    Node op = e.field("operator");
    if (!op || op.text(fm.source) != "or") return HatchPredicate::NotAHatch;
    HatchPredicate l = hatch_of_expression(f, body, e.field("left"), depth + 1, visiting);
    HatchPredicate r = hatch_of_expression(f, body, e.field("right"), depth + 1, visiting);
    if (l == HatchPredicate::IsCompiling || r == HatchPredicate::IsCompiling) return HatchPredicate::IsCompiling;
    return HatchPredicate::NotAHatch;
  }
  // A local every plain assignment of which is true under a tracer; `|=` keeps it true.
  if (e.is(NodeKind::Identifier)) {
    std::string_view name = e.text(fm.source);
    std::optional<HatchPredicate> kind;
    bool ok = true;
    auto visit = [&](auto&& self, Node n) -> void {
      if (!ok || n.is(NodeKind::FunctionDefinition) || n.is(NodeKind::ClassDefinition) || n.is(NodeKind::Lambda)) return;
      if (n.is(NodeKind::Assignment) || n.is(NodeKind::AugmentedAssignment)) {
        Node left = n.field("left").unparenthesized();
        if (left.is(NodeKind::Identifier) && left.text(fm.source) == name) {
          Node op = n.field("operator");
          if (n.is(NodeKind::AugmentedAssignment)) {
            ok = op && op.text(fm.source) == "|=";
            return;
          }
          Node right = n.field("right");
          HatchPredicate k = right ? hatch_of_expression(f, body, right, depth + 1, visiting) : HatchPredicate::NotAHatch;
          ok = k == HatchPredicate::IsCompiling;
          kind = k;
          return;
        }
      }
      for (Node c : NamedChildren(n)) self(self, c);
    };
    visit(visit, body);
    return ok && kind ? *kind : HatchPredicate::NotAHatch;
  }
  return HatchPredicate::NotAHatch;
}

std::pair<int, int> ProjectModel::find_exported(const std::string& qualified, TopLevel table) const {
  // Defined in the named module, or re-exported by its imports (`from .x import Cls` in __init__),
  // through packages of packages (mmdet's `..layers` re-exports `.transformer`, which re-exports
  // `.utils`); a cycle of re-exports ends at the bound.
  std::string q = qualified;
  for (int hop = 0; hop < 8 && !q.empty(); ++hop) {
    auto [module, name] = split_last(q);
    auto m = by_module_.find(module);
    if (m == by_module_.end()) return {-1, -1};
    const FileModel& target = file(m->second);
    const auto& names = target.*table;
    auto it = names.find(name);
    if (it != names.end()) return {m->second, it->second};
    std::string re = target.imports.qualify(name);
    if (re == q) break;
    q = re;
  }
  return {-1, -1};
}

ClassRef ProjectModel::resolve_class(int file, std::string_view dotted) const {
  const FileModel& f = this->file(file);
  if (dotted.find('.') == std::string_view::npos) {
    auto it = f.top_classes.find(dotted);
    if (it != f.top_classes.end()) return {file, it->second};
  }
  auto [target, index] = find_exported(f.imports.qualify(dotted), &FileModel::top_classes);
  return {target, index};
}

std::vector<ClassRef> ProjectModel::bases_of(ClassRef c) const {
  std::vector<ClassRef> out;
  for (const std::string& b : file(c.file).classes[static_cast<size_t>(c.cls)].bases) {
    ClassRef r = resolve_class(c.file, b);
    if (r.valid() && !(r.file == c.file && r.cls == c.cls)) out.push_back(r);
  }
  return out;
}

// Memoized; a class is marked "no" while its bases are visited, so cycles end.
bool ProjectModel::module_class_uncached(ClassRef c, int depth) const {
  int8_t& memo = const_cast<int8_t&>(module_class_[static_cast<size_t>(c.file)][static_cast<size_t>(c.cls)]);
  if (memo >= 0) return memo == 1;
  memo = 0;
  if (depth > 50) return false;
  const FileModel& f = file(c.file);
  for (const std::string& b : f.classes[static_cast<size_t>(c.cls)].bases) {
    std::string q = f.imports.qualify(b);
    ClassRef r = resolve_class(c.file, b);
    bool yes = q.starts_with("torch.nn.") || q.starts_with("torchvision.") || torch_api::is_library_module_base(q) ||
               (r.valid() && module_class_uncached(r, depth + 1));
    if (yes) {
      memo = 1;
      return true;
    }
  }
  return false;
}

bool ProjectModel::is_module_class(ClassRef c) const {
  return c.valid() && module_class_[static_cast<size_t>(c.file)][static_cast<size_t>(c.cls)] == 1;
}

bool ProjectModel::holds_parameters(ClassRef c, int depth) const {
  if (!c.valid() || depth > 3) return false;
  return first_in_hierarchy<bool>(c, false, [&](ClassRef cur, const ClassInfo& info) -> std::optional<bool> {
    for (const std::string& k : info.constructed) {
      if (makes_parameters(cur.file, k, depth + 1)) return true;
    }
    return std::nullopt;
  });
}

bool ProjectModel::makes_parameters(int file_index, std::string_view dotted, int depth) const {
  if (torch_api::makes_parameters(file(file_index).imports.qualify(dotted))) return true;
  ClassRef c = resolve_class(file_index, dotted);
  return c.valid() && holds_parameters(c, depth);
}

// Breadth-first over `c` and its project bases; the first class where `found`
// gives a value wins (guarded against cyclic or very deep hierarchies).
template <typename T, typename Found>
T ProjectModel::first_in_hierarchy(ClassRef c, T none, Found&& found) const {
  std::deque<ClassRef> queue{c};
  for (int guard = 0; !queue.empty() && guard < 64; ++guard) {
    ClassRef cur = queue.front();
    queue.pop_front();
    if (std::optional<T> hit = found(cur, file(cur.file).classes[static_cast<size_t>(cur.cls)])) return *hit;
    for (ClassRef b : bases_of(cur)) queue.push_back(b);
  }
  return none;
}

FunctionRef ProjectModel::find_method(ClassRef c, std::string_view name) const {
  return first_in_hierarchy<FunctionRef>(c, {}, [&](ClassRef cur, const ClassInfo& info) -> std::optional<FunctionRef> {
    auto it = info.methods.find(name);
    if (it == info.methods.end()) return std::nullopt;
    return FunctionRef{cur.file, it->second};
  });
}

bool ProjectModel::is_autograd_function(ClassRef c) const {
  return first_in_hierarchy<bool>(c, false, [&](ClassRef cur, const ClassInfo& info) -> std::optional<bool> {
    for (const std::string& b : info.bases) {
      std::string q = file(cur.file).imports.qualify(b);
      if (q == "torch.autograd.Function" || q == "torch.autograd.function.Function") return true;
    }
    return std::nullopt;
  });
}

FunctionRef ProjectModel::instance_method(FunctionRef scope, std::string_view dotted) const {
  size_t dot = dotted.find('.');
  if (dot == std::string_view::npos || dotted.find('.', dot + 1) != std::string_view::npos) return {};
  std::string head(dotted.substr(0, dot));
  std::string_view method = dotted.substr(dot + 1);
  const FileModel& f = file(scope.file);
  if (scope.function >= 0) {
    const FunctionInfo& fn = f.functions[static_cast<size_t>(scope.function)];
    if (auto it = fn.receiver_classes.find(head); it != fn.receiver_classes.end()) {
      ClassRef c = resolve_class(scope.file, it->second);
      return c.valid() ? find_method(c, method) : FunctionRef{};
    }
    if (fn.locals.count(head)) return {};
  }
  auto g = f.globals.find(head);
  if (g == f.globals.end() || g->second.top_level_assignments != 1 || g->second.rebound_in_function) return {};
  auto inst = f.instances.find(head);
  if (inst == f.instances.end()) return {};
  ClassRef c = resolve_class(scope.file, inst->second);
  return c.valid() ? find_method(c, method) : FunctionRef{};
}

FunctionRef ProjectModel::autograd_forward(int file_index, std::string_view dotted) const {
  if (!dotted.ends_with(".apply")) return {};
  ClassRef c = resolve_class(file_index, dotted.substr(0, dotted.size() - 6));
  if (!c.valid() || !is_autograd_function(c)) return {};
  return find_method(c, "forward");
}

Value ProjectModel::self_attribute(ClassRef c, std::string_view attr) const {
  return first_in_hierarchy<Value>(c, Value::unknown(), [&](ClassRef cur, const ClassInfo& info) -> std::optional<Value> {
    auto it = info.attributes.find(attr);
    if (it == info.attributes.end()) return std::nullopt;
    // `self.layers = _get_clones(layer, n)`: a project function that returns a module.
    if (auto made = info.attribute_calls.find(attr); it->second.kind == ValueKind::Unknown && made != info.attribute_calls.end()) {
      std::string q = file(cur.file).imports.qualify(made->second);
      if (is_module_factory(cur.file, q.empty() ? made->second : q)) return Value::of(ValueKind::Module);
    }
    // `self.mask = MASK`: a tensor the module shares with its file.
    if (auto g = info.attribute_globals.find(attr); it->second.kind == ValueKind::Unknown && g != info.attribute_globals.end()) {
      const FileModel& f = file(cur.file);
      auto global = f.globals.find(g->second);
      if (global != f.globals.end() && !global->second.is_function_or_class && global->second.value.is_tensor()) {
        return global->second.value;
      }
    }
    return it->second;
  });
}

bool ProjectModel::is_registered_buffer(ClassRef c, std::string_view attr) const {
  return first_in_hierarchy<bool>(c, false, [&](ClassRef, const ClassInfo& info) -> std::optional<bool> {
    if (info.buffers.count(attr)) return true;
    return std::nullopt;
  });
}

const std::vector<std::string>* ProjectModel::attribute_methods(ClassRef c, std::string_view attr) const {
  return first_in_hierarchy<const std::vector<std::string>*>(
      c, nullptr, [&](ClassRef, const ClassInfo& info) -> std::optional<const std::vector<std::string>*> {
        auto it = info.attribute_methods.find(attr);
        if (it == info.attribute_methods.end()) return std::nullopt;
        return &it->second;
      });
}

bool ProjectModel::is_taken_attribute(ClassRef c, std::string_view attr) const {
  return first_in_hierarchy<bool>(c, false, [&](ClassRef, const ClassInfo& info) -> std::optional<bool> {
    if (info.taken_attributes.count(attr)) return true;
    return std::nullopt;
  });
}

ClassRef ProjectModel::self_attribute_class(ClassRef c, std::string_view attr) const {
  auto found = [&](ClassRef cur, const ClassInfo& info) -> std::optional<ClassRef> {
    auto it = info.attribute_classes.find(attr);
    if (it == info.attribute_classes.end()) return std::nullopt;
    return resolve_class(cur.file, it->second);
  };
  ClassRef built = first_in_hierarchy<ClassRef>(c, {}, found);
  if (built.valid()) return built;
  if (ClassRef passed = passed_attribute_class(c, attr); passed.valid()) return passed;
  // `self.distance = self.get_default_distance() if d is None else d`: what c's own
  // (or inherited) override of that method makes.
  auto factory = [&](ClassRef, const ClassInfo& info) -> std::optional<std::string> {
    auto it = info.attribute_factories.find(attr);
    return it == info.attribute_factories.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  std::string method = first_in_hierarchy<std::string>(c, {}, factory);
  return method.empty() ? ClassRef{} : returned_class(find_method(c, method));
}

ClassRef ProjectModel::returned_class(FunctionRef f) const {
  if (!f.valid()) return {};
  const FileModel& fm = file(f.file);
  std::vector<std::pair<Node, bool>> returns;
  if (!returned_values(fm.functions[static_cast<size_t>(f.function)].node, returns) || returns.empty()) return {};
  ClassRef made;
  for (const auto& [value, in_except] : returns) {
    if (!value || !value.is(NodeKind::Call)) return {};
    ClassRef c = resolve_class(f.file, dotted_text(value.field("function"), fm.source));
    if (!c.valid() || (made.valid() && c != made)) return {};
    made = c;
  }
  return made;
}

namespace {

// Where a constructor's parameter is among the arguments a construction passes
// (after `self`); -1 when it is not one of them.
int parameter_position(const FileModel& f, int function, std::string_view name) {
  Node params = f.functions[static_cast<size_t>(function)].node.field("parameters");
  int i = -1;
  for (Node p : NamedChildren(params)) {
    if (Node n = parameter_name(p); n && n.text(f.source) == name) return i;
    ++i;
  }
  return -1;
}

}  // namespace

// `self.<attr> = <parameter>` in the constructor of `c` or a base: the one
// class every construction of that class passes there. `self.<attr> =
// <parameter>(...)`: the one class passed there itself.
ClassRef ProjectModel::passed_attribute_class(ClassRef c, std::string_view attr) const {
  std::string parameter;
  bool built = false;
  auto assigns = [&](ClassRef cur, const ClassInfo& info) -> std::optional<ClassRef> {
    auto it = info.attribute_parameters.find(attr);
    if (it == info.attribute_parameters.end()) {
      it = info.attribute_parameter_builds.find(attr);
      if (it == info.attribute_parameter_builds.end()) return std::nullopt;
      built = true;
    }
    parameter = it->second;
    return cur;
  };
  ClassRef owner = first_in_hierarchy<ClassRef>(c, {}, assigns);
  return owner.valid() ? class_passed_for(owner, parameter, built ? Passed::Class : Passed::Instance) : ClassRef{};
}

ClassRef ProjectModel::passed_element_class(ClassRef c, std::string_view attr) const {
  std::string parameter;
  auto assigns = [&](ClassRef cur, const ClassInfo& info) -> std::optional<ClassRef> {
    auto it = info.attribute_parameter_elements.find(attr);
    if (it == info.attribute_parameter_elements.end()) return std::nullopt;
    parameter = it->second;
    return cur;
  };
  ClassRef owner = first_in_hierarchy<ClassRef>(c, {}, assigns);
  return owner.valid() ? class_passed_for(owner, parameter, Passed::Elements) : ClassRef{};
}

ClassRef ProjectModel::class_passed_for(ClassRef owner, const std::string& parameter, Passed how) const {
  const ClassInfo& info = file(owner.file).classes[static_cast<size_t>(owner.cls)];
  auto init = info.methods.find("__init__");
  if (init == info.methods.end()) return {};
  int position = parameter_position(file(owner.file), init->second, parameter);
  if (position < 0) return {};
  std::call_once(constructions_once_, [&] {
    for (size_t f = 0; f < files_.size(); ++f) {
      for (const Construction& k : file(static_cast<int>(f)).constructions) {
        ClassRef target = resolve_class(static_cast<int>(f), k.callee);
        if (target.valid()) constructions_[{target.file, target.cls}].emplace_back(static_cast<int>(f), &k);
      }
    }
  });
  // Where the constructions do not tell one class, an instance parameter annotated with a
  // project class (`def __init__(self, sched: DDPMScheduler)`) holds that class, taken at its word.
  auto annotated = [&]() -> ClassRef {
    if (how != Passed::Instance) return {};
    const FunctionInfo& fn = file(owner.file).functions[static_cast<size_t>(init->second)];
    auto r = fn.receiver_classes.find(parameter);
    return r == fn.receiver_classes.end() ? ClassRef{} : resolve_class(owner.file, r->second);
  };
  auto it = constructions_.find({owner.file, owner.cls});
  if (it == constructions_.end()) return annotated();
  ClassRef found;
  for (const auto& [f, k] : it->second) {
    for (const Construction::Argument& a : k->arguments) {
      if (a.keyword.empty() ? a.position != position : a.keyword != parameter) continue;
      // An instance where a class is called, a display where one module is kept, or the reverse.
      if (a.is_class != (how == Passed::Class) || a.elements != (how == Passed::Elements)) return annotated();
      ClassRef passed = resolve_class(f, a.cls);
      if (!passed.valid() || (found.valid() && !(found == passed))) return annotated();  // unknown or not one class
      found = passed;
    }
  }
  return found.valid() ? found : annotated();
}

const std::vector<ClassRef>* ProjectModel::direct_subclasses(ClassRef c) const {
  std::call_once(subclasses_once_, [&] {
    for (size_t f = 0; f < files_.size(); ++f) {
      for (size_t k = 0; k < file(static_cast<int>(f)).classes.size(); ++k) {
        ClassRef sub{static_cast<int>(f), static_cast<int>(k)};
        for (ClassRef b : bases_of(sub)) subclasses_[{b.file, b.cls}].push_back(sub);
      }
    }
  });
  auto it = subclasses_.find({c.file, c.cls});
  return it == subclasses_.end() ? nullptr : &it->second;
}

bool ProjectModel::handed_on(ClassRef c) const {
  std::call_once(handed_on_once_, [&] {
    for (size_t f = 0; f < files_.size(); ++f) {
      for (const ClassInfo& info : file(static_cast<int>(f)).classes) {
        for (const std::string& dotted : info.passed_classes) {
          ClassRef r = resolve_class(static_cast<int>(f), dotted);
          if (r.file >= 0) handed_on_.insert({r.file, r.cls});
        }
      }
    }
  });
  return handed_on_.count({c.file, c.cls}) > 0;
}

std::vector<FunctionRef> ProjectModel::overrides(ClassRef c, std::string_view name) const {
  std::vector<FunctionRef> out;
  if (!direct_subclasses(c)) return out;  // most classes have no project subclass
  std::vector<ClassRef> work{c};
  std::set<std::pair<int, int>> seen{{c.file, c.cls}};
  while (!work.empty() && seen.size() < 4096) {
    ClassRef cur = work.back();
    work.pop_back();
    const std::vector<ClassRef>* subs = direct_subclasses(cur);
    if (!subs) continue;
    for (ClassRef sub : *subs) {
      if (!seen.insert({sub.file, sub.cls}).second) continue;
      const ClassInfo& info = file(sub.file).classes[static_cast<size_t>(sub.cls)];
      if (auto m = info.methods.find(name); m != info.methods.end()) out.push_back({sub.file, m->second});
      work.push_back(sub);
    }
  }
  return out;
}

std::vector<std::string> ProjectModel::attribute_constructors(ClassRef c, std::string_view attr) const {
  direct_subclasses(c);
  std::vector<std::string> out;
  auto add = [&](ClassRef cur, const ClassInfo& info) {
    auto it = info.attribute_classes.find(attr);
    if (it == info.attribute_classes.end()) return false;
    out.push_back(file(cur.file).imports.qualify(it->second));
    return true;
  };
  first_in_hierarchy<bool>(c, false, [&](ClassRef cur, const ClassInfo& info) -> std::optional<bool> {
    return add(cur, info) ? std::optional<bool>(true) : std::nullopt;
  });
  // Most classes have no project subclass: nothing more to visit or allocate.
  if (!subclasses_.count({c.file, c.cls})) return out;
  std::vector<ClassRef> work{c};
  std::set<std::pair<int, int>> seen{{c.file, c.cls}};
  while (!work.empty() && seen.size() < 4096) {
    ClassRef cur = work.back();
    work.pop_back();
    auto it = subclasses_.find({cur.file, cur.cls});
    if (it == subclasses_.end()) continue;
    for (ClassRef sub : it->second) {
      if (!seen.insert({sub.file, sub.cls}).second) continue;
      add(sub, file(sub.file).classes[static_cast<size_t>(sub.cls)]);
      work.push_back(sub);
    }
  }
  return out;
}

std::vector<ClassRef> ProjectModel::attribute_element_set(ClassRef c, std::string_view attr) const {
  std::vector<ClassRef> out;
  first_in_hierarchy<bool>(c, false, [&](ClassRef cur, const ClassInfo& info) -> std::optional<bool> {
    auto it = info.attribute_element_sets.find(attr);
    if (it == info.attribute_element_sets.end()) return std::nullopt;
    for (const std::string& name : it->second) {
      if (ClassRef r = resolve_class(cur.file, name); r.valid()) out.push_back(r);
    }
    return true;
  });
  return out;
}

ClassRef ProjectModel::self_attribute_element_class(ClassRef c, std::string_view attr) const {
  ClassRef built = first_in_hierarchy<ClassRef>(c, {}, [&](ClassRef cur, const ClassInfo& info) -> std::optional<ClassRef> {
    auto it = info.attribute_element_classes.find(attr);
    if (it == info.attribute_element_classes.end()) return std::nullopt;
    return resolve_class(cur.file, it->second);
  });
  return built.valid() ? built : passed_element_class(c, attr);
}

FunctionRef ProjectModel::resolve_function(int file, int scope, std::string_view dotted) const {
  const FileModel& f = this->file(file);
  if (dotted.find('.') == std::string_view::npos) {
    std::string name(dotted);
    for (int s = scope; s >= 0; s = f.functions[static_cast<size_t>(s)].parent) {
      const FunctionInfo& info = f.functions[static_cast<size_t>(s)];
      auto it = info.nested.find(name);
      if (it != info.nested.end()) return {file, it->second};
    }
    auto it = f.top_functions.find(name);
    if (it != f.top_functions.end()) return {file, it->second};
  } else {
    // Cls.method in this file.
    auto [head, last] = split_last(dotted);
    ClassRef c = resolve_class(file, head);
    if (c.valid()) return find_method(c, last);
  }
  auto [target, index] = find_exported(f.imports.qualify(dotted), &FileModel::top_functions);
  return {target, index};
}

int ProjectModel::method_class(int file, int function) const {
  const FileModel& f = this->file(file);
  for (int s = function; s >= 0; s = f.functions[static_cast<size_t>(s)].parent) {
    if (f.functions[static_cast<size_t>(s)].cls >= 0) return f.functions[static_cast<size_t>(s)].cls;
  }
  return -1;
}

Node ProjectModel::constant_global_value(int file_index, int function, std::string_view name) const {
  const FileModel& f = file(file_index);
  for (int s = function; s >= 0; s = f.functions[static_cast<size_t>(s)].parent) {
    const FunctionInfo& info = f.functions[static_cast<size_t>(s)];
    if (info.globals.count(name)) break;
    if (info.locals.count(name) || info.nonlocals.count(name)) return {};
  }
  auto it = f.globals.find(name);
  if (it == f.globals.end() || it->second.is_function_or_class || is_mutable_global(file_index, name)) return {};
  Node bound = it->second.first_binding;
  Node assignment = bound ? bound.parent() : Node();
  if (!assignment || !assignment.is(NodeKind::Assignment) || !(assignment.field("left") == bound)) return {};
  return assignment.field("right");
}

std::optional<bool> ProjectModel::constant_global_truth(int file_index, int function, std::string_view name) const {
  Node value = constant_global_value(file_index, function, name);
  if (!value) return std::nullopt;
  value = value.unparenthesized();
  if (value.is(NodeKind::True)) return true;
  if (value.is(NodeKind::False) || value.is(NodeKind::None)) return false;
  return std::nullopt;
}

bool ProjectModel::is_mutable_global(int file, std::string_view name) const {
  const FileModel& f = this->file(file);
  auto it = f.globals.find(name);
  if (it == f.globals.end() || it->second.is_function_or_class) return false;
  return it->second.is_mutable() || external_writes_.count(f.module_name + "." + std::string(name)) > 0;
}

bool ProjectModel::is_mutable_module_global(std::string_view qualified) const {
  auto [module, name] = split_last(qualified);
  auto m = by_module_.find(module);
  return m != by_module_.end() && is_mutable_global(m->second, name);
}

AnnotationKind ProjectModel::type_alias(int file, std::string_view name, int depth) const {
  const FileModel& fm = this->file(file);
  if (auto it = fm.globals.find(name); it != fm.globals.end() && it->second.alias != AnnotationKind::Other) {
    return it->second.is_mutable() ? AnnotationKind::Other : it->second.alias;
  }
  // Imported from another project module (a package re-exporting it, say).
  const std::string* q = fm.imports.find(name);
  if (!q || depth >= 3) return AnnotationKind::Other;
  auto [module, last] = split_last(*q);
  auto m = by_module_.find(module);
  return m == by_module_.end() ? AnnotationKind::Other : type_alias(m->second, last, depth + 1);
}

AnnotationKind ProjectModel::annotation_kind(int file, Node type) const {
  class Aliases final : public TypeAliases {
   public:
    Aliases(const ProjectModel& p, int file) : p_(p), file_(file) {}
    AnnotationKind own(std::string_view name) const override { return p_.type_alias(file_, name); }
    AnnotationKind imported(std::string_view qualified) const override {
      auto [module, name] = split_last(qualified);
      auto m = p_.by_module_.find(module);
      return m == p_.by_module_.end() ? AnnotationKind::Other : p_.type_alias(m->second, name);
    }

   private:
    const ProjectModel& p_;
    int file_;
  };
  Aliases aliases(*this, file);
  const FileModel& fm = this->file(file);
  return classify_annotation(type, fm.source, fm.imports, &aliases);
}

const GlobalFacts* ProjectModel::module_global_facts(std::string_view qualified, int* owner) const {
  auto [module, name] = split_last(qualified);
  auto m = by_module_.find(module);
  if (m == by_module_.end()) return nullptr;
  if (owner) *owner = m->second;
  const auto& globals = files_[static_cast<size_t>(m->second)]->globals;
  auto it = globals.find(name);
  return it == globals.end() ? nullptr : &it->second;
}

bool ProjectModel::returns_made(int file, std::string_view qualified, int depth, const MadeBy& made) const {
  std::string own(qualified);
  if (own.find('.') == std::string::npos) own = this->file(file).module_name + "." + own;
  auto [file_index, function] = find_exported(own, &FileModel::top_functions);
  if (file_index < 0 || depth >= 3) return false;
  const FileModel& fm = this->file(file_index);
  std::vector<std::pair<Node, bool>> returns;
  if (!returned_values(fm.functions[static_cast<size_t>(function)].node, returns) || returns.empty()) return false;
  auto makes = [&](Node call) {
    if (!call || !call.is(NodeKind::Call)) return false;
    Node callee = call.field("function").unparenthesized();
    std::string q = fm.imports.qualify(callee, fm.source);
    if (q.empty() && callee.is(NodeKind::Identifier)) q = callee.text(fm.source);  // a function of that file
    return !q.empty() && made(file_index, q, depth + 1);
  };
  Node body = fm.functions[static_cast<size_t>(function)].node.field("body");
  for (const auto& [value, in_except] : returns) {
    if (!value) return false;
    if (!value.is(NodeKind::Identifier)) {
      if (!makes(value)) return false;
      continue;
    }
    // `tokenizer = BertTokenizer.from_pretrained(...)`, set up, then `return tokenizer`.
    bool assigned = false;
    for (Node a : returned_local_assignments(body, {{value.parent(), in_except}}, fm.source)) {
      if (a.field("left").unparenthesized().text(fm.source) != value.text(fm.source)) continue;
      if (!a.is(NodeKind::Assignment) || !makes(a.field("right").unparenthesized())) return false;
      assigned = true;
    }
    if (!assigned) return false;
  }
  return true;
}

template <typename Compute>
bool ProjectModel::remembered_factory(char kind, int file, std::string_view qualified, Compute&& compute) const {
  std::tuple<char, int, std::string> key{kind, file, std::string(qualified)};
  {
    std::lock_guard<std::mutex> lock(factories_mutex_);
    if (auto it = factories_.find(key); it != factories_.end()) return it->second;
  }
  bool made = compute();  // unlocked: it asks again for the functions it calls
  std::lock_guard<std::mutex> lock(factories_mutex_);
  factories_.emplace(std::move(key), made);
  return made;
}

bool ProjectModel::is_tokenizer_factory(int file, std::string_view qualified, int depth) const {
  if (torch_api::makes_tokenizer(qualified)) return true;
  auto compute = [&] {
    return returns_made(file, qualified, depth, [this](int f, std::string_view q, int d) {
      return is_tokenizer_factory(f, q, d);
    });
  };
  return depth > 0 ? compute() : remembered_factory('t', file, qualified, compute);
}

bool ProjectModel::is_module_factory(int file, std::string_view qualified, int depth) const {
  if (torch_api::is_module_class(qualified)) return true;
  auto compute = [&] {
    std::string own(qualified);
    if (own.find('.') == std::string::npos) own = this->file(file).module_name + "." + own;
    auto [class_file, cls] = find_exported(own, &FileModel::top_classes);
    if (class_file >= 0) return is_module_class({class_file, cls});
    return returns_made(file, qualified, depth, [this](int f, std::string_view q, int d) {
      return is_module_factory(f, q, d);
    });
  };
  return depth > 0 ? compute() : remembered_factory('m', file, qualified, compute);
}

bool ProjectModel::attribute_is_tokenizer(ClassRef c, std::string_view attr) const {
  return first_in_hierarchy<bool>(c, false, [&](ClassRef cur, const ClassInfo& info) -> std::optional<bool> {
    const FileModel& fm = file(cur.file);
    for (const StringMap<std::string>* made : {&info.attribute_classes, &info.attribute_calls}) {
      if (auto it = made->find(attr); it != made->end()) {
        std::string q = fm.imports.qualify(it->second);
        return is_tokenizer_factory(cur.file, q.empty() ? it->second : q);
      }
    }
    return std::nullopt;
  });
}

bool ProjectModel::is_logger_factory(int file, std::string_view qualified, int depth) const {
  if (qualified == "logging.getLogger") return true;
  std::string own(qualified);
  if (own.find('.') == std::string::npos) own = this->file(file).module_name + "." + own;
  if (find_exported(own, &FileModel::top_functions).first < 0) {
    // Libraries' factories, for code checked without them: both return logging.getLogger(name).
    return qualified == "transformers.utils.logging.get_logger" || qualified == "transformers.logging.get_logger" ||
           qualified == "diffusers.utils.logging.get_logger" || qualified == "diffusers.logging.get_logger";
  }
  return returns_made(file, qualified, depth, [this](int f, std::string_view q, int d) {
    return is_logger_factory(f, q, d);
  });
}

void ProjectModel::add_seed(std::vector<FunctionRef>& work, Tracer tracer, FunctionRef f) {
  if (!f.valid() || opaque(f.file, f.function, tracer)) return;
  entries_[static_cast<size_t>(f.file)][static_cast<size_t>(f.function)] = true;
  reach(work, tracer, f);
}

void ProjectModel::reach(std::vector<FunctionRef>& work, Tracer tracer, FunctionRef f) {
  if (!f.valid() || opaque(f.file, f.function, tracer)) return;
  std::vector<std::vector<bool>>& region = regions_[index_of(tracer)];
  if (region[static_cast<size_t>(f.file)][static_cast<size_t>(f.function)]) return;
  region[static_cast<size_t>(f.file)][static_cast<size_t>(f.function)] = true;
  work.push_back(f);
  // A call of a decorated function runs the decorator's wrapper, which the tracer traces too.
  for (const std::string& d : file(f.file).functions[static_cast<size_t>(f.function)].other_decorators) {
    reach(work, tracer, decorator_wrapper(d));
  }
}

FunctionRef ProjectModel::decorator_wrapper(const std::string& qualified) const {
  auto [file_index, function] = find_exported(qualified, &FileModel::top_functions);
  if (file_index < 0) return {};
  const FileModel& fm = file(file_index);
  // The nested def that every return of `f` names; -1 when none.
  auto returned_nested = [&](int f) {
    const FunctionInfo& info = fm.functions[static_cast<size_t>(f)];
    std::vector<std::pair<Node, bool>> returns;
    if (!returned_values(info.node, returns)) return -1;
    int found = -1;
    for (const auto& [value, in_except] : returns) {
      if (!value || !value.is(NodeKind::Identifier)) return -1;
      auto it = info.nested.find(value.text(fm.source));
      if (it == info.nested.end() || (found >= 0 && found != it->second)) return -1;
      found = it->second;
    }
    return found;
  };
  int wrapper = returned_nested(function);
  if (wrapper < 0) return {};
  if (int inner = returned_nested(wrapper); inner >= 0) return {file_index, inner};
  // A factory's decorator that hands back the function it was given (a registry's
  // `def register(kernel): table[k] = kernel; return kernel`) runs when decorating only.
  const FunctionInfo& info = fm.functions[static_cast<size_t>(wrapper)];
  std::vector<std::pair<Node, bool>> returns;
  if (Node params = info.node.field("parameters"); params && returned_values(info.node, returns)) {
    for (const auto& [value, in_except] : returns) {
      if (!value || !value.is(NodeKind::Identifier)) continue;
      std::string_view name = value.text(fm.source);
      for (Node p : NamedChildren(params)) {
        if (p.is(NodeKind::Identifier) && p.text(fm.source) == name) return {};
      }
    }
  }
  return {file_index, wrapper};
}

void ProjectModel::compute_regions(const std::vector<std::string>& entry_points, Tracer tracer) {
  std::vector<std::vector<bool>>& region = regions_[index_of(tracer)];
  region.clear();
  if (entries_.empty()) {
    for (const FileModel* f : files_) entries_.emplace_back(f->functions.size(), false);
    compile_call_targets_ = entries_;
    hook_targets_ = entries_;
  }
  for (const FileModel* f : files_) region.emplace_back(f->functions.size(), false);
  std::vector<FunctionRef> work;

  for (size_t fi = 0; fi < files_.size(); ++fi) {
    const FileModel& f = *files_[fi];
    int file_index = static_cast<int>(fi);
    for (size_t i = 0; i < f.functions.size(); ++i) {
      const FunctionInfo& fn = f.functions[i];
      bool seed = fn.seed != SeedReason::None || reexported_seed_[fi][i];
      if (!seed && fn.cls >= 0 && fn.name == "forward") seed = is_module_class({file_index, fn.cls});
      if (seed) add_seed(work, tracer, {file_index, static_cast<int>(i)});
    }
    for (const CompileSeed& s : f.compile_seeds) {
      std::string target = s.target;
      bool constructed = target.ends_with("()");
      if (constructed) target.resize(target.size() - 2);
      if (target.starts_with("self.") && s.cls >= 0) {
        std::string attr = target.substr(5);
        ClassRef c{file_index, s.cls};
        FunctionRef m = find_method(c, attr);
        if (m.valid()) {
          add_seed(work, tracer, m);
          continue;
        }
        ClassRef sub = self_attribute_class(c, attr);
        if (sub.valid()) add_seed(work, tracer, find_method(sub, "forward"));
        continue;
      }
      if (!constructed) {
        // A name bound to an instance: model = Model(); torch.compile(model)
        auto inst = f.instances.find(target);
        if (inst != f.instances.end()) {
          ClassRef c = resolve_class(file_index, inst->second);
          if (c.valid()) {
            add_seed(work, tracer, find_method(c, "forward"));
            continue;
          }
        }
        // model.forward / obj.method
        auto [head, last] = split_last(target);
        if (!head.empty()) {
          auto inst2 = f.instances.find(head);
          if (inst2 != f.instances.end()) {
            ClassRef c = resolve_class(file_index, inst2->second);
            if (c.valid()) {
              add_seed(work, tracer, find_method(c, last));
              continue;
            }
          }
        }
        FunctionRef fr = resolve_function(file_index, s.function, target);
        if (fr.valid()) {
          add_seed(work, tracer, fr);
          (s.hook ? hook_targets_ : compile_call_targets_)[static_cast<size_t>(fr.file)]
                                                          [static_cast<size_t>(fr.function)] = true;
          continue;
        }
      }
      ClassRef c = resolve_class(file_index, target);
      if (c.valid()) add_seed(work, tracer, find_method(c, "forward"));
    }
  }

  for (const std::string& ep : entry_points) {
    auto colon = ep.find(':');
    if (colon == std::string::npos) continue;
    auto m = by_module_.find(ep.substr(0, colon));
    bool matched = false;
    if (m != by_module_.end()) {
      const FileModel& f = file(m->second);
      std::string qual = ep.substr(colon + 1);
      for (size_t i = 0; i < f.functions.size(); ++i) {
        if (f.functions[i].qualname == qual) {
          add_seed(work, tracer, {m->second, static_cast<int>(i)});
          matched = true;
        }
      }
      auto c = f.top_classes.find(qual);
      if (c != f.top_classes.end()) {
        add_seed(work, tracer, find_method({m->second, c->second}, "forward"));
        matched = true;
      }
    }
    if (!matched && tracer == Tracer::Fx) unmatched_entry_points_.push_back({ep, m != by_module_.end()});
  }

  // Everything called from a compiled function is compiled too.
  while (!work.empty()) {
    FunctionRef cur = work.back();
    work.pop_back();
    const FileModel& f = file(cur.file);
    const FunctionInfo& fn = f.functions[static_cast<size_t>(cur.function)];
    int cls = method_class(cur.file, cur.function);
    // `self.cache.size` where `size` is a property: reading it runs the getter.
    for (const std::string& read : cls >= 0 ? fn.self_attribute_reads : std::vector<std::string>{}) {
      ClassRef c{cur.file, cls};
      std::string_view rest = std::string_view(read).substr(5);
      for (size_t dot = rest.find('.'); c.valid() && dot != std::string_view::npos; dot = rest.find('.')) {
        c = self_attribute_class(c, rest.substr(0, dot));
        rest.remove_prefix(dot + 1);
      }
      FunctionRef getter = c.valid() ? find_method(c, rest) : FunctionRef{};
      if (getter.valid() && file(getter.file).functions[static_cast<size_t>(getter.function)].is_property) {
        reach(work, tracer, getter);
      }
    }
    for (const CallEdge& e : fn.calls) {
      if (e.guard >= 0 && !traced_path(cur, e.guard, tracer)) continue;
      switch (e.kind) {
        case CallEdge::Kind::Name: {
          FunctionRef target = resolve_function(cur.file, cur.function, e.name);
          reach(work, tracer, target);
          break;
        }
        case CallEdge::Kind::SelfMethod: {
          if (cls < 0) break;
          ClassRef c{cur.file, cls};
          FunctionRef m = find_method(c, e.name);
          if (m.valid()) {
            reach(work, tracer, m);
            // A sub-module class that inherits this code runs its own override.
            if (is_module_class(c)) {
              for (FunctionRef o : overrides(c, e.name)) reach(work, tracer, o);
            }
          } else if (const std::vector<std::string>* aliases = attribute_methods(c, e.name)) {
            // `self.loss = self.a if flag else self.b` in __init__, then `self.loss(x)`.
            for (const std::string& a : *aliases) reach(work, tracer, find_method(c, a));
          } else {
            ClassRef sub = self_attribute_class(c, e.name);
            if (sub.valid()) reach(work, tracer, find_method(sub, "forward"));
          }
          break;
        }
        case CallEdge::Kind::SuperMethod: {
          if (cls < 0) break;
          for (ClassRef b : bases_of({cur.file, cls})) reach(work, tracer, find_method(b, e.name));
          break;
        }
        case CallEdge::Kind::Dotted:
          if (e.name.starts_with("self.") && cls >= 0) {  // self.box_coder.decode(...)
            std::string_view rest = std::string_view(e.name).substr(5);
            size_t dot = rest.find('.');
            if (dot != std::string_view::npos && rest.find('.', dot + 1) == std::string_view::npos) {
              ClassRef sub = self_attribute_class({cur.file, cls}, rest.substr(0, dot));
              if (sub.valid()) reach(work, tracer, find_method(sub, rest.substr(dot + 1)));
              break;
            }
          }
          if (FunctionRef forward = autograd_forward(cur.file, e.name); forward.valid()) {
            reach(work, tracer, forward);  // Fn.apply(...) runs Fn.forward
            // TorchDynamo traces Fn.backward too, when it meets the call.
            if (tracer == Tracer::Dynamo) {
              const FunctionInfo& fwd = file(forward.file).functions[static_cast<size_t>(forward.function)];
              reach(work, tracer, find_method({forward.file, fwd.cls}, "backward"));
            }
            break;
          }
          // `f.apply(x)` in `for f in self.filters:`: the method of each class the list holds.
          if (size_t dot = e.name.find('.'); cls >= 0 && dot != std::string::npos &&
                                             e.name.find('.', dot + 1) == std::string::npos) {
            auto loop = fn.loop_attribute_elements.find(std::string_view(e.name).substr(0, dot));
            if (loop != fn.loop_attribute_elements.end()) {
              std::string_view method = std::string_view(e.name).substr(dot + 1);
              for (ClassRef element : attribute_element_set({cur.file, cls}, loop->second)) {
                reach(work, tracer, find_method(element, method));
              }
              break;
            }
          }
          // `h.run(x)` on `h: Helper`, a local `h = Helper()` or a module-level `model = Model()`.
          if (FunctionRef m = instance_method(cur, e.name); m.valid()) {
            reach(work, tracer, m);
            break;
          }
          reach(work, tracer, resolve_function(cur.file, cur.function, e.name));
          break;
      }
    }
    // A compiled forward runs the sub-modules its class builds (ModuleList, Sequential, ...).
    if (cls >= 0 && fn.name == "forward") {
      for (const std::string& built : f.classes[static_cast<size_t>(cls)].constructed) {
        ClassRef sub = resolve_class(cur.file, built);
        if (sub.valid() && is_module_class(sub)) reach(work, tracer, find_method(sub, "forward"));
      }
    }
  }
}

}  // namespace fxlint

// Pass one: a single traversal of a file's tree that fills its FileModel.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "analyzer/file_model.h"
#include "analyzer/parameter_name.h"
#include "analyzer/torch_api.h"
#include "analyzer/type_comment.h"

namespace fxlint {

namespace {

bool is_capitalized(std::string_view dotted) {
  auto dot = dotted.rfind('.');
  std::string_view last = dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
  return !last.empty() && last[0] >= 'A' && last[0] <= 'Z';
}

const std::unordered_set<std::string_view>& container_mutators() {
  static const std::unordered_set<std::string_view> s = {
      "append", "extend", "insert", "pop", "popleft", "appendleft", "remove", "clear",
      "update", "setdefault", "add", "discard", "popitem", "sort", "reverse"};
  return s;
}

// Calls fn(identifier) for every name a binding target binds (`a`, `a, (b, *c)`).
template <typename Fn>
void for_each_bound_name(Node target, std::string_view src, Fn&& fn) {
  target = target.unparenthesized();
  switch (target.kind()) {
    case NodeKind::Identifier:
      fn(target);
      break;
    case NodeKind::PatternList:
    case NodeKind::TuplePattern:
    case NodeKind::ListPattern:
    case NodeKind::Tuple:
    case NodeKind::List:
    case NodeKind::ExpressionList:
    case NodeKind::ListSplatPattern:
    case NodeKind::ListSplat:
      for (Node c : NamedChildren(target)) for_each_bound_name(c, src, fn);
      break;
    default:
      break;
  }
}

// The file's own type aliases bound so far: another module's are not known while indexing.
class OwnAliases final : public TypeAliases {
 public:
  explicit OwnAliases(const FileModel& m) : m_(m) {}
  AnnotationKind own(std::string_view name) const override {
    auto it = m_.globals.find(name);
    return it != m_.globals.end() && !it->second.is_mutable() ? it->second.alias : AnnotationKind::Other;
  }
  AnnotationKind imported(std::string_view) const override { return AnnotationKind::Other; }

 private:
  const FileModel& m_;
};

// A module-level value that may be a type: a subscripted generic, `A | B`, or a name.
bool type_like(Node value) {
  Node v = value.unparenthesized();
  return v.is(NodeKind::Subscript) || v.is(NodeKind::Identifier) || v.is(NodeKind::Attribute) ||
         (v.is(NodeKind::BinaryOperator) && v.child_count() == 3 && std::string_view(v.child(1).type()) == "|");
}

class Indexer {
 public:
  Indexer(const SyntaxTree& tree, FileModel& model, const IndexOptions& options, const CancelFlag* cancel,
          const ImportMap* through)
      : src_(tree.text()), m_(model), options_(options), cancel_(cancel), through_(through) {}

  void run(Node root) {
    if (through_) {
      // Not module_imports: what a star import binds hangs on the other module's
      // `__all__`, and a name re-exported may have been imported there only conditionally.
      for (const auto& [local, qualified] : through_->bindings()) m_.imports.bind(local, qualified);
    }
    // The module's own `def`s, known before the walk reaches them (a decorator or a
    // `logger = get_logger(...)` may name one defined further down).
    for (Node stmt : NamedChildren(root)) {
      Node def = stmt.is(NodeKind::DecoratedDefinition) ? stmt.field("definition") : stmt;
      if (def && def.is(NodeKind::FunctionDefinition)) {
        if (Node name = def.field("name")) top_defs_.insert(std::string(name.text(src_)));
      }
    }
    visit_block(root, Ctx{});
    resolve_pending_mutations();
    record_passed_classes();
    record_local_receivers();
  }

 private:
  struct Ctx {
    int function = -1;
    int cls = -1;          // class whose body we are directly in
    int method_class = -1; // class of the nearest enclosing method
    bool hatch = false;    // inside an escape hatch: no call edges
    bool top_level = true; // a direct statement of the module
    int guard = -1;        // the innermost `if` arm (FunctionInfo::guards) whose condition calls something
    // The nearest enclosing method's first parameter, however it is named (`self`, `s`,
    // a class method's `cls`); empty in a static method.
    std::string_view receiver;
  };

  bool is_receiver(Node object, const Ctx& ctx) const {
    return !ctx.receiver.empty() && object.is(NodeKind::Identifier) && object.text(src_) == ctx.receiver;
  }

  std::string_view receiver_of(Node def, const FunctionInfo& info) const {
    if (!info.binds_self()) return {};
    Node params = def.field("parameters");
    if (!params) return {};
    for (Node p : NamedChildren(params)) {
      if (p.is(NodeKind::Comment)) continue;
      Node name = parameter_name(p);
      return name ? name.text(src_) : std::string_view{};
    }
    return {};
  }

  // A `def` of this name among the module's own statements, before or after this point.
  bool defines_top_function(std::string_view name) const { return top_defs_.count(name) > 0; }

  void visit_block(Node block, const Ctx& ctx) {
    if (block.is(NodeKind::Block)) check_indentation(block);
    for_each_child(block, [&](Node c) { visit(c, ctx); });
  }

  // Column of a node when only whitespace precedes it on its line; -1 otherwise.
  int line_indent(Node n) const {
    uint32_t i = n.start();
    while (i > 0 && src_[i - 1] != '\n' && src_[i - 1] != '\r') {
      if (src_[i - 1] != ' ' && src_[i - 1] != '\t') return -1;
      --i;
    }
    return static_cast<int>(n.start() - i);
  }

  void check_indentation(Node block) {
    if (m_.indentation_error) return;
    int expected = -1;
    for_each_child(block, [&](Node s) {
      if (m_.indentation_error || !s.is_named() || s.is(NodeKind::Comment)) return;
      int col = line_indent(s);
      if (col < 0) return;
      if (expected < 0) expected = col;
      else if (col != expected) m_.indentation_error = s.range();
    });
  }

  void visit_children(Node n, const Ctx& ctx) {
    if (n.child_count() == 0) return;  // a token: no cursor walk needed
    if (n.is(NodeKind::Block)) check_indentation(n);
    Ctx inner = ctx;
    inner.top_level = false;
    for_each_child(n, [&](Node c) { visit(c, inner); });
  }

  void visit(Node n, const Ctx& ctx) {
    if (!n.is_named()) return;
    if ((++visited_ & 1023) == 0) throw_if_cancelled(cancel_);  // a newer text is waiting
    switch (n.kind()) {
      case NodeKind::Comment:
        m_.comments.push_back(n.range());
        return;
      case NodeKind::ImportStatement:
        index_import(n, ctx);
        return;
      case NodeKind::ImportFromStatement:
        index_import_from(n, ctx);
        return;
      case NodeKind::DecoratedDefinition: {
        Node def = n.field("definition");
        std::vector<Node> decorators;
        for (Node c : NamedChildren(n)) {
          if (c.is(NodeKind::Decorator)) decorators.push_back(c);
        }
        if (def.is(NodeKind::FunctionDefinition)) {
          index_function(def, decorators, ctx);
        } else if (def.is(NodeKind::ClassDefinition)) {
          index_class(def, ctx);
        }
        return;
      }
      case NodeKind::FunctionDefinition:
        index_function(n, {}, ctx);
        return;
      case NodeKind::ClassDefinition:
        index_class(n, ctx);
        return;
      case NodeKind::GlobalStatement:
      case NodeKind::NonlocalStatement:
        if (ctx.function >= 0) {
          auto& set = n.is(NodeKind::GlobalStatement) ? fn(ctx).globals : fn(ctx).nonlocals;
          for (Node id : NamedChildren(n)) set.insert(std::string(id.text(src_)));
        }
        return;
      case NodeKind::Assignment:
        index_assignment(n, ctx);
        break;
      case NodeKind::AugmentedAssignment:
        index_augmented(n, ctx);
        break;
      case NodeKind::ForStatement:
      case NodeKind::ForInClause:
        bind_target(n.field("left"), ctx);
        note_loop_over_attribute(n, ctx);
        break;
      case NodeKind::WithItem:
      case NodeKind::AsPattern:
        if (Node alias = n.field("alias")) bind_target(alias.named_child_count() ? alias.named_child(0) : alias, ctx);
        break;
      case NodeKind::ExceptClause:
        for (Node c : NamedChildren(n)) {
          if (c.is(NodeKind::AsPattern)) {
            if (Node alias = c.field("alias")) bind_target(alias.named_child_count() ? alias.named_child(0) : alias, ctx);
          }
        }
        break;
      case NodeKind::NamedExpression:
        bind_target(n.field("name"), ctx);
        break;
      case NodeKind::DeleteStatement:
        for (Node c : NamedChildren(n)) note_item_mutation(c, ctx);
        break;
      case NodeKind::Call:
        index_call(n, ctx);
        break;
      case NodeKind::Attribute:
        note_self_attribute_read(n, ctx);
        break;
      case NodeKind::ExpressionStatement:
        for_each_child(n, [&](Node c) { visit(c, ctx); });
        return;
      case NodeKind::IfStatement:
        if (ctx.function >= 0) {
          index_if(n, ctx);
          return;
        }
        break;
      default:
        break;
    }
    visit_children(n, ctx);
  }

  FunctionInfo& fn(const Ctx& ctx) { return m_.functions[static_cast<size_t>(ctx.function)]; }

  // `for f in self.filters:` in a method: `f.apply(x)` runs the method of each element class.
  void note_loop_over_attribute(Node loop, const Ctx& ctx) {
    if (ctx.function < 0 || ctx.method_class < 0) return;
    Node target = loop.field("left"), iterable = loop.field("right");
    if (!target || !iterable || !target.is(NodeKind::Identifier)) return;
    Node it = iterable.unparenthesized();
    if (!it.is(NodeKind::Attribute) || !is_receiver(it.field("object").unparenthesized(), ctx)) return;
    fn(ctx).loop_attribute_elements[std::string(target.text(src_))] = std::string(it.field("attribute").text(src_));
  }

  // `self.a.b` read whole: not the object of a longer chain, not called, not stored to.
  void note_self_attribute_read(Node n, const Ctx& ctx) {
    if (ctx.function < 0 || ctx.hatch || ctx.method_class < 0) return;
    Node p = n.parent();
    if (p && p.is(NodeKind::Attribute) && p.field("object") == n) return;
    if (p && p.is(NodeKind::Call) && p.field("function") == n) return;
    if (p && (p.is(NodeKind::Assignment) || p.is(NodeKind::AugmentedAssignment)) && p.field("left") == n) return;
    std::string dotted = dotted_text(n, src_);
    if (!dotted.starts_with("self.")) return;
    std::vector<std::string>& reads = fn(ctx).self_attribute_reads;
    if (std::find(reads.begin(), reads.end(), dotted) == reads.end()) reads.push_back(std::move(dotted));
  }

  // --- imports -------------------------------------------------------------

  void bind_import(std::string local, std::string qualified, const Ctx& ctx) {
    if (ctx.function >= 0) fn(ctx).locals.insert(local);
    // What a module-level import means through another project module (`nn` of
    // `from pkg.common import nn` is torch.nn), as the project resolved it.
    if (ctx.function < 0 && ctx.cls < 0 && through_ && through_->find(local)) return;
    // Bound whenever the module has run: a plain statement of the module itself.
    if (ctx.function < 0 && ctx.cls < 0 && ctx.top_level) m_.module_imports.bind(local, qualified);
    m_.imports.bind(std::move(local), std::move(qualified));
  }

  void index_import(Node n, const Ctx& ctx) {
    for (Node c : NamedChildren(n)) {
      if (c.is(NodeKind::DottedName)) {
        std::string dotted(c.text(src_));
        std::string head = dotted.substr(0, dotted.find('.'));
        bind_import(head, head, ctx);
      } else if (c.is(NodeKind::AliasedImport)) {
        Node name = c.field("name");
        Node alias = c.field("alias");
        if (name && alias) bind_import(std::string(alias.text(src_)), std::string(name.text(src_)), ctx);
      }
    }
  }

  std::string resolve_relative(Node module_name) const {
    if (!module_name.is(NodeKind::RelativeImport)) return std::string(module_name.text(src_));
    std::string_view text = module_name.text(src_);
    size_t dots = 0;
    while (dots < text.size() && text[dots] == '.') ++dots;
    std::string base = m_.module_name;
    // A module's own package is one level up; a package's __init__ is its own package.
    size_t levels = m_.is_package ? dots - 1 : dots;
    for (size_t i = 0; i < levels; ++i) {
      auto dot = base.rfind('.');
      base = dot == std::string::npos ? std::string() : base.substr(0, dot);
    }
    std::string rest(text.substr(dots));
    if (base.empty()) return rest;
    return rest.empty() ? base : base + "." + rest;
  }

  void index_import_from(Node n, const Ctx& ctx) {
    Node module_name = n.field("module_name");
    if (!module_name) return;
    std::string base = resolve_relative(module_name);
    for (Node c : NamedChildren(n)) {
      if (c == module_name) continue;
      if (c.is(NodeKind::WildcardImport)) {
        if (!base.empty()) m_.star_imports.push_back(base);
        continue;
      }
      if (c.is(NodeKind::DottedName)) {
        std::string name(c.text(src_));
        bind_import(name, base.empty() ? name : base + "." + name, ctx);
      } else if (c.is(NodeKind::AliasedImport)) {
        Node name = c.field("name");
        Node alias = c.field("alias");
        if (!name || !alias) continue;
        std::string q(name.text(src_));
        bind_import(std::string(alias.text(src_)), base.empty() ? q : base + "." + q, ctx);
      }
    }
  }

  // --- definitions ---------------------------------------------------------

  std::string scope_prefix(const Ctx& ctx) const {
    if (ctx.cls >= 0) return m_.classes[static_cast<size_t>(ctx.cls)].qualname + ".";
    if (ctx.function >= 0) return m_.functions[static_cast<size_t>(ctx.function)].qualname + ".<locals>.";
    return {};
  }

  void index_function(Node def, const std::vector<Node>& decorators, const Ctx& ctx) {
    Node name_node = def.field("name");
    if (!name_node) return;
    std::string name(name_node.text(src_));
    int idx = static_cast<int>(m_.functions.size());
    FunctionInfo info;
    info.node = def;
    info.name = name;
    info.qualname = scope_prefix(ctx) + name;
    info.parent = ctx.function;
    info.cls = ctx.cls;
    for (Node d : decorators) classify_decorator(d, info);
    if (Node rt = def.field("return_type")) {
      AnnotationKind k = classify_annotation(rt, src_, m_.imports, &own_aliases_);
      info.returns_tensor = k == AnnotationKind::Tensor || k == AnnotationKind::OptionalTensor ||
                            k == AnnotationKind::TensorSequence;
      if (info.returns_tensor && info.seed == SeedReason::None) info.seed = SeedReason::TensorAnnotation;
      info.return_elements = tuple_annotation_elements(rt, src_, m_.imports, &own_aliases_);
    }
    if (auto comment = function_type_comment(def, src_, m_.imports, &own_aliases_)) apply_type_comment(def, *comment, info);
    if (Node params = def.field("parameters")) {
      for (Node p : NamedChildren(params)) bind_parameter(p, info);
    }
    m_.functions.push_back(std::move(info));

    if (ctx.cls >= 0) {
      m_.classes[static_cast<size_t>(ctx.cls)].methods[name] = idx;
    } else if (ctx.function >= 0) {
      fn(ctx).nested[name] = idx;
      fn(ctx).locals.insert(name);
    } else {
      m_.top_functions[name] = idx;
      GlobalFacts& g = m_.globals[name];
      g.is_function_or_class = true;
      if (ctx.top_level) ++g.top_level_assignments;
    }

    Ctx inner;
    inner.function = idx;
    inner.cls = -1;
    inner.method_class = ctx.cls >= 0 ? ctx.cls : ctx.method_class;
    inner.receiver = ctx.cls >= 0 ? receiver_of(def, m_.functions[static_cast<size_t>(idx)]) : ctx.receiver;
    inner.hatch = m_.functions[static_cast<size_t>(idx)].disabled;
    inner.top_level = false;
    if (Node body = def.field("body")) {
      visit_block(body, inner);
      if (ctx.cls >= 0 && name == "forward") note_taken_attributes(body, inner.receiver, m_.classes[static_cast<size_t>(ctx.cls)]);
    }
  }

  // ClassInfo::taken_attributes: `local = self.<attr>` then `self.<attr> = None`, both
  // statements of the body itself (not under an `if`, a loop or a `try`).
  void note_taken_attributes(Node body, std::string_view receiver, ClassInfo& cls) {
    if (receiver.empty()) return;
    auto self_attribute = [&](Node n) -> std::string_view {
      n = n ? n.unparenthesized() : Node();
      if (!n || !n.is(NodeKind::Attribute)) return {};
      Node object = n.field("object").unparenthesized();
      if (!object.is(NodeKind::Identifier) || object.text(src_) != receiver) return {};
      return n.field("attribute").text(src_);
    };
    StringSet read;
    for (Node stmt : NamedChildren(body)) {
      if (!stmt.is(NodeKind::ExpressionStatement) || stmt.named_child_count() != 1) continue;
      Node a = stmt.named_child(0);
      if (!a.is(NodeKind::Assignment)) continue;
      Node left = a.field("left"), right = a.field("right");
      if (!left || !right) continue;
      left = left.unparenthesized();
      if (left.is(NodeKind::Identifier)) {
        if (std::string_view attr = self_attribute(right); !attr.empty()) read.insert(std::string(attr));
      } else if (std::string_view attr = self_attribute(left); !attr.empty() && right.unparenthesized().is(NodeKind::None) &&
                                                                 read.count(attr)) {
        cls.taken_attributes.insert(std::string(attr));
      }
    }
  }

  // A type comment stands for the annotations the header does not have.
  void apply_type_comment(Node def, const FunctionTypeComment& comment, FunctionInfo& info) {
    if (!def.field("return_type")) {
      AnnotationKind k = comment.returns;
      info.returns_tensor = k == AnnotationKind::Tensor || k == AnnotationKind::OptionalTensor ||
                            k == AnnotationKind::TensorSequence;
      if (info.returns_tensor && info.seed == SeedReason::None) info.seed = SeedReason::TensorAnnotation;
    }
    size_t count = 0;
    if (Node params = def.field("parameters")) {
      for (Node p : NamedChildren(params)) count += p.is_named() ? 1 : 0;
    }
    if (info.binds_self() && comment.parameters.size() + 1 == count) {
      info.comment_parameters.push_back(AnnotationKind::Other);  // `self`, left out as PEP 484 allows
    }
    info.comment_parameters.insert(info.comment_parameters.end(), comment.parameters.begin(),
                                   comment.parameters.end());
  }

  void bind_parameter(Node p, FunctionInfo& info) {
    Node name = parameter_name(p);
    // `*args`, `**kw`, also annotated (`*args: int`).
    Node splat = p.is(NodeKind::TypedParameter) && p.named_child_count() ? p.named_child(0) : p;
    if (!name && (splat.is(NodeKind::ListSplatPattern) || splat.is(NodeKind::DictionarySplatPattern))) {
      name = splat.named_child_count() ? splat.named_child(0) : Node();
    }
    if (name && name.is(NodeKind::Identifier)) {
      info.locals.insert(std::string(name.text(src_)));
      std::string cls = annotated_class(annotation_of(p));
      if (!cls.empty()) info.receiver_classes.emplace(std::string(name.text(src_)), std::move(cls));
    }
  }

  // `h = Helper(...)` in a function: `h.run(x)` runs Helper.run. A name also
  // annotated or bound to another class is left unknown.
  void record_local_receivers() {
    for (const auto& [key, cls] : local_instances_) {
      if (key.first < 0) continue;
      StringMap<std::string>& known = m_.functions[static_cast<size_t>(key.first)].receiver_classes;
      auto it = known.find(key.second);
      if (it == known.end()) {
        if (!cls.empty()) known.emplace(key.second, cls);
      } else if (it->second != cls) {
        known.erase(it);
      }
    }
  }

  // The class an annotation names, dotted as written (`Helper`, `mod.Helper`,
  // `"Helper"`, `Optional[Helper]`, `Helper | None`); "" for anything else.
  std::string annotated_class(Node type) const {
    if (!type) return {};
    type = type.unparenthesized();
    if (type.is(NodeKind::String)) {
      std::string_view t = type.text(src_);
      if (t.size() < 2 || (t.front() != '"' && t.front() != '\'')) return {};
      std::string inner(t.substr(1, t.size() - 2));
      for (char c : inner) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return {};
      }
      return is_capitalized(inner) ? inner : std::string();
    }
    if (type.is(NodeKind::Type) && type.named_child_count() == 1) return annotated_class(type.named_child(0));
    if (type.is(NodeKind::Subscript) && type.named_child_count() == 2) {  // Optional[Helper]
      if (m_.imports.qualify(type.field("value"), src_) != "typing.Optional") return {};
      return annotated_class(type.named_child(1));
    }
    if (type.kind() == NodeKind::Other && std::string_view(type.type()) == "generic_type") {
      std::vector<Node> cs = type.children();
      if (cs.size() != 2 || m_.imports.qualify(cs[0], src_) != "typing.Optional") return {};
      return cs[1].named_child_count() == 1 ? annotated_class(cs[1].named_child(0)) : std::string();
    }
    if (type.is(NodeKind::BinaryOperator)) {  // Helper | None
      Node l = type.field("left"), r = type.field("right");
      if (r && r.is(NodeKind::None)) return annotated_class(l);
      if (l && l.is(NodeKind::None)) return annotated_class(r);
      return {};
    }
    if (!type.is(NodeKind::Identifier) && !type.is(NodeKind::Attribute)) return {};
    std::string d = dotted_text(type, src_);
    return is_capitalized(d) ? d : std::string();
  }

  void classify_decorator(Node decorator, FunctionInfo& info) {
    Node expr = decorator.named_child_count() ? decorator.named_child(0) : Node();
    if (expr.is(NodeKind::Call)) expr = expr.field("function");
    std::string q = m_.imports.qualify(expr, src_);
    std::string written = dotted_text(expr, src_);
    auto listed = [&](const std::vector<std::string>& names) {
      return std::find(names.begin(), names.end(), q) != names.end() ||
             std::find(names.begin(), names.end(), written) != names.end();
    };
    if (written == "staticmethod") {
      info.is_static = true;
    } else if (written == "property" || q == "functools.cached_property") {
      info.is_property = true;
    } else if (uint8_t opaque = torch_api::opaque_decorator(q)) {
      info.opaque_to |= opaque;
      info.disabled = info.opaque_to == kAllTracers;
      info.dynamo_disabled |= torch_api::is_dynamo_disable(q);
    } else if (torch_api::is_compile_decorator(q) || (!written.empty() && listed(options_.compile_decorators))) {
      info.seed = SeedReason::Decorator;
    } else if (q.find('.') != std::string::npos && !q.starts_with("torch.")) {
      info.other_decorators.push_back(q);
    } else if (q.empty() && expr.is(NodeKind::Identifier) && defines_top_function(written)) {
      info.other_decorators.push_back(m_.module_name + "." + written);  // a decorator of this file
    }
  }

  void index_class(Node def, const Ctx& ctx) {
    Node name_node = def.field("name");
    if (!name_node) return;
    std::string name(name_node.text(src_));
    int idx = static_cast<int>(m_.classes.size());
    ClassInfo info;
    info.node = def;
    info.name = name;
    info.qualname = scope_prefix(ctx) + name;
    info.parent_function = ctx.function;
    if (Node supers = def.field("superclasses")) {
      for (Node b : NamedChildren(supers)) {
        std::string dotted = dotted_text(b, src_);
        if (!dotted.empty()) info.bases.push_back(std::move(dotted));
      }
    }
    m_.classes.push_back(std::move(info));
    if (ctx.function >= 0) {
      fn(ctx).locals.insert(name);
    } else if (ctx.cls < 0) {
      m_.top_classes[name] = idx;
      GlobalFacts& g = m_.globals[name];
      g.is_function_or_class = true;
      if (ctx.top_level) ++g.top_level_assignments;
    }
    Ctx inner;
    inner.function = -1;
    inner.cls = idx;
    inner.method_class = -1;
    inner.hatch = ctx.hatch;
    inner.top_level = false;
    if (Node body = def.field("body")) visit_block(body, inner);
  }

  // --- bindings and mutations ---------------------------------------------

  void bind_target(Node target, const Ctx& ctx) {
    if (!target) return;
    for_each_bound_name(target, src_, [&](Node id) {
      std::string name(id.text(src_));
      if (ctx.function >= 0) {
        FunctionInfo& f = fn(ctx);
        if (f.globals.count(name)) {
          m_.globals[name].rebound_in_function = true;
        } else if (!f.nonlocals.count(name)) {
          f.locals.insert(name);
        }
      } else if (ctx.cls < 0) {
        GlobalFacts& g = m_.globals[name];
        if (ctx.top_level) ++g.top_level_assignments;
        if (!g.first_binding) g.first_binding = id;
      }
    });
  }

  static Value quick_value(Node value, std::string_view src, const ImportMap& imports) {
    value = value.unparenthesized();
    switch (value.kind()) {
      case NodeKind::Integer:
      case NodeKind::Float:
      case NodeKind::String:
      case NodeKind::True:
      case NodeKind::False:
      case NodeKind::ConcatenatedString:
        return Value::of(ValueKind::Static);
      case NodeKind::None:
        return Value::of(ValueKind::None);
      case NodeKind::UnaryOperator:
        return quick_value(value.field("argument"), src, imports);
      case NodeKind::Tuple:  // `(0, 1)`, `((0, 1), (1, 2))`: a constant, as its elements are
        for (Node e : NamedChildren(value)) {
          if (e.is(NodeKind::Comment)) continue;
          if (quick_value(e, src, imports).kind != ValueKind::Static) return Value::unknown();
        }
        return Value::of(ValueKind::Static);
      case NodeKind::Call: {
        Node callee = value.field("function");
        // A tensor method on a tensor: `torch.ones(n).to(device)`, `torch.zeros(n).float()`.
        // A module method that returns the module: `nn.Linear(4, 4).to(device)`.
        if (callee.is(NodeKind::Attribute) && callee.field("object").unparenthesized().is(NodeKind::Call)) {
          Value object = quick_value(callee.field("object"), src, imports);
          std::string_view method = callee.field("attribute").text(src);
          if (object.kind == ValueKind::Module && torch_api::returns_receiver(method)) return object;
          if (!object.is_tensor()) return Value::unknown();
          Value r = torch_api::tensor_method_result(method);
          return r.is_tensor() ? Value::tensor() : Value::unknown();
        }
        std::string q = imports.qualify(callee, src);
        if (!q.empty()) {
          if (torch_api::is_module_class(q)) return Value::of(ValueKind::Module);
          return torch_api::call_result(q);
        }
        return Value::unknown();
      }
      default:
        return Value::unknown();
    }
  }

  // `{"a": torch.ones(3), "b": torch.zeros(3)}` holds tensors, `[torch.ones(3)]` too; any
  // other container is a Python value known at trace time.
  static Value tensor_display(Node value, std::string_view src, const ImportMap& imports) {
    bool dict = value.is(NodeKind::Dictionary);
    if (!dict && !value.is(NodeKind::List)) return Value::of(ValueKind::Static);
    int entries = 0;
    for (Node e : NamedChildren(value)) {
      if (e.is(NodeKind::Comment)) continue;
      Node held = dict ? e.field("value") : e;  // a `**splat` has none
      if (!held || !quick_value(held, src, imports).is_tensor()) return Value::of(ValueKind::Static);
      ++entries;
    }
    if (entries == 0) return Value::of(ValueKind::Static);
    return Value::of(dict ? ValueKind::TensorDict : ValueKind::TensorSequence);
  }

  static bool is_container_value(Node value, std::string_view src) {
    value = value.unparenthesized();
    switch (value.kind()) {
      case NodeKind::List:
      case NodeKind::Dictionary:
      case NodeKind::Set:
      case NodeKind::ListComprehension:
      case NodeKind::DictionaryComprehension:
      case NodeKind::SetComprehension:
        return true;
      case NodeKind::Call: {
        std::string d = dotted_text(value.field("function"), src);
        return d == "list" || d == "dict" || d == "set" || d == "defaultdict" || d == "deque" ||
               d == "OrderedDict" || d == "collections.defaultdict" || d == "collections.deque" ||
               d == "collections.OrderedDict" || d == "Counter" || d == "collections.Counter";
      }
      default:
        return false;
    }
  }

  void index_assignment(Node n, const Ctx& ctx) {
    Node left = n.field("left");
    Node right = n.field("right");
    if (!left) return;
    left = left.unparenthesized();
    bind_target(left, ctx);
    if (left.is(NodeKind::Identifier) && right) {
      std::string name(left.text(src_));
      if (ctx.function >= 0) {
        note_method_alias(name, right, ctx);
        Value v = quick_value(right, src_, m_.imports);
        fn(ctx).first_values.emplace(name, v);
        if (fn(ctx).cls >= 0) {
          auto [it, inserted] = method_locals_.emplace(std::make_pair(ctx.function, name), v);
          if (!inserted) it->second = join(it->second, v);
        }
      }
      if (ctx.function < 0 && ctx.cls < 0) {
        GlobalFacts& g = m_.globals[name];
        if (g.top_level_assignments <= 1 && g.value.kind == ValueKind::Unknown) {
          if (type_like(right)) g.alias = classify_annotation(right, src_, m_.imports, &own_aliases_);
          g.value = quick_value(right, src_, m_.imports);
          g.is_container = is_container_value(right, src_);
          Node rv = right.unparenthesized();
          if (rv.is(NodeKind::Call)) {
            Node callee = rv.field("function").unparenthesized();
            g.origin = m_.imports.qualify(callee, src_);
            // A function of this file (`logger = get_logger(__name__)`), by the name it is defined as.
            if (g.origin.empty() && callee.is(NodeKind::Identifier) && defines_top_function(callee.text(src_))) {
              g.origin = m_.module_name + "." + std::string(callee.text(src_));
            }
          }
        }
      }
      Node r = right.unparenthesized();
      if (r.is(NodeKind::Call)) {
        std::string callee = dotted_text(r.field("function"), src_);
        if (!callee.empty() && is_capitalized(callee)) {
          m_.instances[name] = callee;
          // Bound to instances of two classes in one function: neither is known.
          auto [it, first] = local_instances_.try_emplace({ctx.function, name}, callee);
          if (!first && it->second != callee) it->second.clear();
        }
      }
    }
    if (left.is(NodeKind::Attribute) && right) {
      // `m.stride = torch.tensor(...)` on a local, read back as `self.stride = m.stride`.
      if (ctx.function >= 0 && fn(ctx).is_constructor() && left.field("object").unparenthesized().is(NodeKind::Identifier) &&
          !is_receiver(left.field("object"), ctx)) {
        Value v = quick_value(right, src_, m_.imports);
        auto [it, inserted] = method_locals_.emplace(std::make_pair(ctx.function, std::string(left.text(src_))), v);
        if (!inserted) it->second = join(it->second, v);
      }
      index_self_attribute(left, right, ctx);
      note_external_write(left);
    }
    if (left.is(NodeKind::Subscript)) note_item_mutation(left, ctx);
  }

  void index_augmented(Node n, const Ctx& ctx) {
    Node left = n.field("left");
    if (!left) return;
    left = left.unparenthesized();
    if (left.is(NodeKind::Identifier)) {
      std::string name(left.text(src_));
      if (ctx.function < 0 && ctx.cls < 0) {
        m_.globals[name].augmented = true;
      } else if (ctx.function >= 0 && fn(ctx).globals.count(name)) {
        m_.globals[name].rebound_in_function = true;
      }
    } else if (left.is(NodeKind::Subscript)) {
      note_item_mutation(left, ctx);
    } else if (left.is(NodeKind::Attribute)) {
      note_external_write(left);
    }
  }

  // `mod.NAME = v` where `mod` is an imported module.
  void note_external_write(Node attr) {
    Node object = attr.field("object").unparenthesized();
    if (!object.is(NodeKind::Identifier) && !object.is(NodeKind::Attribute)) return;
    std::string q = m_.imports.qualify(object, src_);
    Node name = attr.field("attribute");
    if (!q.empty() && name) m_.external_writes.push_back(q + "." + std::string(name.text(src_)));
  }

  // `nn.ModuleList(Block(...) for _ in ...)`, `nn.ModuleList([Block(...), Block(...)])`:
  // the one class every element is built from, dotted as written; "" otherwise.
  std::string container_element_class(Node call) const {
    std::string q = m_.imports.qualify(call.field("function"), src_);
    if (q != "torch.nn.ModuleList" && q != "torch.nn.Sequential") return {};
    Node args = call.field("arguments");
    if (!args) return {};
    std::vector<Node> items;
    if (args.is(NodeKind::GeneratorExpression)) {
      items.push_back(args.field("body"));
    } else {
      std::vector<Node> a = args.children();
      // `nn.Sequential(Block(), Block())`: the modules themselves.
      if (q == "torch.nn.Sequential" && a.size() > 1) {
        items = a;
      } else {
        if (a.size() != 1) return {};
        Node only = a[0].unparenthesized();
        // `nn.Sequential(*[Block(...) for _ in ...])`
        if (q == "torch.nn.Sequential" && only.is(NodeKind::ListSplat) && only.named_child_count() == 1) {
          only = only.named_child(0).unparenthesized();
        }
        if (only.is(NodeKind::ListComprehension) || only.is(NodeKind::GeneratorExpression)) items.push_back(only.field("body"));
        else if (only.is(NodeKind::List) || only.is(NodeKind::Tuple)) items = only.children();
        else if (q == "torch.nn.Sequential" && only.is(NodeKind::Call)) items.push_back(only);
      }
    }
    std::string cls;
    for (Node item : items) {
      Node c = item.unparenthesized();
      if (!c.is(NodeKind::Call)) return {};
      std::string written = dotted_text(c.field("function"), src_);
      if (written.empty() || (!cls.empty() && written != cls)) return {};
      cls = written;
    }
    return cls;
  }

  // The name in `nn.ModuleList(name)`, `nn.Sequential(*name)`; a null node otherwise.
  Node container_parameter(Node call) const {
    if (!call.is(NodeKind::Call)) return {};
    std::string q = m_.imports.qualify(call.field("function"), src_);
    if (q != "torch.nn.ModuleList" && q != "torch.nn.Sequential") return {};
    Node args = call.field("arguments");
    if (!args || args.is(NodeKind::GeneratorExpression)) return {};
    std::vector<Node> a;
    for (Node c : NamedChildren(args)) {
      if (!c.is(NodeKind::Comment)) a.push_back(c);
    }
    if (a.size() != 1) return {};
    Node only = a[0].unparenthesized();
    if (q == "torch.nn.Sequential") {
      if (!only.is(NodeKind::ListSplat) || only.named_child_count() != 1) return {};
      only = only.named_child(0).unparenthesized();
    }
    return only.is(NodeKind::Identifier) ? only : Node{};
  }

  void index_self_attribute(Node attr, Node value, const Ctx& ctx) {
    if (ctx.method_class < 0) return;
    Node object = attr.field("object");
    if (!is_receiver(object, ctx)) return;
    ClassInfo& cls = m_.classes[static_cast<size_t>(ctx.method_class)];
    std::string name(attr.field("attribute").text(src_));
    if (Node r = value.unparenthesized(); r.is(NodeKind::List) || r.is(NodeKind::Tuple)) {
      for (Node item : NamedChildren(r)) {  // `self.filters = [Suppress(), Penalty()]`
        auto [c, is_class] = item.is(NodeKind::Comment) ? std::pair<std::string, bool>{} : argument_class(item, ctx);
        if (!c.empty() && !is_class) note_element_class(cls, name, c);
      }
    }
    for (std::string& m : bound_methods(value, ctx)) cls.attribute_methods[name].push_back(std::move(m));
    if (std::string made = factory_method(value, ctx); !made.empty()) cls.attribute_factories[name] = std::move(made);
    Value v = quick_value(value, src_, m_.imports);
    Node r = value.unparenthesized();
    bool in_constructor = ctx.function >= 0 && fn(ctx).is_constructor() && fn(ctx).cls == ctx.method_class;
    if (ctx.function >= 0 && r.is(NodeKind::Identifier)) {
      // `a = torch.ones(n).to(device)` (or two such arms), then `self.a = a`.
      auto it = method_locals_.find({ctx.function, std::string(r.text(src_))});
      if (it != method_locals_.end() && it->second.is_tensor()) v = it->second;
      if (in_constructor && it == method_locals_.end() && !is_parameter(fn(ctx), r.text(src_)) &&
          !cls.attributes.count(name)) {
        cls.attribute_globals[name] = std::string(r.text(src_));  // `self.mask = MASK`
      }
    }
    if (ctx.function >= 0 && r.is(NodeKind::Call)) {
      // `sigmas = torch.linspace(...)`, then `self.sigmas = sigmas.to("cpu")` (diffusers' schedulers).
      Node callee = r.field("function").unparenthesized();
      Node object = callee.is(NodeKind::Attribute) ? callee.field("object").unparenthesized() : Node();
      if (object && object.is(NodeKind::Identifier)) {
        auto it = method_locals_.find({ctx.function, std::string(object.text(src_))});
        if (it != method_locals_.end() && it->second.is_tensor() &&
            torch_api::tensor_method_result(callee.field("attribute").text(src_)).is_tensor()) {
          v = Value::tensor();
        }
      }
    }
    if (in_constructor && r.is(NodeKind::Attribute) && r.field("object").unparenthesized().is(NodeKind::Identifier)) {
      // `m.stride = torch.tensor(...)` earlier, then `self.stride = m.stride`.
      auto it = method_locals_.find({ctx.function, std::string(r.text(src_))});
      if (it != method_locals_.end() && it->second.is_tensor()) v = it->second;
    }
    if (r.is(NodeKind::Call)) {
      std::string callee = dotted_text(constructed_callee(r), src_);
      std::string element = container_element_class(r);
      if (!element.empty()) {
        cls.attribute_element_classes[name] = element;
        attribute_builds_[{ctx.method_class, name}].push_back(element);
      }
      if (!callee.empty() && is_capitalized(callee)) {
        cls.attribute_classes[name] = callee;
        attribute_builds_[{ctx.method_class, name}].push_back(callee);
        if (v.kind == ValueKind::Unknown && !torch_api::is_module_class(m_.imports.qualify(callee))) {
          v = Value::of(ValueKind::Module);  // resolved later
        }
      } else if (!callee.empty() && m_.imports.qualify(callee).starts_with("numpy.random.")) {
        cls.attribute_classes[name] = callee;  // `np.random.default_rng(seed)`: a generator
      } else if (!callee.empty() && !cls.attributes.count(name)) {
        cls.attribute_calls[name] = callee;  // its first and, unless erased below, only value
      }
    }
    if (is_container_value(value, src_)) v = tensor_display(r, src_, m_.imports);
    if (in_constructor && r.is(NodeKind::Identifier) && is_parameter(fn(ctx), r.text(src_))) {
      cls.attribute_parameters[name] = std::string(r.text(src_));
      if (v.kind == ValueKind::Unknown && module_parameter(fn(ctx), r.text(src_))) v = Value::of(ValueKind::Module);
      if (v.kind == ValueKind::Unknown && number_parameter(fn(ctx), r.text(src_))) v = Value::of(ValueKind::Static);
    }
    if (Node p = container_parameter(r); in_constructor && p && is_parameter(fn(ctx), p.text(src_))) {
      cls.attribute_parameter_elements[name] = std::string(p.text(src_));
    }
    if (Node call = some_arm(r); in_constructor && call.is(NodeKind::Call)) {
      Node built = call.field("function");
      if (built.is(NodeKind::Identifier) && is_parameter(fn(ctx), built.text(src_))) {
        cls.attribute_parameter_builds[name] = std::string(built.text(src_));
      }
    }
    // `self.rows = self.pattern.repeat(n, 1)`: a tensor method of a tensor attribute gives a tensor.
    if (r.is(NodeKind::Call) && v.kind == ValueKind::Unknown) {
      Node callee = r.field("function");
      if (callee.is(NodeKind::Attribute)) {
        Node owner = callee.field("object").unparenthesized();
        Value method = torch_api::tensor_method_result(callee.field("attribute").text(src_));
        if (owner.is(NodeKind::Attribute) && is_receiver(owner.field("object"), ctx) && method.is_tensor()) {
          auto known = cls.attributes.find(std::string(owner.field("attribute").text(src_)));
          if (known != cls.attributes.end() && known->second.is_tensor()) v = method;
        }
      }
    }
    // `self.cache = self.cache.to(x)`: a tensor method keeps what the attribute holds.
    if (r.is(NodeKind::Call) && v.kind == ValueKind::Unknown) {
      Node callee = r.field("function");
      if (callee.is(NodeKind::Attribute) && callee.field("object").unparenthesized().text(src_) == attr.text(src_) &&
          torch_api::tensor_method_result(callee.field("attribute").text(src_)).is_tensor()) {
        return;
      }
    }
    // `self.scale = self.scale * 2`: arithmetic with numbers keeps it too.
    if (v.kind == ValueKind::Unknown && arithmetic_on(r, attr.text(src_))) return;
    // `self.x_min = self.x_min + x.min()`: arithmetic on a tensor gives a tensor, whatever the other side.
    if (auto known = cls.attributes.find(name); v.kind == ValueKind::Unknown && known != cls.attributes.end() &&
                                               known->second.is_tensor() && r.is(NodeKind::BinaryOperator) &&
                                               (r.field("left").unparenthesized().text(src_) == attr.text(src_) ||
                                                r.field("right").unparenthesized().text(src_) == attr.text(src_))) {
      return;
    }
    auto [it, inserted] = cls.attributes.emplace(name, v);
    if (inserted) return;
    // Assigned again: what a factory made first is not all it holds.
    if (auto made = cls.attribute_calls.find(name); made != cls.attribute_calls.end()) cls.attribute_calls.erase(made);
    if (auto g = cls.attribute_globals.find(name); g != cls.attribute_globals.end()) cls.attribute_globals.erase(g);
    // A sub-module that some method sets to None (`self.final_proj = None` to drop a
    // pre-training head) is still a module where compiled code calls it.
    bool module_or_none = (it->second.kind == ValueKind::Module && v.kind == ValueKind::None) ||
                          (it->second.kind == ValueKind::None && v.kind == ValueKind::Module);
    it->second = module_or_none ? Value::of(ValueKind::Module) : join(it->second, v);
  }

  // `e` is arithmetic on `attr` and number literals only (`attr * 2`, `1 - attr`, `-attr`).
  bool arithmetic_on(Node e, std::string_view attr) const {
    bool found = false;
    auto visit = [&](auto&& self, Node n) -> bool {
      n = n.unparenthesized();
      if (n.is(NodeKind::Integer) || n.is(NodeKind::Float)) return true;
      if (n.is(NodeKind::Attribute) && n.text(src_) == attr) return found = true;
      if (n.is(NodeKind::BinaryOperator)) return self(self, n.field("left")) && self(self, n.field("right"));
      if (n.is(NodeKind::UnaryOperator)) return self(self, n.field("argument"));
      return false;
    };
    return (e.is(NodeKind::BinaryOperator) || e.is(NodeKind::UnaryOperator)) && visit(visit, e) && found;
  }

  // The callee of a construction, through methods that return the object itself:
  // `nn.Linear(4, 4).to(device)`, `torch.Generator().manual_seed(0)`.
  Node constructed_callee(Node call) const {
    Node callee = call.field("function").unparenthesized();
    while (callee.is(NodeKind::Attribute)) {
      Node object = callee.field("object").unparenthesized();
      if (!torch_api::returns_receiver(callee.field("attribute").text(src_)) || !object.is(NodeKind::Call)) break;
      callee = object.field("function").unparenthesized();
    }
    return callee;
  }

  // What a conditional expression may give (`a if c else b if d else e`: a, b and e); any
  // other expression: itself.
  static std::vector<Node> arms_of(Node value) {
    Node v = value.unparenthesized();
    if (!v.is(NodeKind::ConditionalExpression)) return {v};
    std::vector<Node> parts = v.children();  // body, condition, alternative
    if (parts.size() != 3) return {};
    std::vector<Node> arms = arms_of(parts[0]);
    for (Node a : arms_of(parts[2])) arms.push_back(a);
    return arms;
  }

  // `X if c else None` holds X or nothing: X; any other expression: itself.
  static Node some_arm(Node value) {
    Node some;
    for (Node a : arms_of(value)) {
      if (a.is(NodeKind::None)) continue;
      if (some) return Node();
      some = a;
    }
    return some;
  }

  // Parameter `name` of `f` (its whole node, with annotation and default); null when none.
  Node parameter_node(const FunctionInfo& f, std::string_view name) const {
    Node params = f.node.field("parameters");
    if (!params) return {};
    for (Node p : NamedChildren(params)) {
      if (Node n = parameter_name(p); n && n.text(src_) == name) return p;
    }
    return {};
  }

  static Node annotation_of(Node parameter) {
    Node type = parameter.field("type");
    if (type && type.is(NodeKind::Type) && type.named_child_count()) type = type.named_child(0);
    return type;
  }

  // Whether parameter `name` of `f` is annotated as a module (`pf: nn.Module`).
  bool module_parameter(const FunctionInfo& f, std::string_view name) const {
    Node p = parameter_node(f, name);
    Node type = p ? annotation_of(p) : Node{};
    return type && torch_api::is_module_class(m_.imports.qualify(type, src_));
  }

  // A parameter annotated `int`, `float` or `bool`, or unannotated with a number default
  // (`momentum=0.1`): what the class keeps from it is a Python number.
  bool number_parameter(const FunctionInfo& f, std::string_view name) const {
    Node p = parameter_node(f, name);
    if (!p) return false;
    if (Node type = annotation_of(p)) {
      std::string_view t = type.text(src_);
      return t == "int" || t == "float" || t == "bool";
    }
    Node d = p.field("value");
    if (d && d.is(NodeKind::UnaryOperator)) d = d.field("argument");
    return d && (d.is(NodeKind::Integer) || d.is(NodeKind::Float));
  }

  bool is_parameter(const FunctionInfo& f, std::string_view name) const { return bool(parameter_node(f, name)); }

  // The class an argument passes, dotted as written, and whether it is the
  // class itself rather than an instance; "" when unknown. `X if c else None`
  // passes X or nothing, so it passes X.
  std::pair<std::string, bool> argument_class(Node arg, const Ctx& ctx) const {
    arg = some_arm(arg);
    if (!arg) return {};
    if (arg.is(NodeKind::Call)) {
      std::string c = dotted_text(arg.field("function"), src_);
      return {is_capitalized(c) ? c : std::string(), false};
    }
    if (arg.is(NodeKind::Attribute)) {  // `blocks.PatchMerging`
      std::string c = dotted_text(arg, src_);
      return {is_capitalized(c) ? c : std::string(), true};
    }
    if (!arg.is(NodeKind::Identifier)) return {};
    std::string name(arg.text(src_));
    auto it = local_instances_.find({ctx.function, name});
    if (it != local_instances_.end()) return {it->second, false};
    // Only a name the function does not bind can be a class of the module.
    bool local = ctx.function >= 0 && m_.functions[static_cast<size_t>(ctx.function)].locals.count(name);
    return {!local && is_capitalized(name) ? name : std::string(), true};
  }

  // `[head]`, `(Head(...), Head(...))`: the one class of a display's instances; "" when
  // an element is not an instance of a known class, or two classes are.
  std::string display_element_class(Node arg, const Ctx& ctx) const {
    arg = arg ? arg.unparenthesized() : arg;
    if (!arg || !(arg.is(NodeKind::List) || arg.is(NodeKind::Tuple))) return {};
    std::string cls;
    for (Node item : NamedChildren(arg)) {
      if (item.is(NodeKind::Comment)) continue;
      auto [c, is_class] = argument_class(item, ctx);
      if (c.empty() || is_class || (!cls.empty() && c != cls)) return {};
      cls = c;
    }
    return cls;
  }

  static void note_element_class(ClassInfo& cls, const std::string& attr, const std::string& element) {
    std::vector<std::string>& all = cls.attribute_element_sets[attr];
    if (std::find(all.begin(), all.end(), element) == all.end()) all.push_back(element);
  }

  // `self.blocks.append(Block(...))`: a ModuleList filled one element at a
  // time. Elements of two classes leave the attribute's element class unknown.
  void note_element_append(Node callee, Node args, const Ctx& ctx) {
    if (ctx.method_class < 0 || callee.field("attribute").text(src_) != "append") return;
    Node list = callee.field("object").unparenthesized();
    if (!list.is(NodeKind::Attribute)) return;
    Node owner = list.field("object").unparenthesized();
    if (!is_receiver(owner, ctx)) return;
    std::vector<Node> a = args.children();
    auto [element, is_class] = a.size() == 1 ? argument_class(a[0], ctx) : std::pair<std::string, bool>{};
    if (is_class) element.clear();
    ClassInfo& cls = m_.classes[static_cast<size_t>(ctx.method_class)];
    if (!element.empty()) note_element_class(cls, std::string(list.field("attribute").text(src_)), element);
    auto [it, first] = cls.attribute_element_classes.try_emplace(std::string(list.field("attribute").text(src_)), element);
    if (!first && it->second != element) it->second.clear();
  }

  // `Heads(pool)`, `super().__init__(proposer, heads)`, `Base.__init__(self, heads)`.
  void note_construction(Node callee, const std::string& written, Node args, const Ctx& ctx) {
    Construction c;
    size_t skip = 0;
    if (callee.is(NodeKind::Attribute) && callee.field("attribute").text(src_) == "__init__") {
      if (ctx.function < 0) return;
      const FunctionInfo& f = fn(ctx);
      if (!f.is_constructor()) return;
      Node object = callee.field("object").unparenthesized();
      const ClassInfo& cls = m_.classes[static_cast<size_t>(f.cls)];
      if (object.is(NodeKind::Call) && dotted_text(object.field("function"), src_) == "super") {
        if (cls.bases.empty()) return;
        c.callee = cls.bases[0];
      } else {
        c.callee = dotted_text(object, src_);
        skip = 1;  // `self`
      }
    } else if (!written.empty() && is_capitalized(written)) {
      c.callee = written;
    }
    if (c.callee.empty()) return;
    size_t position = 0;
    for (Node a : NamedChildren(args)) {
      if (a.is(NodeKind::Comment)) continue;
      if (a.is(NodeKind::ListSplat) || a.is(NodeKind::DictionarySplat)) return;  // positions unknown
      bool keyword = a.is(NodeKind::KeywordArgument);
      if (!keyword && position++ < skip) continue;
      Node value = keyword ? a.field("value") : a;
      auto [cls, is_class] = argument_class(value, ctx);
      bool elements = false;
      if (cls.empty()) {
        cls = display_element_class(value, ctx);
        elements = true;
      }
      if (cls.empty()) continue;
      Construction::Argument arg;
      arg.cls = std::move(cls);
      arg.is_class = is_class;
      arg.elements = elements;
      if (keyword) arg.keyword = std::string(a.field("name").text(src_));
      else arg.position = static_cast<int>(position - 1 - skip);
      c.arguments.push_back(std::move(arg));
    }
    if (c.arguments.empty()) return;
    c.function = ctx.function;
    m_.constructions.push_back(std::move(c));
  }

  // `NAME[k] = v`, `del NAME[k]`: remembered, resolved once scopes are complete.
  void note_item_mutation(Node target, const Ctx& ctx) {
    target = target.unparenthesized();
    if (!target.is(NodeKind::Subscript)) return;
    Node value = target.field("value").unparenthesized();
    if (value.is(NodeKind::Identifier)) pending_.push_back({std::string(value.text(src_)), ctx.function});
  }

  void index_call(Node call, const Ctx& ctx) {
    Node callee = call.field("function");
    if (!callee) return;
    callee = callee.unparenthesized();
    Node args = call.field("arguments");

    // Mutating method on a name: NAME.append(...)
    if (callee.is(NodeKind::Attribute)) {
      Node object = callee.field("object").unparenthesized();
      Node method = callee.field("attribute");
      if (object.is(NodeKind::Identifier) && method && container_mutators().count(method.text(src_))) {
        pending_.push_back({std::string(object.text(src_)), ctx.function});
      }
      // self.register_buffer("name", tensor)
      if (ctx.method_class >= 0 && is_receiver(object, ctx) && method &&
          (method.text(src_) == "register_buffer" || method.text(src_) == "register_parameter") && args) {
        std::vector<Node> a = args.children();
        if (!a.empty() && a[0].is(NodeKind::String)) {
          std::string_view s = a[0].text(src_);
          size_t q = s.find_first_of("'\"");
          size_t e = s.find_last_of("'\"");
          if (q != std::string_view::npos && e > q) {
            ClassInfo& owner = m_.classes[static_cast<size_t>(ctx.method_class)];
            std::string name(s.substr(q + 1, e - q - 1));
            if (method.text(src_) == "register_buffer") owner.buffers.insert(name);
            owner.attributes[name] = Value::tensor();
          }
        }
      }
    }

    if (callee.is(NodeKind::Attribute) && args) note_element_append(callee, args, ctx);
    if (args && ctx.method_class >= 0) note_passed_attributes(args, ctx);

    std::string written = dotted_text(callee, src_);
    std::string q = m_.imports.qualify(written);
    // Module-level code constructs too (a script, an `if __name__ == "__main__":` demo).
    if (args && (ctx.function >= 0 || ctx.cls < 0)) note_construction(callee, written, args, ctx);

    // Sub-module construction inside a class: `Block(...)` in __init__.
    if (ctx.method_class >= 0 && !written.empty() && is_capitalized(written)) {
      m_.classes[static_cast<size_t>(ctx.method_class)].constructed.push_back(written);
    }

    // A compiler called on something: that thing is compiled.
    bool compile_call = torch_api::is_compile_function(q) ||
                        std::find(options_.compile_functions.begin(), options_.compile_functions.end(), q) !=
                            options_.compile_functions.end() ||
                        (!written.empty() && std::find(options_.compile_functions.begin(),
                                                       options_.compile_functions.end(),
                                                       written) != options_.compile_functions.end());
    if (compile_call && args) {
      std::vector<Node> a = args.children();
      if (!a.empty() && !a[0].is(NodeKind::KeywordArgument)) add_compile_seed(a[0], ctx);
    }
    // A module's forward hook runs inside its forward, which tracers trace: the
    // hook is compiled code wherever it is registered.
    if (callee.is(NodeKind::Attribute) && args) {
      std::string_view method = callee.field("attribute").text(src_);
      std::vector<Node> a = args.children();
      if ((method == "register_forward_hook" || method == "register_forward_pre_hook") && !a.empty() &&
          !a[0].is(NodeKind::KeywordArgument)) {
        add_compile_seed(a[0], ctx, true);
      }
    }

    if (ctx.function < 0 || ctx.hatch) return;
    FunctionInfo& f = fn(ctx);
    if (callee.is(NodeKind::Identifier)) {
      std::string name(callee.text(src_));
      // `fn = self.loop if fast else self.ddim_loop`, then `fn(n)`: calls whichever.
      if (auto alias = method_aliases_.find({ctx.function, name}); alias != method_aliases_.end()) {
        for (const std::string& m : alias->second) f.calls.push_back({CallEdge::Kind::SelfMethod, m, ctx.guard});
      }
      f.calls.push_back({CallEdge::Kind::Name, std::move(name), ctx.guard});
    } else if (callee.is(NodeKind::Attribute)) {
      Node object = callee.field("object").unparenthesized();
      std::string attr(callee.field("attribute").text(src_));
      if (is_receiver(object, ctx)) {
        f.calls.push_back({CallEdge::Kind::SelfMethod, attr, ctx.guard});
      } else if (object.is(NodeKind::Call) && dotted_text(object.field("function"), src_) == "super") {
        f.calls.push_back({CallEdge::Kind::SuperMethod, attr, ctx.guard});
      } else if (!written.empty()) {
        f.calls.push_back({CallEdge::Kind::Dotted, written, ctx.guard});
      } else if (std::string made = object.is(NodeKind::Call) ? dotted_text(object.field("function"), src_) : "";
                 !made.empty()) {
        // `Task(options).run(x)`: the method of the class constructed, where `made` names one.
        f.calls.push_back({CallEdge::Kind::Dotted, made + "." + attr, ctx.guard});
      }
    }
  }

  // `name = self.method`, or a conditional expression of such arms: a bound method kept
  // in a local.
  void note_method_alias(const std::string& name, Node value, const Ctx& ctx) {
    std::vector<std::string> methods = bound_methods(value, ctx);
    if (methods.empty()) return;
    auto& known = method_aliases_[{ctx.function, name}];
    known.insert(known.end(), methods.begin(), methods.end());
  }

  // `self.make(...)`, or a conditional expression with such an arm: the method's name.
  std::string factory_method(Node value, const Ctx& ctx) const {
    if (ctx.receiver.empty()) return {};
    for (Node arm : arms_of(value)) {
      if (!arm.is(NodeKind::Call)) continue;
      Node callee = arm.field("function").unparenthesized();
      if (callee.is(NodeKind::Attribute) && is_receiver(callee.field("object"), ctx)) {
        return std::string(callee.field("attribute").text(src_));
      }
    }
    return {};
  }

  // `self.loop`, or `self.loop if fast else self.ddim_loop`: the names it may take from
  // the receiver (bound methods, when they name methods); empty for anything else.
  std::vector<std::string> bound_methods(Node value, const Ctx& ctx) const {
    std::vector<std::string> methods;
    if (ctx.receiver.empty()) return methods;
    for (Node v : arms_of(value)) {
      if (!v.is(NodeKind::Attribute) || !is_receiver(v.field("object").unparenthesized(), ctx)) return {};
      methods.emplace_back(v.field("attribute").text(src_));
    }
    return methods;
  }

  void add_compile_seed(Node arg, const Ctx& ctx, bool hook = false) {
    arg = arg.unparenthesized();
    if (arg.is(NodeKind::Lambda)) {
      FunctionInfo info;
      info.node = arg;
      info.name = "<lambda>";
      info.qualname = scope_prefix(ctx) + "<lambda>";
      info.parent = ctx.function;
      info.seed = hook ? SeedReason::Hook : SeedReason::CompileCall;
      if (Node params = arg.field("parameters")) {
        for (Node p : NamedChildren(params)) bind_parameter(p, info);
      }
      m_.functions.push_back(std::move(info));
      return;
    }
    if (arg.is(NodeKind::Call)) {  // torch.compile(Model())
      std::string callee = dotted_text(arg.field("function"), src_);
      if (!callee.empty()) m_.compile_seeds.push_back({callee + "()", ctx.function, ctx.method_class, hook});
      return;
    }
    std::string target = dotted_text(arg, src_);
    if (!target.empty()) m_.compile_seeds.push_back({target, ctx.function, ctx.method_class, hook});
  }

  // A call, or `not`/`and`/`or` with one among their operands.
  // A call (a project function may report the tracing state) or a bare name (a module
  // flag bound once), under `not`, `and` and `or`: the project model decides the arms later.
  static bool decided_later(Node cond) {
    cond = cond.unparenthesized();
    if (cond.is(NodeKind::Call) || cond.is(NodeKind::Identifier)) return true;
    if (cond.is(NodeKind::NotOperator)) return decided_later(cond.field("argument"));
    if (cond.is(NodeKind::BooleanOperator)) return decided_later(cond.field("left")) || decided_later(cond.field("right"));
    return false;
  }

  // `if not is_compiling():` etc.: calls in the hatch arm make no call edges.
  void index_if(Node n, const Ctx& ctx) {
    Node cond = n.field("condition");
    bool negated = false;
    Node c = cond.unparenthesized();
    if (c.is(NodeKind::NotOperator)) {
      negated = true;
      c = c.field("argument").unparenthesized();
    }
    torch_api::HatchPredicate pred = torch_api::HatchPredicate::NotAHatch;
    if (c.is(NodeKind::Call)) pred = torch_api::hatch_predicate(m_.imports.qualify(c.field("function"), src_));
    // Which arm a tracer never runs: true -> body, false -> else.
    bool body_is_hatch = false, else_is_hatch = false;
    switch (pred) {
      case torch_api::HatchPredicate::IsCompiling:
        (negated ? body_is_hatch : else_is_hatch) = true;
        break;
      case torch_api::HatchPredicate::IsScriptingOrTracing:
        (negated ? else_is_hatch : body_is_hatch) = true;
        break;
      default:
        break;
    }
    Ctx inner = ctx;
    inner.top_level = false;
    visit(cond, inner);
    Ctx body_ctx = inner;
    body_ctx.hatch = inner.hatch || body_is_hatch;
    Ctx else_ctx = inner;
    else_ctx.hatch = inner.hatch || else_is_hatch;
    // Arms the project model decides later (decided_later): a tracer may never take them.
    if (ctx.function >= 0 && decided_later(cond)) {
      std::vector<ArmGuard>& guards = fn(ctx).guards;
      body_ctx.guard = static_cast<int>(guards.size());
      guards.push_back({cond, true, ctx.guard});
      else_ctx.guard = static_cast<int>(guards.size());
      guards.push_back({cond, false, ctx.guard});
    }
    if (Node body = n.field("consequence")) visit_block(body, body_ctx);
    for (Node alt : NamedChildren(n)) {
      if (alt.is(NodeKind::ElifClause) || alt.is(NodeKind::ElseClause)) visit(alt, else_ctx);
    }
  }

  // `f(self.block)`, `g(x, layer=self.block)`: the attribute's module is handed on.
  void note_passed_attributes(Node args, const Ctx& ctx) {
    for (Node a : NamedChildren(args)) {
      Node v = a.is(NodeKind::KeywordArgument) ? a.field("value") : a;
      if (!v) continue;
      v = v.unparenthesized();
      if (v.is(NodeKind::Attribute) && is_receiver(v.field("object").unparenthesized(), ctx)) {
        passed_attributes_.insert({ctx.method_class, std::string(v.field("attribute").text(src_))});
      }
    }
  }

  // Every class a handed-on attribute is built from, on the class that hands it on.
  void record_passed_classes() {
    for (const auto& key : passed_attributes_) {
      auto built = attribute_builds_.find(key);
      if (built == attribute_builds_.end()) continue;
      std::vector<std::string>& out = m_.classes[static_cast<size_t>(key.first)].passed_classes;
      for (const std::string& c : built->second) {
        if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
      }
    }
  }

  void resolve_pending_mutations() {
    for (const auto& [name, function] : pending_) {
      bool local = false;
      for (int f = function; f >= 0; f = m_.functions[static_cast<size_t>(f)].parent) {
        const FunctionInfo& info = m_.functions[static_cast<size_t>(f)];
        if (info.globals.count(name)) break;
        if (info.locals.count(name)) {
          local = true;
          break;
        }
      }
      if (!local) {
        auto it = m_.globals.find(name);
        if (it != m_.globals.end()) it->second.mutated = true;
      }
    }
  }

  struct Pending {
    std::string name;
    int function;
  };

  std::string_view src_;
  FileModel& m_;
  OwnAliases own_aliases_{m_};
  const IndexOptions& options_;
  const CancelFlag* cancel_;
  const ImportMap* through_;
  StringSet top_defs_;
  uint32_t visited_ = 0;
  std::vector<Pending> pending_;
  // `name = Cls(...)` in a function: (function, name) -> Cls as written; "" when bound to two classes.
  std::map<std::pair<int, std::string>, std::string> local_instances_;
  // (function, local) -> the methods of the receiver a local is bound to (`fn = self.loop`).
  std::map<std::pair<int, std::string>, std::vector<std::string>> method_aliases_;
  // (class, attribute) of `self.<attr>` passed as an argument, and every class
  // (or ModuleList element class) assigned to it, dotted as written.
  std::set<std::pair<int, std::string>> passed_attributes_;
  std::map<std::pair<int, std::string>, std::vector<std::string>> attribute_builds_;
  // A method's locals: (function, name) -> what every binding so far holds, joined.
  std::map<std::pair<int, std::string>, Value> method_locals_;
};

// A subscripted generic (`Tuple[A, B]`, `typing.Optional[A]`): the last name of its
// head (`Tuple`, `Optional`), with its arguments in `args`; "" for anything else.
std::string_view generic_head(Node t, std::string_view src, std::vector<Node>& args) {
  Node head;
  if (t.is(NodeKind::Subscript)) {
    head = t.field("value");
    for (Node c : NamedChildren(t)) {
      if (!(c == head)) args.push_back(c);
    }
  } else if (t.kind() == NodeKind::Other && std::string_view(t.type()) == "generic_type") {
    std::vector<Node> cs = t.children();
    if (cs.empty()) return {};
    head = cs[0];
    for (size_t i = 1; i < cs.size(); ++i) {
      for (Node a : NamedChildren(cs[i])) args.push_back(a);
    }
  } else {
    return {};
  }
  std::string_view h = head.text(src);
  auto dot = h.rfind('.');
  return dot == std::string_view::npos ? h : h.substr(dot + 1);
}

// `Union[Tensor, Tuple[Tensor, Tensor]]`: torchmetrics' curve states.
bool tensor_or_tensors(AnnotationKind k) {
  return k == AnnotationKind::Tensor || k == AnnotationKind::TensorSequence;
}

// The qualified name a type names: `Tensor`, `torch.Tensor` (an attribute, or a member
// type where the annotation is only a type); "" for anything else.
std::string type_name(Node t, std::string_view src, const ImportMap& imports) {
  if (t.is(NodeKind::Identifier) || t.is(NodeKind::Attribute)) return imports.qualify(t, src);
  if (t.kind() == NodeKind::Other && std::string_view(t.type()) == "member_type") return imports.qualify(t.text(src));
  return {};
}

// The two sides of `A | B`: an expression, or, where a side is only a type
// (`list[int] | Tensor`), a union type. False for anything else.
bool union_sides(Node t, Node& left, Node& right) {
  if (t.is(NodeKind::BinaryOperator)) {
    left = t.field("left");
    right = t.field("right");
    return left && right;
  }
  if (t.kind() != NodeKind::Other || std::string_view(t.type()) != "union_type" || t.named_child_count() != 2) {
    return false;
  }
  left = t.named_child(0);
  right = t.named_child(1);
  return true;
}

AnnotationKind classify_type_expr(Node t, std::string_view src, const ImportMap& imports, const TypeAliases* aliases) {
  t = t.unparenthesized();
  if (t.is(NodeKind::Type) && t.named_child_count()) return classify_type_expr(t.named_child(0), src, imports, aliases);
  if (t.is(NodeKind::None)) return AnnotationKind::NonTensor;
  if (t.is(NodeKind::String)) {
    std::string_view s = t.text(src);
    if (s.find("Tensor") != std::string_view::npos && s.find('[') == std::string_view::npos) return AnnotationKind::Tensor;
    return AnnotationKind::Other;
  }
  bool member_type = t.kind() == NodeKind::Other && std::string_view(t.type()) == "member_type";  // `torch.Tensor`
  if (t.is(NodeKind::Identifier) || t.is(NodeKind::Attribute) || member_type) {
    std::string q = type_name(t, src, imports);
    if (torch_api::tensor_class_dtype(q)) return AnnotationKind::Tensor;
    std::string_view d = t.text(src);
    if (d == "int" || d == "float" || d == "bool" || d == "str" || d == "None") return AnnotationKind::NonTensor;
    if (!aliases) return AnnotationKind::Other;
    if (!q.empty()) return aliases->imported(q);
    return t.is(NodeKind::Identifier) ? aliases->own(d) : AnnotationKind::Other;
  }
  if (Node l, r; union_sides(t, l, r)) {  // `Tensor | None`
    AnnotationKind a = classify_type_expr(l, src, imports, aliases);
    AnnotationKind b = classify_type_expr(r, src, imports, aliases);
    if (a == AnnotationKind::Tensor && b == AnnotationKind::NonTensor) return AnnotationKind::OptionalTensor;
    if (b == AnnotationKind::Tensor && a == AnnotationKind::NonTensor) return AnnotationKind::OptionalTensor;
    if (a == AnnotationKind::NonTensor && b == AnnotationKind::NonTensor) return AnnotationKind::NonTensor;  // str | None
    if (tensor_or_tensors(a) && tensor_or_tensors(b) && a != b) return AnnotationKind::TensorOrSequence;
    return AnnotationKind::Other;
  }
  // Subscripted generics: Optional[Tensor], Tuple[Tensor, Tensor], List[Tensor].
  std::vector<Node> args;
  std::string_view h = generic_head(t, src, args);
  if (h.empty()) return AnnotationKind::Other;
  bool all_tensor = !args.empty();
  for (Node a : args) {
    AnnotationKind k = classify_type_expr(a, src, imports, aliases);
    if (k != AnnotationKind::Tensor && !(a.is(NodeKind::Ellipsis))) all_tensor = false;
  }
  if (h == "Optional" && all_tensor) return AnnotationKind::OptionalTensor;
  // Dict[str, Tensor], and List[Dict[str, Tensor]] (a detector's per-image results).
  if ((h == "Dict" || h == "dict" || h == "Mapping") && args.size() == 2 &&
      classify_type_expr(args[1], src, imports, aliases) == AnnotationKind::Tensor) {
    return AnnotationKind::TensorDict;
  }
  if ((h == "List" || h == "list" || h == "Sequence") && args.size() == 1 &&
      classify_type_expr(args[0], src, imports, aliases) == AnnotationKind::TensorDict) {
    return AnnotationKind::TensorDictSequence;
  }
  bool sequence = h == "Tuple" || h == "tuple" || h == "List" || h == "list" || h == "Sequence";
  if (sequence && all_tensor) return AnnotationKind::TensorSequence;
  // tuple[int, ...], List[float]: Python values, known when tracing.
  bool all_python = !args.empty();
  for (Node a : args) {
    Node u = a.is(NodeKind::Type) && a.named_child_count() ? a.named_child(0) : a;
    all_python = all_python &&
                 (u.is(NodeKind::Ellipsis) || classify_type_expr(u, src, imports, aliases) == AnnotationKind::NonTensor);
  }
  // Optional[str], Union[int, float], Dict[str, int] too: no tensor in them.
  bool python_holder = sequence || h == "Optional" || h == "Union" || h == "Dict" || h == "dict" || h == "Mapping";
  if (python_holder && all_python) return AnnotationKind::NonTensor;
  if (h == "Union" && args.size() == 2) {
    AnnotationKind a = classify_type_expr(args[0], src, imports, aliases);
    AnnotationKind b = classify_type_expr(args[1], src, imports, aliases);
    if ((a == AnnotationKind::Tensor && b == AnnotationKind::NonTensor) ||
        (b == AnnotationKind::Tensor && a == AnnotationKind::NonTensor)) {
      return AnnotationKind::OptionalTensor;
    }
    if (tensor_or_tensors(a) && tensor_or_tensors(b) && a != b) return AnnotationKind::TensorOrSequence;
  }
  return AnnotationKind::Other;
}

}  // namespace

AnnotationKind classify_annotation(Node type, std::string_view source, const ImportMap& imports,
                                   const TypeAliases* aliases) {
  return classify_type_expr(type, source, imports, aliases);
}

TensorDtype annotated_dtype(Node type, std::string_view source, const ImportMap& imports) {
  Node t = type.unparenthesized();
  if (t.is(NodeKind::Type) && t.named_child_count()) t = t.named_child(0).unparenthesized();
  if (Node l, r; union_sides(t, l, r)) {  // `torch.BoolTensor | None`
    if (r.unparenthesized().is(NodeKind::None)) return annotated_dtype(l, source, imports);
    if (l.unparenthesized().is(NodeKind::None)) return annotated_dtype(r, source, imports);
    return TensorDtype::Unknown;
  }
  std::vector<Node> args;
  if (generic_head(t, source, args) == "Optional" && args.size() == 1) return annotated_dtype(args[0], source, imports);
  return torch_api::tensor_class_dtype(type_name(t, source, imports)).value_or(TensorDtype::Unknown);
}

std::vector<AnnotationKind> tuple_annotation_elements(Node type, std::string_view source, const ImportMap& imports,
                                                      const TypeAliases* aliases) {
  type = type.unparenthesized();
  if (type.is(NodeKind::Type) && type.named_child_count()) type = type.named_child(0).unparenthesized();
  std::vector<Node> args;
  std::string_view h = generic_head(type, source, args);
  std::vector<AnnotationKind> kinds;
  if (h != "Tuple" && h != "tuple") return kinds;
  for (Node a : args) {
    Node u = a.is(NodeKind::Type) && a.named_child_count() ? a.named_child(0) : a;
    if (u.is(NodeKind::Ellipsis)) return {};  // Tuple[Tensor, ...]: any length
    kinds.push_back(classify_type_expr(u, source, imports, aliases));
  }
  return kinds;
}

FileModel index_file(const SyntaxTree& tree, std::string module_name, bool is_package,
                     const IndexOptions& options, const CancelFlag* cancel, const ImportMap* through) {
  FileModel model;
  model.source = tree.text();
  model.module_name = std::move(module_name);
  model.is_package = is_package;
  Indexer(tree, model, options, cancel, through).run(tree.root());
  return model;
}

}  // namespace fxlint

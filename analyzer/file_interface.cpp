#include "analyzer/file_interface.h"

#include <string_view>

#include "analyzer/node_kind.h"
#include "analyzer/predicate_body.h"

namespace fxlint {

namespace {

// FNV-1a over bytes, then mixed; unordered containers are combined by
// addition, so their iteration order does not matter.
class Hasher {
 public:
  void bytes(std::string_view s) {
    for (unsigned char c : s) h_ = (h_ ^ c) * 0x100000001b3ULL;
    h_ = (h_ ^ 0xff) * 0x100000001b3ULL;  // end of field
  }
  void number(uint64_t v) {
    for (int i = 0; i < 8; ++i) h_ = (h_ ^ ((v >> (8 * i)) & 0xff)) * 0x100000001b3ULL;
  }
  void value(const Value& v) {
    number(static_cast<uint64_t>(v.kind) | static_cast<uint64_t>(v.dtype) << 8 | uint64_t{v.static_data} << 16 |
           uint64_t{v.data_dependent} << 17);
  }
  template <typename Map, typename Entry>
  void unordered(const Map& map, Entry&& entry) {
    uint64_t sum = 0;
    for (const auto& item : map) {
      Hasher h;
      entry(h, item);
      sum += h.mixed();
    }
    number(sum);
    number(map.size());
  }
  uint64_t mixed() const {
    uint64_t z = h_ + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  uint64_t h_ = 0xcbf29ce484222325ULL;
};

void hash_strings(Hasher& h, const StringSet& set) {
  h.unordered(set, [](Hasher& e, const std::string& s) { e.bytes(s); });
}

}  // namespace

uint64_t interface_fingerprint(const FileModel& m) {
  Hasher h;
  h.bytes(m.module_name);
  for (const std::string& a : m.module_aliases) h.bytes(a);
  h.number(m.is_package);
  h.unordered(m.imports.bindings(), [](Hasher& e, const auto& kv) { e.bytes(kv.first), e.bytes(kv.second); });
  h.unordered(m.module_imports.bindings(), [](Hasher& e, const auto& kv) { e.bytes(kv.first), e.bytes(kv.second); });
  for (const std::string& s : m.star_imports) h.bytes(s);
  h.number(m.functions.size());
  for (const FunctionInfo& f : m.functions) {
    h.bytes(f.name);
    h.bytes(f.qualname);
    h.number(static_cast<uint64_t>(f.parent + 1));
    h.number(static_cast<uint64_t>(f.cls + 1));
    h.number(static_cast<uint64_t>(f.seed) | uint64_t{f.disabled} << 8 | uint64_t{f.opaque_to} << 16 |
             uint64_t{f.is_static} << 24 | uint64_t{f.returns_tensor} << 32 | uint64_t{f.dynamo_disabled} << 40);
    for (const std::string& d : f.other_decorators) h.bytes(d);
    h.number(f.calls.size());
    for (const CallEdge& c : f.calls) {
      h.number(static_cast<uint64_t>(c.kind));
      h.bytes(c.name);
      h.number(static_cast<uint64_t>(c.guard + 1));
    }
    for (const ArmGuard& g : f.guards) {
      h.bytes(g.condition.text(m.source));
      h.number(static_cast<uint64_t>(g.when) | static_cast<uint64_t>(g.parent + 1) << 1);
    }
    // What a small function returns may make it an escape-hatch predicate for
    // its callers elsewhere (`def is_tracing(): return torch.compiler.is_compiling()`):
    // what that is computed from, and nothing else of the body.
    std::vector<std::pair<Node, bool>> returns;
    bool small = f.node && !f.node.is(NodeKind::Lambda) && collect_returns(f.node.field("body"), returns);
    h.number(small);
    if (small) {
      for (const auto& [ret, in_except] : returns) {
        h.number(in_except);
        h.bytes(ret.text(m.source));
      }
      for (Node a : returned_local_assignments(f.node.field("body"), returns, m.source)) h.bytes(a.text(m.source));
    }
    hash_strings(h, f.locals);
    hash_strings(h, f.globals);
    hash_strings(h, f.nonlocals);
    h.unordered(f.nested, [](Hasher& e, const auto& kv) { e.bytes(kv.first), e.number(static_cast<uint64_t>(kv.second)); });
    h.unordered(f.first_values, [](Hasher& e, const auto& kv) { e.bytes(kv.first), e.value(kv.second); });
    h.unordered(f.receiver_classes, [](Hasher& e, const auto& kv) { e.bytes(kv.first), e.bytes(kv.second); });
    for (const std::string& r : f.self_attribute_reads) h.bytes(r);
    h.unordered(f.loop_attribute_elements, [](Hasher& e, const auto& kv) { e.bytes(kv.first), e.bytes(kv.second); });
    h.number(f.is_property);
    for (AnnotationKind k : f.comment_parameters) h.number(static_cast<uint64_t>(k));
    for (AnnotationKind k : f.return_elements) h.number(static_cast<uint64_t>(k) + 16);
    // Callers bind arguments by the parameters as written.
    Node params = f.node ? f.node.field("parameters") : Node();
    h.bytes(params ? params.text(m.source) : std::string_view());
  }
  h.number(m.classes.size());
  for (const ClassInfo& c : m.classes) {
    h.bytes(c.name);
    h.bytes(c.qualname);
    h.number(static_cast<uint64_t>(c.parent_function + 1));
    for (const std::string& b : c.bases) h.bytes(b);
    h.unordered(c.methods, [](Hasher& e, const auto& kv) { e.bytes(kv.first), e.number(static_cast<uint64_t>(kv.second)); });
    h.unordered(c.attributes, [](Hasher& e, const auto& kv) { e.bytes(kv.first), e.value(kv.second); });
    hash_strings(h, c.buffers);
    hash_strings(h, c.taken_attributes);
    h.unordered(c.attribute_classes, [](Hasher& e, const auto& kv) { e.bytes(kv.first), e.bytes(kv.second); });
    h.unordered(c.attribute_calls, [](Hasher& e, const auto& kv) { e.bytes(kv.first), e.bytes(kv.second); });
    h.unordered(c.attribute_globals, [](Hasher& e, const auto& kv) { e.bytes(kv.first), e.bytes(kv.second); });
    h.unordered(c.attribute_element_classes, [](Hasher& e, const auto& kv) { e.bytes(kv.first), e.bytes(kv.second); });
    h.unordered(c.attribute_element_sets, [](Hasher& e, const auto& kv) {
      e.bytes(kv.first);
      for (const std::string& s : kv.second) e.bytes(s);
    });
    h.unordered(c.attribute_factories, [](Hasher& e, const auto& kv) { e.bytes(kv.first), e.bytes(kv.second); });
    h.unordered(c.attribute_methods, [](Hasher& e, const auto& kv) {
      e.bytes(kv.first);
      for (const std::string& m : kv.second) e.bytes(m);
    });
    for (const std::string& k : c.constructed) h.bytes(k);
    h.unordered(c.attribute_parameters, [](Hasher& e, const auto& kv) { e.bytes(kv.first), e.bytes(kv.second); });
    h.unordered(c.attribute_parameter_builds, [](Hasher& e, const auto& kv) { e.bytes(kv.first), e.bytes(kv.second); });
    h.unordered(c.attribute_parameter_elements, [](Hasher& e, const auto& kv) { e.bytes(kv.first), e.bytes(kv.second); });
    for (const std::string& k : c.passed_classes) h.bytes(k);
  }
  for (const Construction& c : m.constructions) {
    h.bytes(c.callee);
    h.number(static_cast<uint64_t>(c.function + 1));
    for (const Construction::Argument& a : c.arguments) {
      h.number(static_cast<uint64_t>(a.position + 1));
      h.bytes(a.keyword);
      h.bytes(a.cls);
      h.number(a.is_class ? 1 : 0);
      h.number(a.elements ? 1 : 0);
    }
  }
  h.unordered(m.top_functions, [](Hasher& e, const auto& kv) { e.bytes(kv.first), e.number(static_cast<uint64_t>(kv.second)); });
  h.unordered(m.top_classes, [](Hasher& e, const auto& kv) { e.bytes(kv.first), e.number(static_cast<uint64_t>(kv.second)); });
  h.unordered(m.globals, [&m](Hasher& e, const auto& kv) {
    const GlobalFacts& g = kv.second;
    e.bytes(kv.first);
    e.number(static_cast<uint64_t>(g.top_level_assignments) | uint64_t{g.augmented} << 32 |
             uint64_t{g.rebound_in_function} << 40 | uint64_t{g.mutated} << 48 | uint64_t{g.is_container} << 56);
    e.number(g.is_function_or_class);
    e.value(g.value);
    e.bytes(g.origin);
    e.number(static_cast<uint64_t>(g.alias));
    // What it is bound to decides constant tests (`if VERBOSE:`) and escape hatches bound at
    // module level (`_is_compiling = getattr(torch.compiler, "is_compiling", None)`) elsewhere.
    Node binding = g.first_binding ? g.first_binding.parent() : Node();
    e.bytes(binding ? binding.text(m.source) : std::string_view());
  });
  h.unordered(m.instances, [](Hasher& e, const auto& kv) { e.bytes(kv.first), e.bytes(kv.second); });
  for (const CompileSeed& s : m.compile_seeds) {
    h.bytes(s.target);
    h.number(static_cast<uint64_t>(s.function + 1) | static_cast<uint64_t>(s.cls + 1) << 32);
    h.number(s.hook);
  }
  for (const std::string& w : m.external_writes) h.bytes(w);
  return h.mixed();
}

}  // namespace fxlint

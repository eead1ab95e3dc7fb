#pragma once
// The per-file half of the semantic model, built in one traversal of the tree:
// imports, functions and classes with their scopes, call edges, compile-region
// seeds, and facts about module-level names. Cross-file questions (is this
// function compiled? is this global mutable?) are answered by ProjectModel.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyzer/import_map.h"
#include "analyzer/string_map.h"
#include "analyzer/syntax_tree.h"
#include "analyzer/tracer.h"
#include "analyzer/value.h"

namespace fxlint {

// A call seen inside a function, kept for the call graph.
struct CallEdge {
  enum class Kind : uint8_t {
    Name,        // helper(x)
    SelfMethod,  // self.helper(x) or self.block(x)
    SuperMethod, // super().forward(x)
    Dotted,      // mod.helper(x), Cls.method(x)
  };
  Kind kind;
  std::string name;
  int guard = -1;  // the innermost `if` arm holding the call (FunctionInfo::guards), -1 when none
};

// An `if` arm that holds calls: taken when `condition` is `when`. A tracer
// never runs the calls under an arm whose condition it knows to be the other
// way (`if torchvision._is_tracing(): return onnx_loop(x)` under Dynamo).
struct ArmGuard {
  Node condition;
  bool when = true;
  int parent = -1;  // the enclosing guard, -1 when none
};

// Why a function starts a compile region.
enum class SeedReason : uint8_t { None, ModuleForward, Decorator, CompileCall, TensorAnnotation, EntryPoint, Hook };

// Whether an annotation means a tensor (Tensor, Optional[Tensor], Tuple[Tensor, ...]) or a dict of them.
// TensorOrSequence is `Union[Tensor, Tuple[Tensor, Tensor]]`: a parameter so annotated gives tensors
// indexed or iterated; as a return annotation it says nothing a caller's code can rely on.
enum class AnnotationKind {
  Other,
  Tensor,
  OptionalTensor,
  TensorSequence,
  TensorOrSequence,
  NonTensor,
  TensorDict,
  TensorDictSequence
};

struct FunctionInfo {
  Node node;              // function_definition, or a lambda passed to a compiler
  std::string name;
  std::string qualname;   // "Model.forward", "outer.<locals>.inner"
  int parent = -1;        // enclosing function
  int cls = -1;           // class this is a method of (directly)
  SeedReason seed = SeedReason::None;
  bool disabled = false;  // opaque to every tracer: @torch.jit.script, ...
  uint8_t opaque_to = 0;  // Tracer bits: called without being traced into
  bool dynamo_disabled = false;  // @torch.compiler.disable: each call breaks Dynamo's graph
  bool opaque_for(Tracer t) const { return (opaque_to & static_cast<uint8_t>(t)) != 0; }
  bool is_static = false;  // @staticmethod
  bool is_property = false;  // @property, @functools.cached_property: a read calls it
  // Decorators as the imports qualify them that name no torch API here, which
  // may re-export one from a project module (ProjectModel resolves them), or
  // are project functions whose wrapper runs in place of this one; a decorator
  // defined in this file is qualified by the module's name.
  std::vector<std::string> other_decorators;
  bool returns_tensor = false;
  std::vector<CallEdge> calls;  // outside escape hatches
  std::vector<ArmGuard> guards;  // of the calls, by CallEdge::guard
  StringSet locals;     // names bound in this scope
  StringSet globals;    // declared `global`
  StringSet nonlocals;  // declared `nonlocal`
  StringMap<int> nested;  // nested def name -> function
  StringMap<Value> first_values;  // what a local's first binding holds
  // Locals that hold an instance of a class, dotted as written: a parameter
  // annotated with one (`h: Helper`, `Optional["Helper"]`) or a local bound
  // only to `Helper(...)`. `h.run(x)` runs that class's method.
  StringMap<std::string> receiver_classes;
  // Attributes read through `self`, dotted (`self.size`, `self.attn.kv_cache.size`), outside
  // escape hatches: a read of a project class's property runs its getter.
  std::vector<std::string> self_attribute_reads;
  // Loop names bound to the elements of a `self` attribute (`for f in self.filters:`).
  StringMap<std::string> loop_attribute_elements;
  // PEP 484 `# type: (A, B) -> R` comment: one kind per parameter, in order
  // (the omitted `self` of a method counted as Other); empty when none.
  std::vector<AnnotationKind> comment_parameters;
  // A return annotation `Tuple[A, B]`: the elements' kinds, in order; empty otherwise.
  std::vector<AnnotationKind> return_elements;

  // `__init__` of a class: it builds the object, so what it stores on `self`
  // is construction, not state the compiled code changes.
  bool is_constructor() const { return cls >= 0 && name == "__init__"; }
  // A method whose first parameter is the instance (or the class): not a
  // staticmethod, whose first parameter (an autograd.Function's `ctx`, say) is
  // an ordinary argument.
  bool binds_self() const { return cls >= 0 && !is_static; }
};

struct ClassInfo {
  Node node;
  std::string name;
  std::string qualname;
  int parent_function = -1;
  std::vector<std::string> bases;  // dotted, as written
  StringMap<int> methods;
  // `self.<attr>` assigned in any method, with what is known of the value.
  StringMap<Value> attributes;
  // Names given to `self.register_buffer(name, ...)`: assigning a tensor to one
  // updates the module's buffer.
  StringSet buffers;
  // Scratch attributes: `forward` reads `self.<attr>` into a local and then sets it to
  // `None`, both directly in its body (`alpha = self._alpha; self._alpha = None`). What
  // the methods it calls store there is consumed within the call.
  StringSet taken_attributes;
  // `self.<attr> = SomeClass(...)`: the dotted class name as written.
  StringMap<std::string> attribute_classes;
  // `self.<attr> = NAME` in `__init__`, NAME a module-level name: what NAME holds when it
  // is the attribute's only value.
  StringMap<std::string> attribute_globals;
  // `self.<attr> = make(...)` with a callee that is not a class: the dotted callee as
  // written (a factory: `init_tokenizer()`, `AutoTokenizer.from_pretrained(...)`).
  StringMap<std::string> attribute_calls;
  // `self.<attr> = nn.ModuleList(Block(...) for ...)`: the elements' class, dotted as written.
  StringMap<std::string> attribute_element_classes;
  // Every class whose instances a list attribute is seen to hold (`self.filters = [A()]`,
  // `self.filters.append(B(...))`), as written: iterating it may give any of them.
  StringMap<std::vector<std::string>> attribute_element_sets;
  // `self.<attr> = self.a if flag else self.b`: the receiver's attributes it may hold
  // (bound methods, where they name methods); `self.<attr>(x)` calls one of them.
  StringMap<std::vector<std::string>> attribute_methods;
  // `self.<attr> = self.make()`, or `self.make() if d is None else d`: the receiver's
  // method whose result it holds (a subclass may override that method).
  StringMap<std::string> attribute_factories;
  // Classes constructed in this class's methods (sub-modules), dotted as written.
  std::vector<std::string> constructed;
  // `self.<attr> = <parameter>` in `__init__`: the parameter's name. The
  // attribute holds what constructions of the class pass there.
  StringMap<std::string> attribute_parameters;
  // `self.<attr> = <parameter>(...)` in `__init__`: the parameter's name. The
  // attribute holds an instance of the class constructions pass there.
  StringMap<std::string> attribute_parameter_builds;
  // `self.<attr> = nn.ModuleList(<parameter>)` (or `nn.Sequential(*<parameter>)`) in
  // `__init__`: the parameter's name. Its elements are the instances constructions
  // pass there in a list or tuple display.
  StringMap<std::string> attribute_parameter_elements;
  // Classes, dotted as written, of the sub-modules a method hands on as an
  // argument (`block(x, rel_pos=self.rel_pos)`): whoever receives one calls it
  // where the analysis does not follow, with arguments it does not see.
  std::vector<std::string> passed_classes;
};

// A construction that passes instances of known classes: `Heads(pool)` after
// `pool = Pool()` in the same function, `Heads(Pool())`, or a constructor's
// `super().__init__(proposer, heads)`; or classes: `Layer(downsample=Merge)`.
struct Construction {
  struct Argument {
    int position = -1;     // among the arguments after `self`; -1 for a keyword
    std::string keyword;
    std::string cls;       // dotted as written
    bool is_class = false; // the class itself (`downsample=PatchMerging`), not an instance
    bool elements = false; // a list or tuple display of instances of `cls` (`heads=[head]`)
  };
  std::string callee;      // the constructed class, dotted as written
  int function = -1;       // where the call is
  std::vector<Argument> arguments;
};

// What the file does with one module-level name.
struct GlobalFacts {
  int top_level_assignments = 0;  // direct module-level statements binding it
  bool augmented = false;         // `NAME += ...` anywhere at module level
  bool rebound_in_function = false;  // `global NAME` then assigned in a function
  bool mutated = false;           // NAME.append(...), NAME[k] = v, del NAME[k]
  bool is_container = false;      // bound to a list/dict/set display or constructor
  bool is_function_or_class = false;
  Value value;                    // what the (first) binding holds
  std::string origin;             // qualified callee when bound to a call ("logging.getLogger")
  // Bound to a type expression (`OptTensor = Optional[Tensor]`): the kind it names.
  AnnotationKind alias = AnnotationKind::Other;
  Node first_binding;

  bool is_mutable() const {
    return top_level_assignments > 1 || augmented || rebound_in_function || mutated;
  }
};

// Escape hatch found while indexing: a compile-call argument names something.
struct CompileSeed {
  std::string target;  // dotted as written ("model", "self.forward", "Model")
  int function = -1;   // scope where the call appeared
  int cls = -1;
  bool hook = false;   // registered as a module hook, not handed to a compiler
};

struct FileModel {
  std::string_view source;  // the indexed tree's text; the tree must outlive the model
  std::string module_name;
  std::vector<std::string> module_aliases;  // through namespace packages above it
  bool is_package = false;  // __init__.py
  ImportMap imports;
  // Those made by the module's own unconditional statements (not through other modules):
  // bound once it has run.
  ImportMap module_imports;
  std::vector<std::string> star_imports;  // `from pkg.common import *`: the modules, qualified
  std::vector<FunctionInfo> functions;
  std::vector<ClassInfo> classes;
  StringMap<int> top_functions;
  StringMap<int> top_classes;
  StringMap<GlobalFacts> globals;
  // Local instance bindings `name = Cls(...)`: name -> dotted class (module level and in functions).
  StringMap<std::string> instances;
  std::vector<CompileSeed> compile_seeds;
  std::vector<Construction> constructions;
  std::vector<TextRange> comments;
  // Module-level names of other modules this file rebinds: "pkg.stats.SCALE" for `stats.SCALE = 2`.
  std::vector<std::string> external_writes;
  // First statement indented unlike its block's first statement (the grammar
  // accepts it; Python says "unexpected indent").
  std::optional<TextRange> indentation_error;
};

struct IndexOptions {
  std::vector<std::string> compile_decorators;  // extra decorator names (qualified)
  std::vector<std::string> compile_functions;   // extra compile callables (qualified)
};

// Builds the model of one parsed file; keeps views into `tree`, which must
// stay alive and in place while the model is used. `module_name` is its dotted
// import name. Once `cancel` is set it stops and throws CheckCancelled.
// `through`: module-level names as the project resolves them through other modules
// (see reexports.h); they win over the file's own import statements for those names.
FileModel index_file(const SyntaxTree& tree, std::string module_name, bool is_package,
                     const IndexOptions& options, const CancelFlag* cancel = nullptr,
                     const ImportMap* through = nullptr);

// The module-level type aliases an annotation may name (`OptTensor = Optional[Tensor]`): one
// of the annotating file's own names, or another module's by qualified name.
class TypeAliases {
 public:
  virtual AnnotationKind own(std::string_view name) const = 0;
  virtual AnnotationKind imported(std::string_view qualified) const = 0;

 protected:
  ~TypeAliases() = default;
};

// The kind of an annotation expression (see AnnotationKind).
AnnotationKind classify_annotation(Node type, std::string_view source, const ImportMap& imports,
                                   const TypeAliases* aliases = nullptr);
// The dtype a tensor annotation names (`torch.BoolTensor`, `Optional[torch.LongTensor]`).
TensorDtype annotated_dtype(Node type, std::string_view source, const ImportMap& imports);
// The kinds of a fixed-length tuple annotation's elements (`Tuple[Tensor, int]`); empty
// for anything else (`Tuple[Tensor, ...]` included).
std::vector<AnnotationKind> tuple_annotation_elements(Node type, std::string_view source, const ImportMap& imports,
                                                      const TypeAliases* aliases = nullptr);

}  // namespace fxlint

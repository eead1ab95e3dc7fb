#pragma once
// The cross-file half of the semantic model: which functions are compiled
// (compile regions), which classes are nn.Modules, and name resolution across
// the files being checked.
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyzer/file_model.h"
#include "analyzer/project_refs.h"
#include "analyzer/torch_api.h"

namespace fxlint {

// An `entry-points` item that names nothing: `module_found` tells a misspelled
// name in a checked module from a module that is not among the files.
struct UnmatchedEntryPoint {
  std::string entry;
  bool module_found = false;
};

class ProjectModel {
 public:
  // `files` must outlive the model. `entry_points` are "pkg.mod:Qualified.name".
  ProjectModel(std::span<const FileModel* const> files, const std::vector<std::string>& entry_points);
  // The entry points that name no function or class of the project's files.
  const std::vector<UnmatchedEntryPoint>& unmatched_entry_points() const { return unmatched_entry_points_; }

  // Compiled for either tracer.
  bool in_region(int file, int function) const {
    return in_region(file, function, Tracer::Fx) || in_region(file, function, Tracer::Dynamo);
  }
  // Traced by `tracer`: a function opaque to it (@torch.fx.wrap for FX,
  // @torch.compiler.disable for Dynamo) is not, nor what only it calls.
  bool in_region(int file, int function, Tracer tracer) const {
    return regions_[index_of(tracer)][static_cast<size_t>(file)][static_cast<size_t>(function)];
  }
  // Handed to a compiler itself (decorated, passed to torch.compile, a module's
  // forward, an entry point, ...), not only called from compiled code.
  // Hidden from `tracer` by a decorator: its own, or one a project module
  // re-exports (`from torch._dynamo import allow_in_graph as maybe_allow_in_graph`).
  bool opaque(int file, int function, Tracer tracer) const {
    return this->file(file).functions[static_cast<size_t>(function)].opaque_for(tracer) ||
           (reexported_opaque_[static_cast<size_t>(file)][static_cast<size_t>(function)] &
            static_cast<uint8_t>(tracer)) != 0;
  }
  bool is_compile_entry(int file, int function) const {
    return entries_[static_cast<size_t>(file)][static_cast<size_t>(function)];
  }
  // Named in a `torch.compile(f)` call (not registered as a module hook).
  bool is_compile_call_target(int file, int function) const {
    return compile_call_targets_[static_cast<size_t>(file)][static_cast<size_t>(function)];
  }
  // Registered as a module hook: it runs in later calls of that module, not where it is registered.
  bool is_hook(int file, int function) const {
    return this->file(file).functions[static_cast<size_t>(function)].seed == SeedReason::Hook ||
           hook_targets_[static_cast<size_t>(file)][static_cast<size_t>(function)];
  }
  bool is_module_class(ClassRef c) const;
  // Whether the class derives (through project classes) from torch.autograd.Function.
  bool is_autograd_function(ClassRef c) const;
  // Whether the class, its project bases, or the project classes they construct (a few
  // levels deep) construct a torch.nn layer that makes parameters, or `nn.Parameter`.
  bool holds_parameters(ClassRef c, int depth = 0) const;
  // The same for a class named `dotted` in `file`: a torch.nn layer, or a project class.
  bool makes_parameters(int file, std::string_view dotted, int depth = 0) const;

  // The class a dotted name (as written in `file`) refers to, in this project.
  ClassRef resolve_class(int file, std::string_view dotted) const;
  // The function a dotted name written in `file` refers to (nested defs of `scope` first).
  FunctionRef resolve_function(int file, int scope, std::string_view dotted) const;
  // A method looked up on a class and its project bases.
  FunctionRef find_method(ClassRef c, std::string_view name) const;
  // `Fn.apply` written in `file`, where Fn is a project torch.autograd.Function:
  // its `forward`, which runs with `ctx` before the arguments of `apply`.
  FunctionRef autograd_forward(int file, std::string_view dotted) const;
  // `h.run` written in function `scope`, where `h` is a parameter annotated with a
  // project class or a local bound only to its instances (FunctionInfo::receiver_classes),
  // or, when no local, a module-level name bound once to such an instance: that class's method.
  FunctionRef instance_method(FunctionRef scope, std::string_view dotted) const;
  // What `self.<attr>` holds in class `c` (bases included).
  Value self_attribute(ClassRef c, std::string_view attr) const;
  // Whether `self.<attr>` is a buffer that `c` or a project base registers.
  bool is_registered_buffer(ClassRef c, std::string_view attr) const;
  // Whether `self.<attr>` is a scratch attribute of `c` or a project base: its `forward`
  // takes the value and clears it (ClassInfo::taken_attributes).
  bool is_taken_attribute(ClassRef c, std::string_view attr) const;
  // The receiver's attributes `self.<attr>` was bound to in `c` or a project base
  // (ClassInfo::attribute_methods); null when none.
  const std::vector<std::string>* attribute_methods(ClassRef c, std::string_view attr) const;
  // Project class of `self.<attr>` when it was assigned a project class instance.
  ClassRef self_attribute_class(ClassRef c, std::string_view attr) const;
  // The classes, qualified as imported ("torch.nn.LSTM"), that `self.<attr>`
  // is constructed from for a method of `c`: where `c` or its nearest base
  // assigns it, and where any project subclass of `c` does.
  std::vector<std::string> attribute_constructors(ClassRef c, std::string_view attr) const;
  // Methods `name` that project subclasses of `c` define, at any depth.
  std::vector<FunctionRef> overrides(ClassRef c, std::string_view name) const;
  // Project class of every element of `self.<attr>` when it was built as a
  // ModuleList or Sequential of one project class.
  ClassRef self_attribute_element_class(ClassRef c, std::string_view attr) const;
  // Every project class whose instances `self.<attr>` is seen to hold (a list filled with them).
  std::vector<ClassRef> attribute_element_set(ClassRef c, std::string_view attr) const;
  // Whether a module-level name of `file` is rebound or mutated anywhere.
  bool is_mutable_global(int file, std::string_view name) const;
  // `VERBOSE`, read in function `function` of `file`: the truth of a module-level name
  // bound once, to True, False or None, and never rebound or written from elsewhere
  // (`if VERBOSE:` then never runs); nullopt for anything else, a local among them.
  std::optional<bool> constant_global_truth(int file, int function, std::string_view name) const;
  // What a module-level name read in function `function` of `file` is bound to: the value of
  // its one plain assignment, never rebound nor written from elsewhere; null for anything
  // else, a local among them.
  Node constant_global_value(int file, int function, std::string_view name) const;
  bool has_module(std::string_view module) const { return by_module_.count(module) > 0; }
  // The kind of an annotation written in `file`, through the type aliases it names, its own
  // or imported from a project module (`x: OptTensor` after `from pkg.typing import OptTensor`).
  AnnotationKind annotation_kind(int file, Node type) const;
  // What module-level name `name` of `file` is an alias of, followed through imports.
  AnnotationKind type_alias(int file, std::string_view name, int depth = 0) const;
  // The same for a qualified "pkg.module.NAME" of a project module.
  bool is_mutable_module_global(std::string_view qualified) const;
  // The facts of a project module's global, by qualified name (`pkg.log.logger`); null if none.
  // `owner`, when given, receives the file that holds it.
  const GlobalFacts* module_global_facts(std::string_view qualified, int* owner = nullptr) const;
  // Whether a call of `qualified` gives a `logging.Logger`: `logging.getLogger`, a project
  // function whose every return is such a call (transformers' `logging.get_logger`), or a
  // library's well-known factory when the project does not define it.
  // `qualified` is as `file` qualifies it: a name without a dot is that file's own.
  bool is_logger_factory(int file, std::string_view qualified, int depth = 0) const;
  // Whether `qualified`, called from `file`, makes a text tokenizer: a tokenizer class or its
  // `from_pretrained`, or a project function every return of which calls one (three deep).
  bool is_tokenizer_factory(int file, std::string_view qualified, int depth = 0) const;
  // Whether `qualified`, called from `file`, makes a module: a torch.nn or project module
  // class, or a project function every return of which calls one (DETR's `_get_clones`).
  bool is_module_factory(int file, std::string_view qualified, int depth = 0) const;
  // Whether a project module hands an instance of `c` on as an argument
  // (`block(x, rel_pos=self.rel_pos)`): it is then called where no walk sees it.
  bool handed_on(ClassRef c) const;
  // Whether the class (or a project base) sets `self.<attr>` to a tokenizer.
  bool attribute_is_tokenizer(ClassRef c, std::string_view attr) const;

  const FileModel& file(int i) const { return *files_[static_cast<size_t>(i)]; }
  // Class whose method (at any nesting depth) `function` is; -1 when none.
  int method_class(int file, int function) const;

  // What a project function that only reports the tracing state returns:
  // `def is_tracing(x=None): return torch.compiler.is_compiling() or ...` is
  // an escape-hatch predicate like the torch function it wraps.
  // Computed on first use (most functions are never asked) and remembered; safe
  // from several walking threads.
  torch_api::HatchPredicate hatch_of_function(FunctionRef f) const;
  // What the call with callee `callee` (written in function `scope` of `file`,
  // meaning `qualified` there) is as a predicate: a torch escape hatch, or a
  // project function wrapping one.
  torch_api::HatchPredicate hatch_of_call(int file, int scope, Node callee, std::string_view qualified) const;

 private:
  using TopLevel = StringMap<int> FileModel::*;
  // (file, index) of a top-level class or function named by a qualified name; (-1, -1) when none.
  std::pair<int, int> find_exported(const std::string& qualified, TopLevel table) const;
  // Whether `qualified` (as `file` names it) is a project function every return of which
  // is a call `made` accepts (given the callee's file, qualified name and depth), directly
  // or through a local assigned such a call; at most three functions deep.
  using MadeBy = std::function<bool(int, std::string_view, int)>;
  bool returns_made(int file, std::string_view qualified, int depth, const MadeBy& made) const;
  static size_t index_of(Tracer t) { return t == Tracer::Fx ? 0 : 1; }
  void compute_regions(const std::vector<std::string>& entry_points, Tracer tracer);
  std::vector<UnmatchedEntryPoint> unmatched_entry_points_;
  // A compile entry: in the region, and handed to a compiler itself.
  void add_seed(std::vector<FunctionRef>& work, Tracer tracer, FunctionRef f);
  // In the region because compiled code calls it.
  void reach(std::vector<FunctionRef>& work, Tracer tracer, FunctionRef f);
  // The function a project decorator `qualified` puts in place of the one it
  // decorates: the nested def it returns, or, for a decorator factory
  // (`@apply_scale("kwargs")`), the nested def that the returned one returns.
  FunctionRef decorator_wrapper(const std::string& qualified) const;
  std::vector<ClassRef> bases_of(ClassRef c) const;
  template <typename T, typename Found>
  T first_in_hierarchy(ClassRef c, T none, Found&& found) const;
  bool module_class_uncached(ClassRef c, int depth) const;
  ClassRef passed_attribute_class(ClassRef c, std::string_view attr) const;
  // The project class every `return` of small function `f` constructs; none when
  // they differ or one returns anything else.
  ClassRef returned_class(FunctionRef f) const;
  ClassRef passed_element_class(ClassRef c, std::string_view attr) const;
  enum class Passed { Instance, Class, Elements };
  ClassRef class_passed_for(ClassRef owner, const std::string& parameter, Passed how) const;
  torch_api::HatchPredicate hatch_uncached(FunctionRef f, std::vector<FunctionRef>& visiting) const;
  torch_api::HatchPredicate hatch_computed(FunctionRef f, std::vector<FunctionRef>& visiting) const;
  // Whether a tracer can run a call of function `f` under `guard`: not in the
  // arm of an `if` it never takes (`if torchvision._is_tracing(): onnx_loop(x)`).
  bool traced_path(FunctionRef f, int guard, Tracer tracer);
  torch_api::HatchPredicate hatch_of_expression(FunctionRef f, Node body, Node e, int depth,
                                                std::vector<FunctionRef>& visiting) const;
  torch_api::HatchPredicate hatch_of_call(int file, int scope, Node callee, std::string_view qualified,
                                          std::vector<FunctionRef>& visiting) const;
  // A module-level name bound once to a torch escape hatch, looked up where the torch in use
  // has it: `_is_compiling = getattr(torch.compiler, "is_compiling", None) or ...` (kornia).
  torch_api::HatchPredicate hatch_of_global(int file, int scope, std::string_view name) const;
  torch_api::HatchPredicate hatch_of_callable(int file, Node e, int depth) const;

  std::span<const FileModel* const> files_;
  StringMap<int> by_module_;  // module name -> file
  StringSet external_writes_;
  std::vector<std::vector<bool>> regions_[2];  // by index_of(Tracer)
  std::vector<std::vector<bool>> entries_;
  std::vector<std::vector<bool>> compile_call_targets_;
  std::vector<std::vector<bool>> hook_targets_;
  std::vector<std::vector<uint8_t>> reexported_opaque_;  // Tracer bits, by file and function
  std::vector<std::vector<bool>> reexported_seed_;  // decorated with a re-exported compile decorator
  // What a re-exported decorator resolves to in torch: "" when it names none.
  std::string torch_name_of(const std::string& qualified) const;
  std::vector<std::vector<int8_t>> module_class_;  // -1 unknown, 0 no, 1 yes
  // Truth under a tracer of the conditions call edges lie under, while the
  // regions are computed (both tracers ask the same).
  std::unordered_map<const void*, std::optional<bool>> condition_truth_[2];  // by index_of(tracer)
  // Direct project subclasses of each class, built when first asked.
  // The project classes naming `c` as a base; null when none.
  const std::vector<ClassRef>* direct_subclasses(ClassRef c) const;
  mutable std::once_flag subclasses_once_;
  mutable std::map<std::pair<int, int>, std::vector<ClassRef>> subclasses_;
  // The classes of handed_on, built when first asked.
  mutable std::once_flag handed_on_once_;
  mutable std::set<std::pair<int, int>> handed_on_;
  // Constructions by the class constructed, built when first asked.
  mutable std::once_flag constructions_once_;
  mutable std::map<std::pair<int, int>, std::vector<std::pair<int, const Construction*>>> constructions_;
  // HatchPredicate by function, -1 until asked.
  mutable std::vector<std::unique_ptr<std::atomic<int8_t>[]>> hatch_;
  // What is_module_factory / is_tokenizer_factory answered for (kind, file, qualified): the
  // walk asks again at every read of a factory-made attribute.
  mutable std::mutex factories_mutex_;
  mutable std::map<std::tuple<char, int, std::string>, bool> factories_;
  template <typename Compute>
  bool remembered_factory(char kind, int file, std::string_view qualified, Compute&& compute) const;
};

}  // namespace fxlint

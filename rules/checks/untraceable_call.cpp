// FX502: calls into libraries the tracer cannot follow: numpy or math on
// tensor data, random, time, copy.deepcopy. For Dynamo also recurrent modules,
// module hooks registered in compiled code, NumPy draws read out of the graph
// and NumPy generator objects, torch generators, tqdm, resize_, tokenizers the
// module holds, and autograd's entry points; and not what Dynamo models itself (some of random, some
// copies). For export, not what non-strict export runs as Python.
#include <unordered_map>

#include "rules/check.h"
#include "rules/check_support.h"

namespace fxlint {
namespace {

class UntraceableCall final : public Check {
 public:
  using Check::Check;
  void on_call(Node call, const SemanticModel& ctx) override {
    if (settings_.target == Target::Dynamo) {
      report_recurrent_module(call, ctx);
      report_module_hook(call, ctx);
      report_numpy_generator(call, ctx);
      report_autograd(call, ctx);
      report_tensor_method(call, ctx);
      report_generator_argument(call, ctx);
      report_tokenizer(call, ctx);
      report_disabled_function(call, ctx);
    }
    std::string q = ctx.resolve(call.field("function"));
    if (q.empty()) return;
    // TorchScript's refinement check, the deprecated attention-backend context and sparse
    // constructors: Dynamo does not trace them and breaks there.
    if (settings_.target == Target::Dynamo) {
      if (q == "torch.jit.isinstance") {
        sink_.report(RuleId::FX502, call.range(),
                     "`torch.jit.isinstance` is skipped by TorchDynamo: the graph breaks; use `isinstance`");
        return;
      }
      if (q == "torch.backends.cuda.sdp_kernel") {
        sink_.report(RuleId::FX502, call.range(),
                     "`torch.backends.cuda.sdp_kernel` breaks TorchDynamo's graph; use `torch.nn.attention.sdpa_kernel`");
        return;
      }
      if (q == "torch.Generator") {
        sink_.report(RuleId::FX502, call.range(),
                     "a `torch.Generator` made in compiled code is an object TorchDynamo cannot trace: the graph "
                     "breaks; make it outside and seed the global generator, or draw without `generator=`");
        return;
      }
      // tqdm is on Dynamo's skip list: a progress bar over a compiled loop breaks it, whatever it wraps.
      if (q.starts_with("tqdm.")) {
        sink_.report(RuleId::FX502, call.range(),
                     "`" + q + "` is skipped by TorchDynamo: the graph breaks; show progress outside the compiled code");
        return;
      }
      if (q == "torch.nn.utils.rnn.pack_padded_sequence" || q == "torch.nn.utils.rnn.pad_packed_sequence") {
        sink_.report(RuleId::FX502, call.range(),
                     "`" + q + "` is skipped by TorchDynamo: the graph breaks (recurrent modules on packed "
                     "sequences run eagerly)");
        return;
      }
      if (skipped_library_call(q)) {
        std::string shown = q.starts_with("builtins.") ? q.substr(9) : q;
        sink_.report(RuleId::FX502, call.range(),
                     "`" + shown + "` is skipped by TorchDynamo (file, compression, hashing or serialization code): the "
                     "graph breaks; do it outside the compiled code");
        return;
      }
      if (q == "torch.sparse_coo_tensor" || q == "torch.sparse_csr_tensor" || q == "torch.sparse_csc_tensor" ||
          q == "torch.sparse_bsr_tensor" || q == "torch.sparse_bsc_tensor" || q == "torch.sparse_compressed_tensor") {
        sink_.report(RuleId::FX502, call.range(),
                     "`" + q + "` is skipped by TorchDynamo: sparse tensors are not created in its graph");
        return;
      }
    }
    std::string module = q.substr(0, q.find('.'));
    // Dynamo traces NumPy (numpy.random included) through torch._numpy: an
    // array drawn stays in the graph; one number drawn is read out of it, and
    // so is an array's number that a branch or a bound needs.
    if (module == "numpy" && support::dynamo_traces_numpy(settings_.torch_version, settings_.target)) {
      if (!q.starts_with("numpy.random.")) return;
      if (makes_numpy_generator(q)) {
        sink_.report(RuleId::FX502, call.range(),
                     "`" + q + "` makes a NumPy generator object, which TorchDynamo cannot trace: the graph breaks");
      } else if (draws_one_number(q, call, ctx)) {
        sink_.report(RuleId::FX502, call.range(),
                     "`" + q + "` without a size draws one number, which TorchDynamo reads out of the graph: the "
                     "graph breaks");
      } else if (Node use = number_needed_at(call, ctx)) {
        std::string subject = use == call ? "`" + q + "` draws" : "`" + named(use, ctx) + "` was drawn by `" + q + "`";
        sink_.report(RuleId::FX502, use.range(),
                     subject + " inside the graph; a branch, loop or slice on the number reads it and breaks the graph");
      }
      return;
    }
    if (settings_.target == Target::Dynamo && dynamo_models_random(q)) {
      Node use = number_needed_at(call, ctx, true);
      if (!use) return;
      std::string subject = use == call ? "`" + q + "` gives" : "`" + named(use, ctx) + "` is what `" + q + "` gave,";
      sink_.report(RuleId::FX502, use.range(),
                   subject + " a number TorchDynamo keeps symbolic; a branch, loop, index, slice, `int()` or "
                   "Python arithmetic on it breaks the graph (only tensor operations take it)");
      return;
    }
    if (settings_.target == Target::Dynamo && dynamo_copies(q, call, ctx)) return;
    // Non-strict torch.export runs a deep copy of plain values as Python.
    if (settings_.target == Target::Export && q == "copy.deepcopy" && copies_plain_value(call, ctx)) return;
    bool always = module == "random" || module == "time" || q == "copy.deepcopy" || q == "copy.copy" ||
                  q.starts_with("numpy.random.");
    bool on_data = module == "numpy" || module == "math" || module == "scipy" || module == "cv2" ||
                   module == "PIL" || module == "pandas";
    // TorchDynamo traces the array `.numpy()` makes as a tensor, but skips these libraries'
    // functions: given tensor data, they break the graph too.
    if (settings_.target == Target::Dynamo && on_data && module != "numpy" && module != "math" &&
        has_argument_of(call, ctx, {ValueKind::Tensor, ValueKind::TensorSequence, ValueKind::TensorData})) {
      sink_.report(RuleId::FX502, call.range(),
                   "`" + q + "` is not a torch operation: TorchDynamo skips it and the graph breaks");
      return;
    }
    if (!always && !(on_data && has_tensor_argument(call, ctx))) return;
    // Non-strict torch.export runs it as Python while tracing, without failing (checked:
    // `x[:, random.randrange(4)]` exports one column for good; strict export fails).
    if (settings_.target == Target::Export &&
        (module == "random" || module == "time" || q.starts_with("numpy.random."))) {
      sink_.report(RuleId::FX502, call.range(),
                   "`" + q + "` runs once while non-strict torch.export traces: the program keeps the value it gave "
                   "then (strict export fails); draw it with torch or pass it as an input");
      return;
    }
    sink_.report(RuleId::FX502, call.range(), "`" + q + "` is not a torch operation; the tracer cannot follow it");
  }

 private:
  // A project function decorated `@torch.compiler.disable` (torchvision's `tv_tensors.wrap`):
  // Dynamo runs it outside the graph ("Skip calling `torch.compiler.disable()`d function"),
  // so each call ends one graph.
  void report_disabled_function(Node call, const SemanticModel& ctx) {
    const FunctionInfo* f = ctx.called_project_function(call);
    if (!f || !f->dynamo_disabled) return;
    // torch's own disabled functions Dynamo handles itself (`torch.utils.checkpoint.checkpoint`
    // becomes one operator of the graph, DDP's forward has its own rules).
    if (ctx.resolve(call.field("function")).starts_with("torch.") || ctx.file().module_name.starts_with("torch.")) return;
    sink_.report(RuleId::FX502, call.range(),
                 "`" + f->name + "` is decorated with `torch.compiler.disable`: TorchDynamo breaks the graph to call "
                 "it, and `fullgraph=True` and strict torch.export fail here");
  }
  // `self.rnn(x)` where `self.rnn` is an nn.LSTM, GRU or RNN, here or in a
  // subclass that sets it: TorchDynamo runs those eagerly (GB0014, unless
  // torch._dynamo.config.allow_rnn); torch.export and the FX tracer take them.
  // So is a method called on one (`self.rnn.flatten_parameters()`: "Attempted to wrap RNN").
  void report_recurrent_module(Node call, const SemanticModel& ctx) {
    Node callee = call.field("function").unparenthesized();
    if (!callee.is(NodeKind::Attribute) || ctx.self_name().empty()) return;
    Node object = callee.field("object").unparenthesized();
    Node attr = callee.field("attribute");
    if (object.is(NodeKind::Attribute)) {  // `self.rnn.<method>(...)`
      attr = object.field("attribute");
      object = object.field("object").unparenthesized();
    }
    if (!object.is(NodeKind::Identifier) || object.text(ctx.source()) != ctx.self_name() || !attr) return;
    for (const std::string& cls : ctx.self_attribute_constructors(attr.text(ctx.source()))) {
      std::string_view name = std::string_view(cls).substr(cls.rfind('.') + 1);
      bool torch_nn = cls.starts_with("torch.nn.");
      if (torch_nn && (name == "LSTM" || name == "GRU" || name == "RNN")) {
        sink_.report(RuleId::FX502, call.range(),
                     "`" + cls + "` is run eagerly by TorchDynamo (unless torch._dynamo.config.allow_rnn): "
                     "the graph breaks around it");
        return;
      }
    }
  }

  // `m.register_forward_hook(h)` in compiled code: the handle it makes sets a
  // class counter TorchDynamo cannot trace, so the graph breaks there. The
  // method names are nn.Module's own; a tensor's `register_hook` is traced.
  void report_module_hook(Node call, const SemanticModel& ctx) {
    std::string_view method = support::method_name(call, ctx);
    if (method != "register_forward_hook" && method != "register_forward_pre_hook" &&
        method != "register_full_backward_hook" && method != "register_full_backward_pre_hook" &&
        method != "register_backward_hook") {
      return;
    }
    sink_.report(RuleId::FX502, call.range(),
                 "`" + std::string(method) + "` in compiled code: TorchDynamo cannot trace the hook's handle and "
                 "breaks the graph; register hooks before compiling");
  }

  // `self.rng.random()` where `self.rng = np.random.default_rng(...)`: TorchDynamo
  // traces NumPy's functions, not the methods of its generator objects.
  void report_numpy_generator(Node call, const SemanticModel& ctx) {
    Node callee = call.field("function").unparenthesized();
    if (!callee.is(NodeKind::Attribute) || ctx.self_name().empty()) return;
    Node holder = callee.field("object").unparenthesized();
    if (!holder.is(NodeKind::Attribute)) return;
    Node self = holder.field("object").unparenthesized();
    if (!self.is(NodeKind::Identifier) || self.text(ctx.source()) != ctx.self_name()) return;
    for (const std::string& cls : ctx.self_attribute_constructors(holder.field("attribute").text(ctx.source()))) {
      if (!cls.starts_with("numpy.random.")) continue;
      sink_.report(RuleId::FX502, call.range(),
                   "`" + std::string(holder.text(ctx.source())) + "` is a NumPy random generator (`" + cls +
                       "`): TorchDynamo cannot trace its methods and breaks the graph");
      return;
    }
  }

  // `torch.autograd.grad(...)`, `loss.backward()`: TorchDynamo does not trace
  // autograd's own entry points (torch._dynamo.config.trace_autograd_ops).
  void report_autograd(Node call, const SemanticModel& ctx) {
    std::string q = ctx.resolve(call.field("function"));
    bool backward = support::method_name(call, ctx) == "backward" &&
                    support::receiver_is_tensor(call, ctx);
    if (q != "torch.autograd.grad" && q != "torch.autograd.backward" && !backward) return;
    // In a Function's backward (a reentrant checkpoint recomputing its forward) no caller
    // computes gradients in compiled code: the advice is the non-reentrant checkpoint.
    bool in_function_backward = ctx.function().name == "backward" && ctx.in_autograd_function();
    sink_.report(RuleId::FX502, call.range(),
                 std::string(backward ? "`Tensor.backward()`" : "`" + q + "`") +
                     (in_function_backward
                          ? " in an autograd.Function's backward is not traced by TorchDynamo: the graph breaks at "
                            "the Function's `apply`; to recompute activations, use "
                            "`torch.utils.checkpoint.checkpoint(..., use_reentrant=False)`"
                          : " is not traced by TorchDynamo: the graph breaks; compute gradients outside the compiled "
                            "code"));
  }

  // `self.tokenizer(captions, ...)`, `self.tokenizer.batch_encode_plus(...)`: a tokenizer
  // works on strings in Python and Rust, which Dynamo does not trace (it breaks inside).
  void report_tokenizer(Node call, const SemanticModel& ctx) {
    Node callee = call.field("function").unparenthesized();
    if (!callee.is(NodeKind::Attribute)) return;
    Node object = callee.field("object").unparenthesized();
    Node holder = object.is(NodeKind::Attribute) ? object : callee;  // `self.tok.m(...)` or `self.tok(...)`
    Node self = holder.field("object").unparenthesized();
    if (!self.is(NodeKind::Identifier) || self.text(ctx.source()) != ctx.self_name() || ctx.self_name().empty()) return;
    if (!ctx.self_attribute_is_tokenizer(holder.field("attribute").text(ctx.source()))) return;
    sink_.report(RuleId::FX502, call.range(),
                 "a tokenizer works on strings outside torch: TorchDynamo breaks the graph in it; tokenize before "
                 "the compiled call");
  }
  // `buf.resize_(n)`: TorchDynamo does not trace it (strict export neither). `adj.to_sparse()`
  // and its layouts: Dynamo cannot hold a sparse tensor ("Attempted to wrap sparse Tensor"),
  // while torch.export takes it.
  void report_tensor_method(Node call, const SemanticModel& ctx) {
    std::string_view m = support::method_name(call, ctx);
    bool sparse = m.starts_with("to_sparse");
    if ((m != "resize_" && !sparse) || !support::receiver_is_tensor(call, ctx)) return;
    if (sparse) {
      sink_.report(RuleId::FX502, call.range(),
                   "`Tensor." + std::string(m) + "()` makes a sparse tensor, which TorchDynamo cannot hold in its "
                   "graph: the graph breaks");
      return;
    }
    sink_.report(RuleId::FX502, call.range(),
                 "`Tensor.resize_()` is not supported by TorchDynamo: the graph breaks; use `new_empty` or `torch.empty`");
  }

  // `torch.randn(shape, generator=self.gen)` where `self.gen` is built as a torch.Generator:
  // TorchDynamo cannot pass the generator object to a graph op. `generator=None` it traces.
  void report_generator_argument(Node call, const SemanticModel& ctx) {
    Node g = support::keyword_arg(call, "generator", ctx.source());
    if (!g) return;
    // A generator made in place is reported where it is made (`torch.Generator` above).
    Node value = g.unparenthesized();
    bool generator = false;
    if (value.is(NodeKind::Attribute) && !ctx.self_name().empty()) {
      Node self = value.field("object").unparenthesized();
      if (self.is(NodeKind::Identifier) && self.text(ctx.source()) == ctx.self_name()) {
        for (const std::string& cls : ctx.self_attribute_constructors(value.field("attribute").text(ctx.source()))) {
          generator |= cls == "torch.Generator";
        }
      }
    }
    if (!generator) return;
    sink_.report(RuleId::FX502, g.range(),
                 "a `torch.Generator` passed to a random function breaks TorchDynamo's graph; draw from the "
                 "global generator in compiled code");
  }

  // NumPy's generator constructors: Dynamo traces NumPy's functions, not these objects.
  static bool makes_numpy_generator(const std::string& q) {
    std::string_view name = std::string_view(q).substr(13);  // after "numpy.random."
    return name == "default_rng" || name == "RandomState" || name == "Generator" || name == "SeedSequence" ||
           name == "PCG64" || name == "PCG64DXSM" || name == "MT19937" || name == "Philox" || name == "SFC64";
  }

  // A NumPy draw without a size gives one number (`np.random.rand()`,
  // `np.random.randint(0, 3)`); with one, an array (`np.random.rand(4)`).
  static bool draws_one_number(const std::string& q, Node call, const SemanticModel& ctx) {
    static const std::unordered_map<std::string_view, size_t> size_position = {
        {"rand", 0}, {"randn", 0}, {"random", 0}, {"random_sample", 0}, {"ranf", 0}, {"sample", 0},
        {"standard_normal", 0}, {"uniform", 2}, {"normal", 2}, {"randint", 2}, {"choice", 1},
        {"exponential", 1}, {"poisson", 1}, {"binomial", 2}, {"beta", 2}, {"gamma", 2}, {"lognormal", 2}};
    auto it = size_position.find(std::string_view(q).substr(13));  // after "numpy.random."
    if (it == size_position.end()) return false;
    Node args = call.field("arguments");
    if (!args) return true;
    size_t positional = 0;
    for (Node a : NamedChildren(args)) {
      if (a.is(NodeKind::Comment)) continue;
      if (a.is(NodeKind::ListSplat) || a.is(NodeKind::DictionarySplat)) return false;  // sizes unknown
      if (a.is(NodeKind::KeywordArgument)) {
        if (a.field("name").text(ctx.source()) == "size") return false;
      } else {
        ++positional;
      }
    }
    return positional <= it->second;
  }

  // Standard-library code TorchDynamo does not trace, whatever the arguments (checked each:
  // "Attempted to call function marked as skipped", "Failed to trace builtin operator",
  // "Unsupported method call"; whisper's compression ratio, a forward that opens a file).
  // Non-strict torch.export and the FX tracer run it as Python.
  static bool skipped_library_call(std::string_view q) {
    static const std::unordered_map<std::string_view, bool> modules = {
        {"zlib", true}, {"gzip", true}, {"bz2", true}, {"lzma", true}, {"hashlib", true}, {"json", true},
        {"pickle", true}, {"base64", true}, {"csv", true}, {"shutil", true}, {"io", true}};
    static const std::unordered_map<std::string_view, bool> functions = {
        {"builtins.open", true},     {"os.path.exists", true}, {"os.path.isfile", true}, {"os.path.isdir", true},
        {"os.path.getsize", true},   {"os.listdir", true},     {"os.makedirs", true},    {"os.mkdir", true},
        {"os.remove", true},         {"os.unlink", true},      {"os.getpid", true},      {"os.stat", true},
        {"os.walk", true},           {"os.scandir", true},     {"os.rename", true}};
    return modules.count(q.substr(0, q.find('.'))) > 0 || functions.count(q) > 0;
  }

  // Python's global random generator, which TorchDynamo models for these: the
  // number becomes an input of the graph, drawn again on every call.
  static bool dynamo_models_random(const std::string& q) {
    return q == "random.random" || q == "random.randint" || q == "random.randrange" || q == "random.uniform" ||
           q == "random.shuffle" || q == "random.sample" || q == "random.seed";
  }
  // A deep copy of what is not known to hold a tensor or a module: TorchDynamo copies such
  // values, and non-strict torch.export runs the copy as Python; a tensor's (fake) data
  // neither can copy.
  static bool copies_plain_value(Node call, const SemanticModel& ctx) {
    Node args = call.field("arguments");
    std::vector<Node> a = args ? args.children() : std::vector<Node>{};
    if (a.empty() || a[0].is(NodeKind::KeywordArgument)) return false;
    ValueKind k = ctx.value_of(a[0]).kind;
    return k != ValueKind::Tensor && k != ValueKind::OptionalTensor && k != ValueKind::TensorSequence &&
           k != ValueKind::TensorDict && k != ValueKind::TensorDictList && k != ValueKind::Module;
  }
  // Dynamo copies Python objects and deep-copies values that hold no tensor; a
  // shallow copy of a tensor, list or dict, or a deep copy of a tensor, it cannot do.
  static bool dynamo_copies(const std::string& q, Node call, const SemanticModel& ctx) {
    if (q != "copy.copy" && q != "copy.deepcopy") return false;
    Node args = call.field("arguments");
    std::vector<Node> a = args ? args.children() : std::vector<Node>{};
    if (a.empty() || a[0].is(NodeKind::KeywordArgument)) return false;
    Value v = ctx.value_of(a[0]);
    bool tensors = v.is_tensor() || v.kind == ValueKind::TensorSequence || v.kind == ValueKind::TensorDict ||
                   v.kind == ValueKind::TensorDictList;
    if (q == "copy.deepcopy") return copies_plain_value(call, ctx);
    return !tensors && !a[0].unparenthesized().is(NodeKind::List) && !a[0].unparenthesized().is(NodeKind::Dictionary);
  }

  // The call's value is needed as a number: in a condition, compared
  // (`random() < p`), a slice or loop bound, or bound to a name that the rest
  // of the function uses so (`p = random.uniform(0, 1)` ... `if p < self.layerdrop:`).
  // Where the call's number is needed, which is where the graph breaks: the call
  // itself, or the first such use of the name it is assigned to (`p =
  // random.uniform(0, 1)` ... `if p < drop:`); null when nowhere. `symbolic`: a
  // number Dynamo keeps symbolic (Python's random), which only a tensor
  // operation takes: Python arithmetic on it needs it too.
  static Node number_needed_at(Node call, const SemanticModel& ctx, bool symbolic = false) {
    auto needs = [&](Node e) { return decides(e, ctx.source()) || (symbolic && computed_in_python(e, ctx)); };
    if (ctx.in_condition() || needs(call)) return call;
    Node p = call.parent();
    while (p && p.is(NodeKind::ParenthesizedExpression)) p = p.parent();
    if (!p || !p.is(NodeKind::Assignment) || !(p.field("right") == call)) return {};
    Node name = p.field("left");
    if (!name || !name.is(NodeKind::Identifier)) return {};
    Node fn = p;
    while (fn && !fn.is(NodeKind::FunctionDefinition)) fn = fn.parent();
    return fn ? first_use_after(fn, name.text(ctx.source()), call.end(), ctx.source(), needs) : Node();
  }

  static std::string named(Node use, const SemanticModel& ctx) { return std::string(use.text(ctx.source())); }

  // `e` is an operand of Python arithmetic (`n + 1`, `-p`, `1 - p * s` with `s` a
  // number, `n += 1`), an index, or an argument of a `math` function: TorchDynamo traces a symbolic
  // Python number only into tensor operations (`x * p`), and breaks on these.
  static bool computed_in_python(Node e, const SemanticModel& ctx) {
    Node p = e.parent();
    while (p && p.is(NodeKind::ParenthesizedExpression)) {
      e = p;
      p = p.parent();
    }
    if (!p) return false;
    if (p.is(NodeKind::UnaryOperator)) return true;
    // An index (`x[:, i]`, `self.layers[i]`, `[a, b][i]`): Dynamo needs the number (checked).
    if (p.is(NodeKind::Subscript) && !(p.field("value") == e)) return true;
    Node other;
    if (p.is(NodeKind::BinaryOperator)) other = p.field("left") == e ? p.field("right") : p.field("left");
    if (p.is(NodeKind::AugmentedAssignment) && p.field("left") == e) other = p.field("right");
    if (other) {
      other = other.unparenthesized();
      if (other.is(NodeKind::Call) && dynamo_models_random(ctx.resolve(other.field("function")))) return true;
      ValueKind k = ctx.value_of(other).kind;
      return k == ValueKind::Static || k == ValueKind::TensorData;
    }
    if (p.is(NodeKind::ArgumentList) && p.parent() && p.parent().is(NodeKind::Call)) {
      return ctx.resolve(p.parent().field("function")).starts_with("math.");
    }
    return false;
  }

  // `e` is compared, negated, an operand of and/or, the test of an if/while,
  // a slice bound or a bound of `range`: uses that need the drawn number.
  static bool decides(Node e, std::string_view src) {
    Node p = e.parent();
    while (p && p.is(NodeKind::ParenthesizedExpression)) {
      e = p;
      p = p.parent();
    }
    if (!p) return false;
    if (p.is(NodeKind::ComparisonOperator) || p.is(NodeKind::BooleanOperator) || p.is(NodeKind::NotOperator) ||
        p.is(NodeKind::Slice)) {
      return true;
    }
    // `range(n)`: a loop needs the number itself, as a slice bound does; and
    // `int(...)`/`round(...)` of it, through any arithmetic, cannot be traced.
    for (Node up = p, in = e; up; in = up, up = up.parent()) {
      if (up.is(NodeKind::ArgumentList) && up.parent() && up.parent().is(NodeKind::Call)) {
        Node f = up.parent().field("function");
        std::string_view name = f && f.is(NodeKind::Identifier) ? f.text(src) : std::string_view();
        if (name == "range" || ((name == "int" || name == "round") && up.named_child_count() >= 1 &&
                                up.named_child(0) == in)) {
          return true;
        }
        break;
      }
      if (!up.is(NodeKind::BinaryOperator) && !up.is(NodeKind::UnaryOperator) &&
          !up.is(NodeKind::ParenthesizedExpression)) {
        break;
      }
    }
    return (p.is(NodeKind::IfStatement) || p.is(NodeKind::ElifClause) || p.is(NodeKind::WhileStatement)) &&
           p.field("condition") == e;
  }

  // The first use of `name` after `after` in `n` for which `needs` holds; null when none.
  template <typename Needs>
  static Node first_use_after(Node n, std::string_view name, uint32_t after, std::string_view src,
                              const Needs& needs) {
    if (n.end() <= after) return {};
    if (n.is(NodeKind::Identifier)) return n.start() >= after && n.text(src) == name && needs(n) ? n : Node();
    for (Node c : n.children()) {
      if (Node use = first_use_after(c, name, after, src, needs)) return use;
    }
    return {};
  }

  // An argument whose value is of one of `kinds`.
  static bool has_argument_of(Node call, const SemanticModel& ctx, std::initializer_list<ValueKind> kinds) {
    Node args = call.field("arguments");
    if (!args) return false;
    for (Node a : args.children()) {
      Node v = a.is(NodeKind::KeywordArgument) ? a.field("value") : a;
      if (!v) continue;
      ValueKind kind = ctx.value_of(v).kind;
      for (ValueKind k : kinds) {
        if (kind == k) return true;
      }
    }
    return false;
  }
  // A tensor (or a list of them) handed over. A Python number already read out
  // of a tensor (`.item()`, `float(t)`) is not: that read is the pitfall, and
  // FX101/FX102 report it where it happens.
  static bool has_tensor_argument(Node call, const SemanticModel& ctx) {
    return has_argument_of(call, ctx, {ValueKind::Tensor, ValueKind::TensorSequence});
  }
};

}  // namespace
std::unique_ptr<Check> make_untraceable_call(DiagnosticSink& s, const CheckSettings& c) {
  return std::make_unique<UntraceableCall>(s, c);
}
}  // namespace fxlint

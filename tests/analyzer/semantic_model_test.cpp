// The semantic model on its own: queries answered before, during and after
// what a walk tells it, without any rule.
#include "tests/support/catch.h"

#include <memory>
#include <string>
#include <vector>

#include "analyzer/code_visitor.h"
#include "analyzer/file_model.h"
#include "analyzer/function_walker.h"
#include "analyzer/project_model.h"
#include "analyzer/semantic_model.h"
#include "analyzer/syntax_tree.h"

using namespace fxlint;

namespace {

// One parsed file, indexed into a one-file project.
struct Project {
  explicit Project(const std::string& text) : tree(SyntaxTree::parse(text)) {
    file = index_file(tree, "m", false, {});
    files = {&file};
    project = std::make_unique<ProjectModel>(std::span<const FileModel* const>(files), std::vector<std::string>{});
  }
  int function(const std::string& name) const {
    for (size_t i = 0; i < file.functions.size(); ++i) {
      if (file.functions[i].name == name) return static_cast<int>(i);
    }
    FAIL("no function " << name);
    return -1;
  }
  // The innermost named node whose text is `snippet` (the first such, in order).
  Node find(std::string_view snippet) const {
    Node best;
    auto visit = [&](auto&& self, Node n) -> void {
      if (best) return;
      for_each_child(n, [&](Node c) { self(self, c); });
      if (!best && n.is_named() && n.text(tree.text()) == snippet) best = n;
    };
    visit(visit, tree.root());
    REQUIRE(best);
    return best;
  }

  SyntaxTree tree;
  FileModel file;
  std::vector<const FileModel*> files;
  std::unique_ptr<ProjectModel> project;
};

}  // namespace

TEST_CASE("an expression the walk has not reached is inferred from its parts") {
  Project p(
      "import torch\n"
      "def f(x: torch.Tensor, n: int):\n"
      "    a = x.sum() > 0\n"
      "    b = x.shape[0] + n\n"
      "    c = x.sum().item()\n"
      "    d = x.float().abs()\n");
  SemanticModel m(*p.project, 0, p.function("f"));
  m.bind_parameters();
  CHECK(m.value_of(p.find("x.sum() > 0")).is_bool_tensor());
  CHECK(m.value_of(p.find("x.shape[0] + n")).kind == ValueKind::Static);
  CHECK(m.value_of(p.find("x.sum().item()")).is_tensor_data());
  Value d = m.value_of(p.find("x.float().abs()"));
  CHECK(d.is_tensor());
  CHECK_FALSE(d.is_bool_tensor());
}

TEST_CASE("what the walk remembered answers before inference") {
  Project p(
      "def f(x):\n"
      "    return x.foo()\n");
  SemanticModel m(*p.project, 0, p.function("f"));
  m.bind_parameters();
  Node call = p.find("x.foo()");
  CHECK(m.value_of(call).kind == ValueKind::Unknown);
  m.remember(call, Value::tensor(TensorDtype::Integer));
  CHECK(m.value_of(call) == Value::tensor(TensorDtype::Integer));
}

TEST_CASE("an inference holds only while its environment does") {
  Project p(
      "import torch\n"
      "def f(x: torch.Tensor):\n"
      "    y = 1\n"
      "    return y + 1\n");
  SemanticModel m(*p.project, 0, p.function("f"));
  m.bind_parameters();
  Node sum = p.find("y + 1");
  CHECK(m.value_of(sum).kind == ValueKind::Unknown);  // y not bound yet
  SemanticModel::Snapshot before = m.save();
  m.assign("y", Value::tensor());
  CHECK(m.value_of(sum).is_tensor());
  CHECK(m.assigned_locally("y"));
  m.restore(before);
  CHECK(m.value_of(sum).kind == ValueKind::Unknown);
}

TEST_CASE("narrowing by None checks and isinstance, undone by restore") {
  Project p(
      "import torch\n"
      "from typing import Optional\n"
      "def f(mask: Optional[torch.Tensor], y):\n"
      "    if mask is not None and isinstance(y, torch.Tensor):\n"
      "        return mask\n");
  SemanticModel m(*p.project, 0, p.function("f"));
  m.bind_parameters();
  Node cond = p.find("mask is not None and isinstance(y, torch.Tensor)");
  CHECK(m.value_of(p.find("mask")).kind == ValueKind::OptionalTensor);
  SemanticModel::Snapshot before = m.save();
  m.narrow(cond, true);
  CHECK(m.value_of(p.find("mask")).is_tensor());
  CHECK(m.value_of(p.find("y")).is_tensor());
  m.restore(before);
  CHECK(m.value_of(p.find("mask")).kind == ValueKind::OptionalTensor);
  m.narrow(cond, false);  // either part may be false: nothing is known
  CHECK(m.value_of(p.find("mask")).kind == ValueKind::OptionalTensor);
}

TEST_CASE("the right operand of `and` is typed under the left's narrowing") {
  Project p(
      "import torch\n"
      "from typing import Optional\n"
      "def f(m: Optional[torch.Tensor]):\n"
      "    return m is not None and m\n");
  SemanticModel m(*p.project, 0, p.function("f"));
  m.bind_parameters();
  // Static `is not` joined with a narrowed tensor: not a tensor for sure.
  CHECK(m.value_of(p.find("m is not None and m")).kind != ValueKind::Tensor);
  CHECK(m.value_of(p.find("m")).kind == ValueKind::OptionalTensor);  // the narrowing did not leak
}

TEST_CASE("a comprehension binds its targets only inside itself") {
  Project p(
      "import torch\n"
      "from typing import List\n"
      "def f(xs: List[torch.Tensor]):\n"
      "    ys = [t * 2 for t in xs]\n"
      "    zs = [i for i, t in enumerate(xs)]\n");
  SemanticModel m(*p.project, 0, p.function("f"));
  m.bind_parameters();
  CHECK(m.value_of(p.find("[t * 2 for t in xs]")).kind == ValueKind::TensorSequence);
  // Indices: trace-time values.
  CHECK(m.value_of(p.find("[i for i, t in enumerate(xs)]")).kind == ValueKind::Static);
  CHECK_FALSE(m.is_bound("t"));
  CHECK_FALSE(m.is_bound("i"));
}

TEST_CASE("comparison operators come from tokens, not from operand text") {
  Project p(
      "import torch\n"
      "def f(x: torch.Tensor, limits, names):\n"
      "    a = x.max() > limits['value in range']\n"
      "    b = x.max() > limits['a is b']\n"
      "    c = 'x' in names\n"
      "    d = x is not None\n");
  SemanticModel m(*p.project, 0, p.function("f"));
  m.bind_parameters();
  CHECK(m.value_of(p.find("x.max() > limits['value in range']")).is_bool_tensor());
  CHECK(m.value_of(p.find("x.max() > limits['a is b']")).is_bool_tensor());
  CHECK(m.value_of(p.find("'x' in names")).kind == ValueKind::Static);
  CHECK(m.value_of(p.find("x is not None")).kind == ValueKind::Static);
  Node cmp = p.find("x is not None");
  CHECK(m.comparison_operators(cmp) == std::vector<std::string_view>{"is not"});
}

TEST_CASE("calls of project functions are recorded when walked, not when inferred") {
  Project p(
      "import torch\n"
      "def helper(a, b):\n"
      "    return a\n"
      "def f(x: torch.Tensor):\n"
      "    return helper(x, b=3)\n");
  ArgumentTypes recorded;
  SemanticModel m(*p.project, 0, p.function("f"), nullptr, &recorded);
  m.bind_parameters();
  Node call = p.find("helper(x, b=3)");
  m.value_of(call);
  CHECK_FALSE(recorded.called(0, p.function("helper")));
  m.type_of(call);
  REQUIRE(recorded.called(0, p.function("helper")));
  CHECK(recorded.parameter(0, p.function("helper"), 0).is_tensor());
  CHECK(recorded.parameter(0, p.function("helper"), 1).kind == ValueKind::Static);
}

TEST_CASE("a method's model knows its class and its function") {
  Project p(
      "import torch\n"
      "from torch import nn\n"
      "class M(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.steps = 0\n"
      "    def helper(self, x) -> torch.Tensor:\n"
      "        return x\n"
      "    def forward(self, x):\n"
      "        return self.helper(x).sum() + self.steps\n");
  SemanticModel m(*p.project, 0, p.function("forward"));
  m.bind_parameters();
  CHECK(m.self_name() == "self");
  CHECK(m.in_module_class());
  CHECK(m.is_compile_entry());
  CHECK(m.value_of(p.find("x")).is_tensor());  // a module's input
  CHECK(m.value_of(p.find("self.helper(x).sum() + self.steps")).is_tensor());
  CHECK(m.self_attribute("steps").kind == ValueKind::Static);
}

TEST_CASE("sole_binding: the one expression a local is assigned") {
  Project p(
      "import torch\n"
      "def f(x: torch.Tensor, p):\n"
      "    once = x.amax()\n"
      "    twice = 1\n"
      "    twice = 2\n"
      "    for looped in x:\n"
      "        pass\n"
      "    looped = 3\n"
      "    p = 4\n"
      "    def inner():\n"
      "        once = 5\n");
  SemanticModel m(*p.project, 0, p.function("f"));
  Node once = m.sole_binding("once");
  REQUIRE(once);
  CHECK(once.text(p.tree.text()) == "x.amax()");
  CHECK_FALSE(m.sole_binding("twice"));
  CHECK_FALSE(m.sole_binding("looped"));
  CHECK_FALSE(m.sole_binding("p"));  // also a parameter
  CHECK_FALSE(m.sole_binding("missing"));
}

TEST_CASE("scopes: locals, enclosing, globals, imports and builtins") {
  Project p(
      "import torch as T\n"
      "SCALE = 2\n"
      "COUNT = 0\n"
      "def outer():\n"
      "    z = 1\n"
      "    def f(x):\n"
      "        global COUNT\n"
      "        y = x\n"
      "        return T.where(x > 0, x, z), len(y), SCALE, COUNT\n");
  SemanticModel m(*p.project, 0, p.function("f"));
  m.bind_parameters();
  CHECK(m.scope_of("x") == NameScope::Local);
  CHECK(m.scope_of("y") == NameScope::Local);
  CHECK(m.scope_of("z") == NameScope::Enclosing);
  CHECK(m.scope_of("SCALE") == NameScope::Global);
  CHECK(m.scope_of("len") == NameScope::Builtin);
  CHECK(m.declared_global("COUNT"));
  CHECK(m.resolve(p.find("T.where")) == "torch.where");
  CHECK(m.resolve(p.find("len")) == "builtins.len");
  CHECK(m.value_of(p.find("SCALE")).kind == ValueKind::Static);
  CHECK(m.value_of(p.find("T.where(x > 0, x, z)")).is_tensor());
}

TEST_CASE("truth under a tracer: hatch predicates, their wrappers, and None checks") {
  Project p(
      "import torch\n"
      "def compiling():\n"
      "    try:\n"
      "        return torch.compiler.is_compiling()\n"
      "    except Exception:\n"
      "        return False\n"
      "def tracing(t=None):\n"
      "    flag = compiling() or torch.jit.is_tracing()\n"
      "    flag |= t is None\n"
      "    return flag\n"
      "def eager_only():\n"
      "    return not compiling()\n"
      "def recursive(x):\n"
      "    x = x or recursive(x)\n"
      "    return x\n"
      "def f(x: torch.Tensor, m=None):\n"
      "    a = tracing(x)\n"
      "    b = not compiling() and x.all()\n"
      "    c = torch.jit.is_scripting() or x.all()\n"
      "    d = m is None or m.all()\n"
      "    e = eager_only()\n"
      "    g = recursive(x)\n");
  SemanticModel m(*p.project, 0, p.function("f"));
  m.bind_parameters();
  using torch_api::HatchPredicate;
  CHECK(p.project->hatch_of_function({0, p.function("compiling")}) == HatchPredicate::IsCompiling);
  CHECK(p.project->hatch_of_function({0, p.function("tracing")}) == HatchPredicate::IsCompiling);
  CHECK(p.project->hatch_of_function({0, p.function("eager_only")}) == HatchPredicate::NotAHatch);
  CHECK(p.project->hatch_of_function({0, p.function("recursive")}) == HatchPredicate::NotAHatch);
  CHECK(m.truth_when_traced(p.find("tracing(x)")) == true);
  CHECK(m.truth_when_traced(p.find("not compiling() and x.all()")) == false);
  CHECK(m.truth_when_traced(p.find("torch.jit.is_scripting() or x.all()")) == std::nullopt);
  CHECK(m.truth_when_traced(p.find("torch.jit.is_scripting()")) == false);
  CHECK(m.truth_when_traced(p.find("eager_only()")) == std::nullopt);
  CHECK(m.truth_when_traced(p.find("recursive(x)")) == std::nullopt);
  // `m` holds None here: known from values only when asked to use them.
  CHECK(m.truth_when_traced(p.find("m is None")) == std::nullopt);
  CHECK(m.truth_when_traced(p.find("m is None"), true) == true);
  CHECK(m.truth_when_traced(p.find("m is None or m.all()"), true) == true);
}

TEST_CASE("narrowing through a conjunction whose other side is true under a tracer") {
  Project p(
      "import torch\n"
      "from typing import Optional\n"
      "def f(mask: Optional[torch.Tensor]):\n"
      "    if mask is not None and torch.compiler.is_compiling():\n"
      "        return None\n"
      "    return mask\n");
  SemanticModel m(*p.project, 0, p.function("f"));
  m.bind_parameters();
  m.narrow(p.find("mask is not None and torch.compiler.is_compiling()"), false);
  CHECK(m.value_of(p.find("mask")).kind == ValueKind::None);
}

TEST_CASE("a ModuleList of one project class keeps the class of its elements") {
  Project p(
      "import torch\n"
      "from torch import nn\n"
      "class Block(nn.Module):\n"
      "    def forward(self, x, flag):\n"
      "        return x\n"
      "class Stack(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.blocks = nn.ModuleList([Block(), Block()])\n"
      "        self.mixed = nn.ModuleList([Block(), nn.Linear(2, 2)])\n"
      "    def forward(self, x):\n"
      "        for block in self.blocks:\n"
      "            x = block(x, False)\n"
      "        return x\n");
  ClassRef stack{0, 1};
  REQUIRE(p.file.classes[1].name == "Stack");
  CHECK(p.project->self_attribute_element_class(stack, "blocks").cls == 0);
  CHECK_FALSE(p.project->self_attribute_element_class(stack, "mixed").valid());
  int stack_forward = -1, block_forward = -1;
  for (size_t i = 0; i < p.file.functions.size(); ++i) {
    if (p.file.functions[i].qualname == "Stack.forward") stack_forward = static_cast<int>(i);
    if (p.file.functions[i].qualname == "Block.forward") block_forward = static_cast<int>(i);
  }
  REQUIRE(stack_forward >= 0);
  REQUIRE(block_forward >= 0);
  ArgumentTypes recorded;
  SemanticModel m(*p.project, 0, stack_forward, nullptr, &recorded);
  m.bind_parameters();
  m.bind_iteration(p.find("block"), p.find("self.blocks"));
  CHECK(m.value_of(p.find("block")).kind == ValueKind::Module);
  m.type_of(p.find("block(x, False)"));  // the walk reaches the call
  REQUIRE(recorded.called(0, block_forward));
  CHECK(recorded.parameter(0, block_forward, 1).is_tensor());
  CHECK(recorded.parameter(0, block_forward, 2).kind == ValueKind::Static);
}

TEST_CASE("data-dependent rows: made by dynamic-shape operations, kept by row-wise ones, read by sizes") {
  Project p(
      "import torch\n"
      "def f(x: torch.Tensor, m: torch.Tensor):\n"
      "    a = x[m > 0]\n"
      "    b = torch.where(m > 0)[0]\n"
      "    c = x[torch.where(m > 0)[0]]\n"
      "    d = (x[m > 0] * 2).relu()[:, :2]\n"
      "    e = x[m > 0].sum()\n"
      "    g = x[m > 0][0]\n"
      "    n1 = x[m > 0].numel() > 0\n"
      "    n2 = x[m > 0].shape[0] + 1\n"
      "    n3 = len(x[m > 0])\n"
      "    n4 = x[m > 0].size(1)\n"
      "    n5 = x.shape[0]\n"
      "    n6 = x.sum().item() > 1\n");
  SemanticModel m(*p.project, 0, p.function("f"));
  m.bind_parameters();
  CHECK(m.value_of(p.find("x[m > 0]")).data_dependent);
  CHECK(m.value_of(p.find("torch.where(m > 0)[0]")).data_dependent);
  CHECK(m.value_of(p.find("x[torch.where(m > 0)[0]]")).data_dependent);
  CHECK(m.value_of(p.find("(x[m > 0] * 2).relu()[:, :2]")).data_dependent);
  CHECK_FALSE(m.value_of(p.find("x[m > 0].sum()")).data_dependent);  // one element
  CHECK_FALSE(m.value_of(p.find("x[m > 0][0]")).data_dependent);     // a row: its columns are static
  CHECK_FALSE(m.value_of(p.find("x")).data_dependent);
  // Sizes: the row count of such a tensor is a data-dependent scalar, its column count is not.
  CHECK(m.value_of(p.find("x[m > 0].numel() > 0")).is_data_dependent_scalar());
  CHECK(m.value_of(p.find("x[m > 0].shape[0] + 1")).is_data_dependent_scalar());
  CHECK(m.value_of(p.find("len(x[m > 0])")).is_data_dependent_scalar());
  CHECK_FALSE(m.value_of(p.find("x[m > 0].size(1)")).is_data_dependent_scalar());
  CHECK_FALSE(m.value_of(p.find("x.shape[0]")).is_data_dependent_scalar());
  CHECK(m.value_of(p.find("x.sum().item() > 1")).is_data_dependent_scalar());
}

TEST_CASE("argument types: kinds are what every call agrees on, data-dependence what any call makes") {
  Value rows = Value::tensor();
  rows.data_dependent = true;
  ArgumentTypes a;
  a.record(0, 1, {rows, Value::of(ValueKind::Static)});
  a.record(0, 1, {Value::tensor(), Value::unknown()});
  Value first = a.parameter(0, 1, 0);
  CHECK(first.is_tensor());
  CHECK(first.data_dependent);
  CHECK(a.parameter(0, 1, 1).kind == ValueKind::Unknown);
  // Disagreeing kinds keep the flag: an annotated tensor parameter still reads it.
  a.record(0, 1, {Value::unknown(), Value::unknown()});
  CHECK(a.parameter(0, 1, 0).kind == ValueKind::Unknown);
  CHECK(a.parameter(0, 1, 0).data_dependent);

  ArgumentTypes b = a;
  CHECK(b.same_calls(a, 0, 1));
  CHECK(b.same_calls(a, 0, 2));  // neither has calls of it
  b.record(0, 2, {Value::tensor()});
  CHECK_FALSE(b.same_calls(a, 0, 2));
  b.record(0, 1, {Value::of(ValueKind::Static), Value::unknown()});
  CHECK(b.same_calls(a, 0, 1));  // already Unknown: unchanged
}

namespace {

ClassRef class_named(const Project& p, const std::string& name) {
  auto it = p.file.top_classes.find(name);
  REQUIRE(it != p.file.top_classes.end());
  return {0, it->second};
}

}  // namespace

TEST_CASE("a sub-module passed to the constructor has the class every construction passes") {
  Project p(
      "from torch import nn\n"
      "class Pool(nn.Module): pass\n"
      "class Other(nn.Module): pass\n"
      "class Heads(nn.Module):\n"
      "    def __init__(self, pool, extra=None):\n"
      "        super().__init__()\n"
      "        self.pool = pool\n"
      "        self.extra = extra\n"
      "class Base(nn.Module):\n"
      "    def __init__(self, heads, tail):\n"
      "        super().__init__()\n"
      "        self.heads = heads\n"
      "        self.tail = tail\n"
      "class Detector(Base):\n"
      "    def __init__(self):\n"
      "        heads = Heads(Pool(), extra=Other())\n"
      "        tail = Pool()\n"
      "        if heads:\n"
      "            tail = Other()\n"
      "        super().__init__(heads, tail)\n"
      "def build():\n"
      "    return Heads(Other())\n"
      "class Single(nn.Module):\n"
      "    def __init__(self, head):\n"
      "        super().__init__()\n"
      "        self.head = head\n"
      "class Wrapper(Single):\n"
      "    def __init__(self):\n"
      "        Single.__init__(self, Pool())\n");
  const ProjectModel& m = *p.project;
  // Through super().__init__ from a subclass, for the base's methods and the subclass's.
  CHECK(m.self_attribute_class(class_named(p, "Base"), "heads") == class_named(p, "Heads"));
  CHECK(m.self_attribute_class(class_named(p, "Detector"), "heads") == class_named(p, "Heads"));
  // Through `Single.__init__(self, ...)`.
  CHECK(m.self_attribute_class(class_named(p, "Single"), "head") == class_named(p, "Pool"));
  // Bound to two classes in the constructing function: not known.
  CHECK_FALSE(m.self_attribute_class(class_named(p, "Base"), "tail").valid());
  // Keyword argument.
  CHECK(m.self_attribute_class(class_named(p, "Heads"), "extra") == class_named(p, "Other"));
  // Two constructions pass different classes: not known.
  CHECK_FALSE(m.self_attribute_class(class_named(p, "Heads"), "pool").valid());
}

TEST_CASE("a walk records what a function returns, and callers unpack it") {
  Project p(
      "import torch\n"
      "def pick(x: torch.Tensor):\n"
      "    out = []\n"
      "    for r in x:\n"
      "        out.append(r[torch.nonzero(r).squeeze(1)])\n"
      "    if x.dim() > 3:\n"
      "        return out, 3\n"
      "    return out, x.shape[0]\n"
      "def gen(x: torch.Tensor):\n"
      "    yield x\n"
      "    return x\n"
      "def f(x: torch.Tensor):\n"
      "    rows, n = pick(x)\n"
      "    total = 0\n"
      "    for k in [r.size(0) for r in rows]:\n"
      "        total += k\n"
      "    g = gen(x)\n"
      "    return total\n");
  class Silent final : public CodeVisitor {} silent;
  ArgumentTypes first;
  walk_function(*p.project, 0, p.function("pick"), silent, nullptr, &first);
  walk_function(*p.project, 0, p.function("gen"), silent, nullptr, &first);
  std::optional<ArgumentTypes::Returned> r = first.returned(0, p.function("pick"));
  REQUIRE(r);
  REQUIRE(r->elements.size() == 2);
  CHECK(r->elements[0].kind == ValueKind::TensorSequence);
  CHECK(r->elements[0].data_dependent);  // every appended row is
  CHECK(r->elements[1].kind == ValueKind::Static);
  CHECK_FALSE(r->elements[1].data_dependent);
  CHECK_FALSE(first.returned(0, p.function("gen")));  // a generator

  ArgumentTypes second;
  walk_function(*p.project, 0, p.function("f"), silent, &first, &second);
  std::optional<ArgumentTypes::Returned> total = second.returned(0, p.function("f"));
  REQUIRE(total);
  CHECK(total->whole.kind == ValueKind::Static);
  CHECK(total->whole.data_dependent);  // sizes of data-dependent rows, summed in a loop
}

TEST_CASE("dicts of tensors: entries, lists of them, and what a walk returns") {
  Project p(
      "import torch\n"
      "from typing import Dict, List\n"
      "def detect(x: torch.Tensor):\n"
      "    result = []\n"
      "    for r in x:\n"
      "        keep = torch.nonzero(r).squeeze(1)\n"
      "        d = {'boxes': r[keep], 'scores': r[keep]}\n"
      "        d['labels'] = r[keep]\n"
      "        result.append(d)\n"
      "    return result\n"
      "def mixed(x: torch.Tensor):\n"
      "    d = {'boxes': x[torch.nonzero(x).squeeze(1)], 'scale': 2.0}\n"
      "    e = {'boxes': x[torch.nonzero(x).squeeze(1)]}\n"
      "    e['all'] = x\n"
      "    return d, e, [e, e], e['boxes']\n"
      "def read(dets: List[Dict[str, torch.Tensor]], sizes):\n"
      "    for i, (d, s) in enumerate(zip(dets, sizes)):\n"
      "        return d['boxes']\n");
  class Silent final : public CodeVisitor {} silent;
  ArgumentTypes first;
  walk_function(*p.project, 0, p.function("detect"), silent, nullptr, &first);
  walk_function(*p.project, 0, p.function("mixed"), silent, nullptr, &first);
  std::optional<ArgumentTypes::Returned> r = first.returned(0, p.function("detect"));
  REQUIRE(r);
  CHECK(r->whole.kind == ValueKind::TensorDictList);
  CHECK(r->whole.data_dependent);  // every entry of every appended dict has data-dependent rows
  std::optional<ArgumentTypes::Returned> m = first.returned(0, p.function("mixed"));
  REQUIRE(m);
  REQUIRE(m->elements.size() == 4);
  CHECK(m->elements[0].kind == ValueKind::Unknown);  // a float entry: not a dict of tensors
  CHECK(m->elements[1].kind == ValueKind::TensorDict);
  CHECK_FALSE(m->elements[1].data_dependent);  // `e['all'] = x` holds every row of x
  CHECK(m->elements[2].kind == ValueKind::TensorDictList);
  CHECK(m->elements[3].is_tensor());

  // A caller passes the list on: the annotated parameter takes its rows; enumerate(zip(...)) unpacks it.
  ArgumentTypes passed;
  std::vector<Value> args = {r->whole, Value::unknown()};
  passed.record(0, p.function("read"), args);
  ArgumentTypes second;
  walk_function(*p.project, 0, p.function("read"), silent, &passed, &second);
  std::optional<ArgumentTypes::Returned> entry = second.returned(0, p.function("read"));
  REQUIRE(entry);
  CHECK(entry->whole.is_tensor());
  CHECK(entry->whole.data_dependent);
}

TEST_CASE("a value typed as a tensor that its use shows is something else") {
  Project p(
      "import torch\n"
      "from typing import List, Tuple\n"
      "def f(x: torch.Tensor, sizes: Tuple[int, ...], scales: List[float]):\n"
      "    return (x.has('masks'), x['instances'], x != 'Rep', x.sum(), (2, 4), sizes, scales,\n"
      "            x.view(sizes), (2, x))\n");
  class Silent final : public CodeVisitor {} silent;
  ArgumentTypes first;
  walk_function(*p.project, 0, p.function("f"), silent, nullptr, &first);
  std::optional<ArgumentTypes::Returned> r = first.returned(0, p.function("f"));
  REQUIRE(r);
  REQUIRE(r->elements.size() == 9);
  CHECK(r->elements[0].kind == ValueKind::Unknown);  // no method of torch.Tensor
  CHECK(r->elements[1].kind == ValueKind::Unknown);  // a tensor takes no string index
  CHECK(r->elements[2].kind == ValueKind::Static);   // a tensor != a string is a Python bool
  CHECK(r->elements[3].is_tensor());
  CHECK(r->elements[4].kind == ValueKind::Static);   // a tuple of numbers is known when tracing
  CHECK(r->elements[5].kind == ValueKind::Static);   // annotated as Python numbers
  CHECK(r->elements[6].kind == ValueKind::Static);
  CHECK(r->elements[7].is_tensor());
  CHECK(r->elements[8].kind != ValueKind::Static);
}

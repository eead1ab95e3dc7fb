"""Each rewrite family, run before and after `fxlint fix --apply --unsafe-fixes`
on generated inputs (hypothesis: shapes with empty dimensions, dtypes, views
that alias their base, Python scalars). Outputs, in-place effects on the
arguments and raised exceptions must match, bit for bit; and where a rewrite's
preconditions do not hold, no fix may be offered at all.

    FXLINT=build/fxlint .venv/bin/python -m pytest tests/rewriter/fix_oracle_test.py
"""
import importlib.util
import itertools
import json
import os
import subprocess
import textwrap

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FXLINT = os.path.abspath(os.environ.get("FXLINT", "build/fxlint"))
torch.use_deterministic_algorithms(True)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
_counter = itertools.count()


def fix(tmp_path, source, config='[tool.fxlint]\ntorch-version = "2.14"\n'):
    """Writes `source` twice; fixes the second copy; returns both modules and the fixed text."""
    name = f"m{next(_counter)}"
    paths = []
    for side in ("original", "fixed"):
        d = tmp_path / side
        d.mkdir(exist_ok=True)
        (d / "pyproject.toml").write_text(config)
        p = d / f"{name}.py"
        p.write_text(textwrap.dedent(source).lstrip())
        paths.append(p)
    run = subprocess.run([FXLINT, "fix", "--apply", "--unsafe-fixes", str(paths[1])], capture_output=True, text=True)
    assert run.returncode in (0, 1), run.stderr
    assert "did not converge" not in run.stderr, run.stderr
    modules = []
    for side, p in zip(("original", "fixed"), paths):
        spec = importlib.util.spec_from_file_location(f"{name}_{side}", p)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        modules.append(module)
    return modules[0], modules[1], paths[1].read_text()


def fixes_offered(tmp_path, source, select):
    """The fixes `check` reports for `source` (JSON), with the installed torch."""
    p = tmp_path / f"c{next(_counter)}.py"
    p.write_text(textwrap.dedent(source).lstrip())
    run = subprocess.run([FXLINT, "check", "--select", select, "--output-format", "json", str(p)],
                         capture_output=True, text=True)
    return [d["fix"] for d in json.loads(run.stdout) if d["fix"]]


def outcome(fn, *args):
    """What a call does: its result or exception, and its arguments afterwards."""
    args = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
    try:
        result = ("ok", fn(*args))
    except Exception as e:  # the exception's type is part of what the code does
        result = ("raised", type(e).__name__)
    return result, args


def same(a, b):
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        return (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and a.dtype == b.dtype
                and a.shape == b.shape and torch.equal(a, b))
    if isinstance(a, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def assert_same(original, fixed, *args):
    a, b = outcome(original, *args), outcome(fixed, *args)
    assert same(a, b), (args, a, b)


shapes = st.lists(st.integers(0, 3), min_size=1, max_size=3)
dtypes = st.sampled_from([torch.float32, torch.float64, torch.int64, torch.int32])


@st.composite
def tensors(draw, dtype=None, shape=None):
    shape = draw(shapes) if shape is None else shape
    dtype = draw(dtypes if dtype is None else dtype) if not isinstance(dtype, torch.dtype) else dtype
    values = draw(st.lists(st.integers(-5, 5), min_size=max(1, torch.Size(shape).numel()),
                           max_size=max(1, torch.Size(shape).numel())))
    return torch.tensor(values[:torch.Size(shape).numel()]).reshape(shape).to(dtype)


# --- FX302: masked assignment ---------------------------------------------------

MASK_ALIAS = """
import torch


def f(x: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    z = x.view(-1)
    z[z < 0] = v.view(-1)[z < 0]
    return x


def g(x: torch.Tensor) -> torch.Tensor:
    z = x
    z[z < 0] = 0
    return z
"""


def test_masked_assignment_keeps_updating_through_views(tmp_path):
    original, fixed, text = fix(tmp_path, MASK_ALIAS)
    assert "z.copy_(" in text and "z.masked_fill_(" in text

    @SETTINGS
    @given(st.data())
    def check(data):
        x = data.draw(tensors())
        v = data.draw(tensors(dtype=x.dtype, shape=list(x.shape)))  # the stated precondition
        assert_same(original.f, fixed.f, x, v)
        assert_same(original.g, fixed.g, x)

    check()


SAME_SHAPE = """
import torch


def copy_big(x: torch.Tensor) -> torch.Tensor:
    out = torch.zeros_like(x)
    big = x > 1
    out[big] = x[big]
    return out


def cap(x: torch.Tensor) -> torch.Tensor:
    z = x.clone()
    z[x > 2] = 2
    return z
"""


def test_masks_of_a_tensor_with_the_targets_shape_are_rewritten_and_compute_the_same(tmp_path):
    # The mask comes from `x`, the target from zeros_like(x) / x.clone(): the same shape.
    original, fixed, text = fix(tmp_path, SAME_SHAPE)
    assert "out.copy_(torch.where(big, x, out))" in text
    assert "z.masked_fill_(x > 2, 2)" in text

    @SETTINGS
    @given(tensors())
    def check(x):
        assert_same(original.copy_big, fixed.copy_big, x)
        assert_same(original.cap, fixed.cap, x)

    check()


def test_no_masked_assignment_rewrite_for_a_mask_of_another_shape(tmp_path):
    # x[m] masks x's leading dimensions; masked_fill_ and where would broadcast m
    # against the trailing ones: a size error, or the wrong elements filled.
    source = """
import torch


def mask_features(x: torch.Tensor, m: torch.Tensor) -> torch.Tensor:
    x[m] = 0
    return x


def mask_rows(x: torch.Tensor) -> torch.Tensor:
    x[x.sum(dim=1) > 0] = 0.0
    return x
"""
    assert fixes_offered(tmp_path, source, "FX302") == []


def test_masked_assignment_with_another_dtype_is_unsafe_and_says_why(tmp_path):
    fixes = fixes_offered(tmp_path, MASK_ALIAS, "FX302")
    select = [f for f in fixes if "copy_" in f["edits"][0]["content"]]
    assert select and select[0]["applicability"] == "unsafe"
    assert "must have the dtype and shape" in select[0]["message"]


# --- FX301: masked reduction ------------------------------------------------------

REDUCTIONS = """
import torch


def total(x: torch.Tensor) -> torch.Tensor:
    return x[x > 0].sum()


def by_column(x: torch.Tensor) -> torch.Tensor:
    return x[x > 0].sum(dim=0)
"""


def test_masked_sum_is_the_same_number_and_reductions_with_arguments_are_left(tmp_path):
    original, fixed, text = fix(tmp_path, REDUCTIONS)
    assert "torch.where(x > 0, x, 0).sum()" in text
    assert "x[x > 0].sum(dim=0)" in text  # another shape: no rewrite

    @SETTINGS
    @given(tensors())
    def check(x):
        assert_same(original.total, fixed.total, x)

    check()


# --- FX104 / FX501: guards, and how they name torch ---------------------------------

GUARD_NO_IMPORT = """
from torch import nn


class M(nn.Module):
    def forward(self, x):
        print("shape", x.shape)
        assert (x > -100).all()
        return x * 2
"""

GUARD_IMPORT_IN_FUNCTION = """
from torch import nn


def helper():
    import torch
    return torch.ones(1)


class M(nn.Module):
    def forward(self, x):
        print("shape", x.shape)
        return x * 2
"""

GUARD_SHADOWED = """
import torch
from torch import nn


def step(x: torch.Tensor, torch=None) -> torch.Tensor:
    print("step", x.shape)
    return x + 1
"""


@pytest.mark.parametrize("source", [GUARD_NO_IMPORT, GUARD_IMPORT_IN_FUNCTION])
def test_a_guard_adds_the_import_it_needs(tmp_path, source, capfd):
    original, fixed, text = fix(tmp_path, source)
    assert text.count("import torch\n") == 1 + ("def helper" in source)
    assert "if not torch.fx._symbolic_trace.is_fx_symbolic_tracing():" in text
    x = torch.randn(2, 3)
    assert torch.equal(original.M()(x), fixed.M()(x))
    out = capfd.readouterr().out
    assert out.count("shape torch.Size([2, 3])") == 2  # eager prints as before
    torch.fx.symbolic_trace(fixed.M())  # and the tracer skips it


def test_no_import_torch_is_added_to_a_module_that_imports_without_torch(tmp_path):
    # The helper is compiled from another module; its own module must keep importing without torch.
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    helpers = tmp_path / "pkg" / "helpers.py"
    helpers.write_text("import logging\n\n\ndef scale(x):\n    print('scaling')\n    return x * 2\n")
    (tmp_path / "pkg" / "main.py").write_text(
        "import torch\n\nfrom pkg.helpers import scale\n\ncompiled = torch.compile(scale)\n")
    run = subprocess.run([FXLINT, "check", "--select", "FX501", "--output-format", "json", str(tmp_path / "pkg")],
                         capture_output=True, text=True, cwd=tmp_path)
    found = json.loads(run.stdout)
    assert [d["filename"].endswith("helpers.py") for d in found] == [True]
    assert found[0]["fix"] is None


def test_no_guard_where_a_parameter_named_torch_shadows_the_module(tmp_path):
    assert fixes_offered(tmp_path, GUARD_SHADOWED, "FX501") == []


# --- FX203: counters ---------------------------------------------------------------

COUNTERS = """
import torch
from torch import nn

CALLS = 0
TOTAL = 0.0


class Counted(nn.Module):
    def __init__(self):
        super().__init__()
        self.steps = 0

    def forward(self, x):
        global CALLS, TOTAL
        CALLS += 1
        TOTAL += x.sum().item()
        self.steps += 2
        return x * 2
"""


def test_counters_count_what_python_counted(tmp_path):
    original, fixed, text = fix(tmp_path, COUNTERS)
    assert "CALLS = torch.zeros((), dtype=torch.int64)" in text
    assert "TOTAL = torch.zeros((), dtype=torch.float64)" in text
    assert "x.sum().detach().reshape(())" in text
    a, b = original.Counted(), fixed.Counted()
    torch.manual_seed(0)
    for _ in range(5):
        x = torch.randn(3, requires_grad=True)
        assert torch.equal(a(x), b(x))
    assert original.CALLS == fixed.CALLS.item() and original.TOTAL == fixed.TOTAL.item()
    assert a.steps == b.steps.item()
    assert not fixed.TOTAL.requires_grad  # the counter holds no autograd graph
    assert "steps" not in b.state_dict()


NOT_COUNTERS = {
    "aliased": """
        import torch
        CALLS = 0

        @torch.compile
        def f(x):
            global CALLS
            mine = CALLS
            CALLS += 1
            return x * mine
    """,
    "a float step on an int": """
        import torch
        CALLS = 0

        @torch.compile
        def f(x):
            global CALLS
            CALLS += 0.5
            return x
    """,
    "not a module": """
        import torch

        class Graph:
            def __init__(self):
                self.n = 0

            @torch.compile
            def step(self, x):
                self.n += 1
                return x
    """,
    "read back": """
        import torch
        from torch import nn

        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.n = 0

            def forward(self, x):
                self.n += 1
                return x * self.n
    """,
}


@pytest.mark.parametrize("case", sorted(NOT_COUNTERS))
def test_no_counter_rewrite_where_it_would_change_what_is_computed(tmp_path, case):
    assert fixes_offered(tmp_path, NOT_COUNTERS[case], "FX203") == []


def test_no_import_time_tensor_in_torch_itself(tmp_path):
    pkg = tmp_path / "torch" / "sub"
    pkg.mkdir(parents=True)
    (tmp_path / "torch" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "mod.py").write_text(textwrap.dedent(NOT_COUNTERS["aliased"]).replace("mine = CALLS\n", ""))
    run = subprocess.run([FXLINT, "check", "--select", "FX203", "--output-format", "json", str(pkg / "mod.py")],
                         capture_output=True, text=True, cwd=tmp_path)
    found = json.loads(run.stdout)
    assert found and all(d["fix"] is None for d in found)


# --- FX103: tensor branches -----------------------------------------------------------

BRANCHES = """
import torch


def clip(x: torch.Tensor) -> torch.Tensor:
    if x.abs().max() > 3:
        x = x / 2
    return x


def sign(x: torch.Tensor) -> torch.Tensor:
    if x.sum() > 0:
        return x
    return -x


def pick(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    t = x.amax()
    return x * 2 if t > 1 else y - 1
"""


def test_branches_become_where_and_compute_the_same(tmp_path):
    original, fixed, text = fix(tmp_path, BRANCHES)
    assert "x = torch.where(x.abs().max() > 3, x / 2, x)" in text
    assert "return torch.where(x.sum() > 0, x, -x)" in text
    assert "torch.where(t > 1, x * 2, y - 1)" in text

    @SETTINGS
    @given(st.data())
    def check(data):
        x = data.draw(tensors(dtype=st.sampled_from([torch.float32, torch.float64])))
        if x.numel() == 0:
            x = torch.ones(1, dtype=x.dtype)  # max() of nothing raises in both; keep the arms comparable
        assert_same(original.clip, fixed.clip, x)
        assert_same(original.sign, fixed.sign, x)
        y = data.draw(tensors(dtype=x.dtype, shape=list(x.shape)))
        assert_same(original.pick, fixed.pick, x, y)

    check()


NOT_BRANCHES = {
    "a Python bool": """
        import torch

        def f(x: torch.Tensor, flag: bool) -> torch.Tensor:
            if flag:
                return x
            return -x
    """,
    "torch.equal": """
        import torch

        def f(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
            if torch.equal(x, y):
                z = x
            else:
                z = y
            return z
    """,
    "not a bool tensor": """
        import torch

        def f(x: torch.Tensor) -> torch.Tensor:
            if x.sum():
                z = x
            else:
                z = -x
            return z
    """,
    "several elements": """
        import torch

        def f(x: torch.Tensor) -> torch.Tensor:
            if x > 0:
                z = x
            else:
                z = -x
            return z
    """,
    "a number arm": """
        import torch

        def f(x: torch.Tensor) -> torch.Tensor:
            if x.sum() > 0:
                z = x
            else:
                z = 0
            return z
    """,
    "a None arm": """
        import torch

        def f(x: torch.Tensor):
            return x if x.sum() > 0 else None
    """,
    "a guarded arm that can raise": """
        import math
        import torch

        def f(x: torch.Tensor) -> torch.Tensor:
            if x.max() < 700:
                y = x * math.exp(x.max().item())
            else:
                y = x
            return y
    """,
}


@pytest.mark.parametrize("case", sorted(NOT_BRANCHES))
def test_no_where_rewrite_without_its_preconditions(tmp_path, case):
    assert fixes_offered(tmp_path, NOT_BRANCHES[case], "FX103") == []


def test_fix_converges_and_keeps_other_fixes_in_a_file_without_import_torch(tmp_path):
    source = GUARD_NO_IMPORT + "\n\nclass N(nn.Module):\n    def forward(self, x):\n        print(x.shape)\n        return x\n"
    _, fixed, text = fix(tmp_path, source)
    assert text.count("is_fx_symbolic_tracing()") == 3
    compile(text, "fixed.py", "exec")  # still Python

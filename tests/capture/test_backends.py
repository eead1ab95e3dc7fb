"""`fxlint verify --backend {dynamo,export,onnx}` and `fxlint fix --verify
--backend`, run by the built fxlint binary through the installed torch: Dynamo's
explain, torch.export strict and non-strict, and the ONNX exporter with ONNX
Runtime. Every backend runs all of its targets in one Python process, so each
backend is run once over all the cases and the tests read its report."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

from fxlint_capture.backends.codes import rule_code

FXLINT = os.environ.get("FXLINT_BIN", "")
pytestmark = pytest.mark.skipif(not os.path.isfile(FXLINT), reason="FXLINT_BIN names no built fxlint")

# `.item()` on line 5: Dynamo breaks there (FX101); torch.export and the ONNX
# exporter carry the value as a symbolic integer and succeed.
ITEM = """\
import torch


def scale(x):
    s = x.sum().item()
    return x * s
"""

# A tensor condition on line 5 (FX103) for every backend.
BRANCH = """\
import torch


def gate(x):
    if x.sum() > 0:
        return x * 2
    return x - 1
"""

CLEAN = """\
import torch


def double(x):
    return torch.relu(x) * 2
"""

# An nn.Module with a tensor condition on line 11.
NET = """\
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(3, 4)

    def forward(self, x):
        y = self.linear(x)
        if y.sum() > 0:
            y = y + 1
        return y * 2
"""

# A module whose tensor `if/else` the unsafe FX103 fix turns into torch.where.
GATE = """\
import torch


class Net(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            y = x * 2
        else:
            y = x - 1
        return y
"""

CASES = {"item.py": ITEM, "branch.py": BRANCH, "clean.py": CLEAN, "net.py": NET}
TARGETS = ["item.py:scale", "branch.py:gate", "clean.py:double", "net.py:Net"]


def write_cases(root):
    for name, text in CASES.items():
        (root / name).write_text(text)


def fxlint(*args, cwd):
    env = dict(os.environ, FXLINT_PYTHON=sys.executable)
    return subprocess.run([FXLINT, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def target_args(targets):
    out = []
    for t in targets:
        out += [t, "float32[2,3]"]
    return out


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    root = tmp_path_factory.mktemp("backends")
    write_cases(root)
    return root


_runs = {}


def verify_json(backend, cases):
    """One `fxlint verify --backend B --output-format json` over every case (and,
    for dynamo, a target that does not exist), run once per module."""
    if backend not in _runs:
        targets = target_args(TARGETS)
        if backend == "dynamo":
            targets += ["clean.py:missing", "float32[2,3]"]
        result = fxlint("verify", "--backend", backend, "--output-format", "json", *targets, cwd=cases)
        _runs[backend] = (result, json.loads(result.stdout))
    return _runs[backend]


def by_target(data):
    return {t["target"]: t for t in data["targets"]}


def innermost(failure):
    frame = failure["user_stack"][-1]
    return pathlib.Path(frame["filename"]).name, frame["lineno"], frame["line"]


def test_dynamo_reports_graphs_breaks_lines_and_codes(cases):
    result, data = verify_json("dynamo", cases)
    # The target that cannot be loaded makes the run an error (exit 2); the others are reported.
    assert result.returncode == 2, result.stderr
    assert data["summary"] == {"targets": 5, "passed": 1, "failed": 3, "errors": 1}
    targets = by_target(data)
    assert set(targets["item.py:scale"]) == {"target", "inputs", "mode", "backend", "status", "problems", "message",
                                             "report"}
    for name in TARGETS:
        assert targets[name]["backend"] == "dynamo"
        assert targets[name]["report"]["backend"] == "dynamo"

    item = targets["item.py:scale"]
    assert item["status"] == "failed"
    assert item["problems"] == ["1 graph break", "2 graphs"]
    report = item["report"]
    assert report["graph_count"] == 2 and report["graph_break_count"] == 1
    (brk,) = report["break_reasons"]
    assert brk["code"] == "FX101" and brk["gb_id"] == "GB0124"
    assert "Tensor.item()" in brk["reason"]
    assert innermost(brk) == ("item.py", 5, "s = x.sum().item()")
    assert brk["source"] == "explain"

    for name, line, text in (("branch.py:gate", 5, "if x.sum() > 0:"), ("net.py:Net", 11, "if y.sum() > 0:")):
        report = targets[name]["report"]
        assert targets[name]["status"] == "failed"
        assert report["graph_break_count"] == 1
        (brk,) = report["break_reasons"]
        assert brk["code"] == "FX103"
        assert "generic_jump" in brk["reason"]
        assert innermost(brk) == (name.split(":")[0], line, text)

    clean = targets["clean.py:double"]
    assert clean["status"] == "passed" and clean["problems"] == []
    assert clean["report"]["graph_count"] == 1 and clean["report"]["break_reasons"] == []
    assert clean["report"]["ok"] is True

    missing = targets["clean.py:missing"]
    assert missing["status"] == "error" and missing["report"] is None
    assert "has no 'missing'" in missing["message"]


def test_export_reports_strict_and_non_strict_failures(cases):
    result, data = verify_json("export", cases)
    assert result.returncode == 1, result.stderr
    assert data["summary"] == {"targets": 4, "passed": 2, "failed": 2, "errors": 0}
    targets = by_target(data)

    for name in ("item.py:scale", "clean.py:double"):
        report = targets[name]["report"]
        assert targets[name]["status"] == "passed", report
        assert [(s["name"], s["ok"]) for s in report["stages"]] == [("strict export", True),
                                                                   ("non-strict export", True)]
        assert report["failures"] == []

    for name, line in (("branch.py:gate", 5), ("net.py:Net", 11)):
        target = targets[name]
        assert target["status"] == "failed"
        assert target["problems"] == ["strict export failed", "non-strict export failed"]
        strict, non_strict = target["report"]["stages"]
        assert not strict["ok"] and not non_strict["ok"]
        # Strict export stops in Dynamo, non-strict on a guard on a data-dependent value.
        assert strict["failure"]["exception"] == "Unsupported"
        assert "Data-dependent branching" in strict["failure"]["reason"]
        assert non_strict["failure"]["exception"] == "GuardOnDataDependentSymNode"
        for stage in (strict, non_strict):
            assert stage["failure"]["code"] == "FX103"
            assert innermost(stage["failure"])[:2] == (name.split(":")[0], line)
        assert len(target["report"]["failures"]) == 2


def test_onnx_exports_and_compares_with_onnx_runtime(cases):
    result, data = verify_json("onnx", cases)
    assert result.returncode == 1, result.stderr
    assert data["summary"] == {"targets": 4, "passed": 2, "failed": 2, "errors": 0}
    targets = by_target(data)

    for name in ("item.py:scale", "clean.py:double"):
        report = targets[name]["report"]
        assert targets[name]["status"] == "passed", report
        export, runtime = report["stages"]
        assert export["name"] == "ONNX export" and export["ok"]
        assert runtime["name"] == "ONNX Runtime" and runtime["ok"]
        onnx = report["onnx"]
        assert onnx["opset"] == 18 and onnx["checker"] == "ok" and onnx["non_standard_ops"] == []
        assert onnx["onnxruntime"] == "ok" and onnx["max_abs_diff_onnx_vs_eager"] < 1e-5
    assert "Relu" in targets["clean.py:double"]["report"]["onnx"]["op_types"]

    for name, line in (("branch.py:gate", 5), ("net.py:Net", 11)):
        target = targets[name]
        assert target["status"] == "failed"
        assert target["problems"] == ["ONNX export failed"]
        (stage,) = target["report"]["stages"]
        failure = stage["failure"]
        assert failure["exception"] == "GuardOnDataDependentSymNode"
        assert failure["code"] == "FX103"
        assert innermost(failure)[:2] == (name.split(":")[0], line)


def test_config_backends_and_text_output(tmp_path):
    write_cases(tmp_path)
    (tmp_path / "pyproject.toml").write_text(
        "[tool.fxlint.verify]\n"
        'backend = "export"\n\n'
        "[[tool.fxlint.verify.targets]]\n"
        'target = "clean.py:double"\n'
        'inputs = ["float32[2,3]"]\n\n'
        "[[tool.fxlint.verify.targets]]\n"
        'target = "branch.py:gate"\n'
        'inputs = ["float32[2,3]"]\n\n'
        "[[tool.fxlint.verify.targets]]\n"
        'target = "item.py:scale"\n'
        'inputs = ["float32[2,3]"]\n'
        'backend = "dynamo"\n')
    result = fxlint("verify", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "clean.py:double float32[2,3] (backend: export)"
    assert "  strict export: ok (2 ops)" in lines
    assert "  ok: exported strict and non-strict" in lines
    assert "branch.py:gate float32[2,3] (backend: export)" in lines
    assert "  strict export: failed at branch.py:5: FX103 Unsupported: Data-dependent branching" in lines
    assert any(l.startswith("  non-strict export: failed at branch.py:5: FX103 GuardOnDataDependentSymNode: ")
               for l in lines), result.stdout
    assert "      if x.sum() > 0:" in lines
    assert "  FAILED: strict export failed, non-strict export failed" in lines
    # The per-target backend wins over the table's.
    assert "item.py:scale float32[2,3] (backend: dynamo)" in lines
    assert any(l.startswith("  break: item.py:5: FX101 Unsupported Tensor.item() call") for l in lines)
    assert lines[-1] == "Verified 3 targets: 1 passed, 2 failed."


def test_fix_verify_with_the_dynamo_backend(tmp_path):
    (tmp_path / "model.py").write_text(GATE)
    (tmp_path / "pyproject.toml").write_text(
        "[tool.fxlint]\n"
        'entry-points = ["model:Net.forward"]\n\n'
        "[tool.fxlint.verify]\n"
        'backend = "export"\n\n'
        "[[tool.fxlint.verify.targets]]\n"
        'target = "model.py:Net"\n'
        'inputs = ["float32[2,3]"]\n')
    # The unsafe FX103 fix turns the branch into torch.where: one graph for Dynamo.
    result = fxlint("fix", "--verify", "--backend", "dynamo", "--unsafe-fixes", "--apply", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert ("Verified the fixed code: 1 target capture in one graph (Dynamo); eager outputs unchanged."
            in result.stderr)
    assert "torch.where" in (tmp_path / "model.py").read_text()
    after = fxlint("verify", "--backend", "dynamo", "--output-format", "json", cwd=tmp_path)
    assert after.returncode == 0, after.stderr
    (target,) = json.loads(after.stdout)["targets"]
    assert target["status"] == "passed" and target["report"]["graph_count"] == 1


@pytest.mark.parametrize("args, message", [
    (["verify", "--backend", "tvm", "clean.py:double", "float32[2,3]"], "possible values: capture, dynamo, export"),
    (["verify", "--backend", "dynamo", "--mode", "strict", "clean.py:double", "float32[2,3]"], "has no modes"),
    (["verify", "--backend", "export", "--onnx", "m.onnx", "clean.py:double", "float32[2,3]"],
     "the export backend does not make"),
    (["fix", "--backend", "dynamo"], "it needs '--verify'"),
])
def test_usage_errors(cases, args, message):
    result = fxlint(*args, cwd=cases)
    assert result.returncode == 2
    assert message in result.stderr


def test_config_backend_is_validated(tmp_path):
    write_cases(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.fxlint.verify]\nbackend = "tvm"\n')
    result = fxlint("verify", cwd=tmp_path)
    assert result.returncode == 2
    assert "`tool.fxlint.verify.backend`: \"tvm\" is not allowed" in result.stderr
    (tmp_path / "pyproject.toml").write_text(
        '[[tool.fxlint.verify.targets]]\ntarget = "clean.py:double"\ninputs = ["float32[2]"]\n'
        'backend = "dynamo"\nonnx = "out.onnx"\n')
    result = fxlint("verify", cwd=tmp_path)
    assert result.returncode == 2
    assert "the \"dynamo\" backend writes no ONNX model" in result.stderr


# The table against reasons torch 2.14 gives (the reports above check it end to end).
@pytest.mark.parametrize("reason, line, code", [
    ("Unsupported Tensor.item() call with capture_scalar_outputs=False", "s = x.sum().item()", "FX101"),
    ("Unsupported Tensor.item() call with capture_scalar_outputs=False", "n = int(x.sum())", "FX102"),
    ("generic_jump TensorVariable()", "if x.sum() > 0:", "FX103"),
    ("GuardOnDataDependentSymNode: Could not guard on data-dependent expression Eq(u0, 1) (unhinted: Eq(u0, 1)).\n"
     "Caused by: (_export/non_strict_utils.py:1377 in __torch_function__)", "assert x.sum() > 0", "FX104"),
    ("GuardOnDataDependentSymNode: Could not guard on data-dependent expression Eq(u0, 1) (unhinted: Eq(u0, 1)).\n"
     "Caused by: (_export/non_strict_utils.py:1377 in __torch_function__)", "if x.sum() > 0:", "FX103"),
    ("GuardOnDataDependentSymNode: Could not guard on data-dependent expression Eq(u0, 1) (unhinted: Eq(u0, 1)).\n"
     "Caused by: (mp/m.py:10 in forward)", "if is_global_attn:", "FX106"),
    ("Consider annotating your code using torch._check*(). Could not guard on data-dependent expression Eq(4*u1, 0)"
     "\nCaused by: if boxes.numel() == 0:  # ops/boxes.py:103 in _batched_nms_coordinate_trick "
     "(_dynamo/variables/tensor.py:2849 in evaluate_expr)", "if boxes.numel() == 0:", "FX106"),
    ("GuardOnDataDependentSymNode: Could not extract specialized integer from data-dependent expression u0",
     "return x + lst[x.argmax()]", "FX102"),
    ("Data dependent operator\n  Explanation: Operator `aten._local_scalar_dense.default`", "return torch.zeros(n)",
     "FX304"),
    ("Dynamic shape operator\n  Explanation: Operator `aten.nonzero.default`'s output shape", "return x[x > 0] * 2",
     "FX301"),
    ("Dynamic shape operator\n  Explanation: Operator `aten.nonzero.default`'s output shape", "x[x > 0] = 0",
     "FX302"),
    ("Dynamic shape operator\n  Explanation: Operator `aten._unique2.default`'s", "return torch.unique(x)", "FX303"),
    ("Failed to trace builtin operator\n  Explanation: Dynamo does not know how to trace builtin operator `print`",
     "print(y)", "FX501"),
    ("Attempted to call function marked as skipped\n  Explanation: Dynamo does not know how to trace the builtin "
     "`time.time.`\n  Hint: (e.g. _warnings.warn)", "t = time.time()", "FX502"),
    ("Invalid call to __build_class__", "class A:", "FX504"),
    ("Observed exception", "s = f'{x}'", None),
])
def test_reason_table(reason, line, code):
    assert rule_code(reason, line) == code


# `fix --verify` compares each target's eager output before and after the fixes
# (fxlint_capture.eager_output): records built here, compared bit for bit.
def _eager_record(output=None, inputs=(), raised=None):
    from fxlint_capture.eager_output import FORMAT, canonical

    return {"format": FORMAT, "deterministic": True, "raised": raised, "output": canonical(output),
            "inputs_after": ("call", [canonical(i) for i in inputs], [])}


def test_eager_outputs_compare_bit_for_bit():
    import torch
    from fxlint_capture.eager_output import compare

    def differences(before, after, inputs_before=(), inputs_after=()):
        result = compare(_eager_record(before, inputs_before), _eager_record(after, inputs_after))
        assert result["equal"] == (not result["differences"])
        return result["differences"]

    t = torch.tensor([1.0, float("nan"), -0.0])
    # Nested structures of tensors and Python scalars; NaN equals NaN (tensors and floats alike).
    assert differences((t, [2, {"s": float("nan")}]), (t.clone(), [2, {"s": float("nan")}])) == []
    # Bits, not values: -0.0 and 0.0 differ.
    assert differences(t, torch.tensor([1.0, float("nan"), 0.0])) == [
        "output: 1 of 3 elements differ (max abs diff 0)"]
    assert differences(t, t + 0.5) == ["output: 2 of 3 elements differ (max abs diff 0.5)"]
    assert differences(torch.ones(2, dtype=torch.int64), torch.ones(2)) == [
        "output: dtype torch.int64 before the fix, torch.float32 after (max abs diff 0)"]
    assert differences(torch.ones(2), torch.ones(1, 2)) == ["output: shape [2] before the fix, [1, 2] after"]
    assert differences((1, 0.1), [1, 0.1]) == ["output: a tuple of 2 before the fix, a list of 2 after"]
    assert differences({"a": 1, "b": 2.0}, {"a": 1, "b": 2}) == [
        "output['b']: float 2.0 before the fix, int 2 after"]
    # In-place effects on the inputs count too.
    assert differences(None, None, [torch.zeros(2)], [torch.ones(2)]) == [
        "in-place effect on input[0]: 2 of 2 elements differ (max abs diff 1)"]

    raised = {"type": "ValueError", "message": "bad value", "stage": "call"}
    same_type = compare(_eager_record(raised=raised), _eager_record(raised=dict(raised, message="other")))
    assert same_type["equal"]
    only_after = compare(_eager_record(torch.ones(1)), _eager_record(raised=raised))
    assert only_after["summary"] == "raised ValueError calling it: bad value (before the fix it returned)"
    other_type = compare(_eager_record(raised=raised), _eager_record(raised=dict(raised, type="KeyError")))
    assert not other_type["equal"]
    several = compare(_eager_record((t, torch.zeros(2))), _eager_record((t + 1, torch.ones(2))))
    assert several["max_abs_diff"] == 1.0 and several["summary"].endswith("; max abs diff 1 overall")


def test_eager_output_runs_each_project_copy_in_its_own_process(tmp_path):
    from fxlint_capture.eager_output import compare, load

    # The same module path in two roots; the inputs are seeded, so only the code differs.
    module = "import torch\n\n\ndef f(x, out):\n    out.add_(x)\n    return x * {factor}\n"
    records = {}
    for name, factor in (("two", 2), ("three", 3)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "m.py").write_text(module.format(factor=factor))
        records[name] = tmp_path / f"{name}.pt"
        run = subprocess.run([sys.executable, "-m", "fxlint_capture", "--eager-output", "m.py:f", "float32[2,3]",
                              "float32[2,3]", "--save", str(records[name])],
                             cwd=tmp_path / name, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr
    two, three = load(records["two"]), load(records["three"])
    assert compare(two, two)["equal"]
    result = compare(two, three)
    assert result["differences"][0].startswith("output: 6 of 6 elements differ (max abs diff ")
    assert len(result["differences"]) == 1  # the same inputs: the in-place effect on `out` is the same
    assert result["max_abs_diff"] == pytest.approx(float(two["inputs_after"][1][0][1].abs().max()))

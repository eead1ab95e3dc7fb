"""`fxlint verify` and `fxlint fix --verify` against the real bytecode capture
(torch from the project environment). Each capture starts a Python process that
imports torch, so the cases are few and small."""
import json
import os
import pathlib
import shutil

import pytest

from conftest import REPO, fxlint_binary


def _capture_package_built():
    if os.environ.get("FXLINT_CAPTURE_PATH"):
        return True
    return (pathlib.Path(fxlint_binary()).parent / "python" / "fxlint_capture" / "__init__.py").is_file()


pytestmark = pytest.mark.skipif(not _capture_package_built(),
                                reason="the capture package is not built next to the fxlint binary")

ONE_GRAPH = """\
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(3, 4)

    def forward(self, x):
        return torch.relu(self.linear(x)) * 2
"""

ITEM = """\
import torch


def scale(x):
    s = x.sum().item()
    return x * s
"""

# A tensor `if/else`: its unsafe fix (torch.where) makes it one graph.
BRANCH = """\
import torch


class Gate(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            y = x * 2
        else:
            y = x - 1
        return y
"""

# The same branch, plus an `.item()` no fix removes: still two graphs after fixing.
BRANCH_AND_ITEM = BRANCH.replace("        return y\n", "        return y * y.max().item()\n")

CONFIG = """\
[tool.fxlint]
entry-points = ["model:{cls}.forward"]

[[tool.fxlint.verify.targets]]
target = "model.py:{cls}"
inputs = ["float32[2,3]"]
"""


def test_one_graph_passes_with_json_report(project):
    project.write("model.py", ONE_GRAPH)
    result = project.run("verify", "model.py:Net", "float32[2,3]", "--output-format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["summary"] == {"targets": 1, "passed": 1, "failed": 0, "errors": 0}
    target = data["targets"][0]
    assert target["target"] == "model.py:Net"
    assert target["inputs"] == ["float32[2,3]"]
    assert target["mode"] == "strict"
    assert target["status"] == "passed"
    assert target["report"]["graph_count"] == 1
    assert target["report"]["graph_break_count"] == 0
    assert "module linear" in target["report"]["ops_per_graph"][0]


def test_item_breaks_with_code_and_line(project):
    project.write("item.py", ITEM)
    result = project.run("verify", "item.py:scale", "float32[2,3]")
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "item.py:scale float32[2,3] (strict)"
    assert "  graphs: 2, ops: 2, breaks: 1" in result.stdout
    assert any(l.startswith("  break: item.py:5: FX101 ") for l in lines), result.stdout
    assert "      s = x.sum().item()" in lines
    assert "  FAILED: 1 graph break, 2 graphs" in lines
    assert lines[-1] == "Verified 1 target: 0 in one graph, 1 failed."

    data = json.loads(project.run("verify", "item.py:scale", "float32[2,3]", "--output-format", "json").stdout)
    (brk,) = data["targets"][0]["report"]["break_reasons"]
    assert brk["code"] == "FX101"
    assert brk["user_stack"][-1]["lineno"] == 5


def test_config_targets_from_a_subdirectory(project):
    project.write("model.py", BRANCH)
    project.write("ok.py", ONE_GRAPH)
    project.write("make_inputs.py", "import torch\n\n\ndef batch():\n    return (torch.ones(5, 3),)\n")
    project.write("pyproject.toml", CONFIG.format(cls="Gate") +
                  '\n[[tool.fxlint.verify.targets]]\ntarget = "ok.py:Net"\nfactory = "make_inputs:batch"\n')
    project.write("sub/empty.txt", "")
    # Run from a subdirectory: the nearest config's targets, paths relative to the config.
    result = project.run("verify", "--output-format", "json", cwd=project.root / "sub")
    assert result.returncode == 1, result.stderr
    data = json.loads(result.stdout)
    assert [t["target"] for t in data["targets"]] == ["model.py:Gate", "ok.py:Net"]
    assert [t["status"] for t in data["targets"]] == ["failed", "passed"]
    assert data["targets"][0]["report"]["break_reasons"][0]["code"] == "FX103"
    assert data["targets"][1]["inputs"] == ["make_inputs:batch"]
    tensors = [g["detail"] for g in data["targets"][1]["report"]["guards"] if g["kind"] == "TENSOR_MATCH"]
    assert "torch.float32 torch.Size([5, 3]) cpu" in tensors


def test_onnx_export_is_validated(project):
    project.write("model.py", ONE_GRAPH)
    result = project.run("verify", "model.py:Net", "float32[2,3]", "--onnx", "out/net.onnx", "--opset", "13")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "  onnx: out/net.onnx (opset 13): valid" in result.stdout
    assert "    non-standard ops: none" in result.stdout
    assert "    onnxruntime: ok (max |onnx - eager|: " in result.stdout
    assert (project.root / "out" / "net.onnx").stat().st_size > 0
    ops = next(l for l in result.stdout.splitlines() if l.startswith("    ops ("))
    assert "Relu" in ops and ("Gemm" in ops or "MatMul" in ops)


def test_missing_target_file_and_usage_errors(project):
    result = project.run("verify", "nowhere.py:Net", "float32[2]")
    assert result.returncode == 2
    assert "error: nowhere.py:Net: nowhere.py: no such file" in result.stderr

    result = project.run("verify", "float32[2]")
    assert result.returncode == 2
    assert "'float32[2]' is not a target" in result.stderr

    result = project.run("verify")
    assert result.returncode == 2
    assert "nothing to verify" in result.stderr
    assert "[[tool.fxlint.verify.targets]]" in result.stderr


def test_fix_verify_applies_a_fix_that_captures_in_one_graph(project):
    project.write("model.py", BRANCH)
    project.write("pyproject.toml", CONFIG.format(cls="Gate"))
    # Without --apply the verified fix is shown as a diff, and nothing is written.
    result = project.run("fix", "--verify", "--unsafe-fixes")
    assert result.returncode == 1, result.stderr
    assert "+        y = torch.where(x.sum() > 0, x * 2, x - 1)" in result.stdout.splitlines()
    assert (project.root / "model.py").read_text() == BRANCH

    result = project.run("fix", "--verify", "--unsafe-fixes", "--apply")
    assert result.returncode == 0, result.stderr
    assert ("Verified the fixed code: 1 target capture in one graph (strict); eager outputs unchanged."
            in result.stderr)
    assert "torch.where(x.sum() > 0, x * 2, x - 1)" in (project.root / "model.py").read_text()
    # The fixed file really captures in one graph now.
    assert project.run("verify").returncode == 0


def test_fix_verify_keeps_fixes_that_leave_no_target_worse(project):
    project.write("model.py", BRANCH_AND_ITEM)
    project.write("pyproject.toml", CONFIG.format(cls="Gate"))
    result = project.run("fix", "--verify", "--unsafe-fixes", "--apply")
    # The branch is fixed; the .item() break was there before and stays: said, not refused.
    assert result.returncode == 1, result.stderr
    assert ("warning: verify target model.py:Gate does not capture in one graph, with the fixes or without"
            in result.stderr)
    # The break is named by the original path (not the temporary copy), at its line in the fixed code.
    assert "  break: model.py:7: FX101 " in result.stderr
    assert "none captures worse than before the fixes" in result.stderr
    assert "torch.where(" in (project.root / "model.py").read_text()


# Two functions, each with a tensor `if/else` that FX103 rewrites to torch.where.
# In `gate` the arms are float tensors: the same result. In `scale` the arms are
# `n` (int64) and `n * 2.5` (float): torch.where promotes both, so the fixed
# code returns float32 where the original returned int64.
GATE_FN = """\
import torch


def gate(x):
    if x.sum() > 0:
        y = x * 2
    else:
        y = x - 1
    return y
"""
SCALE_FN = GATE_FN.replace("gate(x)", "scale(x)").replace("x * 2\n", "x\n").replace("x - 1", "x * 2.5")
NET = """\
import torch

from gate import gate
from scale import scale


class Net(torch.nn.Module):
    def forward(self, x, n):
        return gate(x), scale(n)
"""
NET_CONFIG = """\
[tool.fxlint]
entry-points = ["gate:gate", "scale:scale"]

[[tool.fxlint.verify.targets]]
target = "model.py:Net"
inputs = ["float32[2,3]", "int64[2,3]"]
"""


def test_fix_verify_rolls_back_a_fix_that_changes_the_eager_output(project):
    project.write("gate.py", GATE_FN)
    project.write("scale.py", SCALE_FN)
    project.write("model.py", NET)
    project.write("pyproject.toml", NET_CONFIG)
    result = project.run("fix", "--verify", "--unsafe-fixes", "--apply")
    # Both fixes capture in one graph; only scale.py's changes what Net returns: it alone is rolled back.
    assert ("warning: rolled back the FX103 fixes in scale.py: with them, verify target model.py:Net computes a "
            "different eager output than without:") in result.stderr, result.stderr
    assert ("  FAILED: the fix changed the eager output of model.py:Net: output[1]: dtype torch.int64 before "
            "the fix, torch.float32 after (max abs diff 0)") in result.stderr.splitlines()
    assert "gate.py" not in result.stderr.split("rolled back")[1].splitlines()[0]
    assert "y = torch.where(x.sum() > 0, x * 2, x - 1)" in (project.root / "gate.py").read_text()
    assert (project.root / "scale.py").read_text() == SCALE_FN
    # scale.py's branch still breaks the graph, as it did: reported, and the exit status says so.
    assert "none captures worse than before the fixes; eager outputs unchanged." in result.stderr
    assert result.returncode == 1, result.stderr


def test_fix_verify_runs_the_targets_of_a_nested_config_too(project):
    project.write("model.py", BRANCH)
    project.write("pyproject.toml", CONFIG.format(cls="Gate"))
    # sub/ has its own config and target; its file is fixed from the root: its target runs as well.
    project.write("sub/model.py", BRANCH)
    project.write("sub/pyproject.toml", CONFIG.format(cls="Gate"))
    result = project.run("fix", "--verify", "--unsafe-fixes", "--apply")
    assert result.returncode == 0, result.stderr
    assert ("Verified the fixed code: 2 targets capture in one graph (strict); eager outputs unchanged."
            in result.stderr), result.stderr
    for path in ("model.py", "sub/model.py"):
        assert "torch.where(x.sum() > 0, x * 2, x - 1)" in (project.root / path).read_text()


def test_fix_verify_without_targets_is_a_usage_error(project):
    project.write("model.py", BRANCH)
    result = project.run("fix", "--verify")
    assert result.returncode == 2
    assert "'--verify' captures the config's verify targets" in result.stderr
    assert "[[tool.fxlint.verify.targets]]" in result.stderr


def test_a_capture_that_never_returns_is_stopped(project):
    project.write("loop.py", "import torch\n\n\ndef spin(x):\n    while True:\n        x = x + 1\n")
    result = project.run("verify", "loop.py:spin", "float32[2]", env={"FXLINT_CAPTURE_TIMEOUT": "3"})
    assert result.returncode == 2
    assert "did not finish within 3 s" in result.stderr


def test_bundled_example_lint_fix_verify_and_run_the_onnx_model(project):
    # The README's walk-through: the example's Backbone breaks on a tensor branch; the unsafe
    # fix rewrites it to torch.where; the capture then finds one graph whose ONNX export
    # ONNX Runtime runs to eager's result.
    shutil.copytree(REPO / "examples", project.root / "examples")
    before = project.run("verify", "detector/model.py:Backbone", "float32[1,3,32,32]", cwd=project.root / "examples")
    assert before.returncode == 1 and "FX103 data-dependent branch" in before.stdout, before.stdout
    fixed = project.run("fix", "--apply", "--unsafe-fixes", "examples")
    assert "FX103" in fixed.stderr.splitlines()[0], fixed.stderr
    source = (project.root / "examples" / "detector" / "model.py").read_text()
    assert "x = torch.where(x.abs().max() > 100, x / 100, x)" in source
    after = project.run("verify", "detector/model.py:Backbone", "float32[1,3,32,32]", "--onnx", "bb.onnx",
                        cwd=project.root / "examples")
    assert after.returncode == 0, after.stdout + after.stderr
    assert "ok: captured in one graph" in after.stdout
    assert "    onnxruntime: ok (max |onnx - eager|: " in after.stdout


HOOK_REMOVES_ITSELF = """\
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 3)
        self.handle = self.fc.register_forward_hook(self.once)

    def once(self, module, args, out):
        self.handle.remove()
        return out * 2

    def forward(self, x):
        return self.fc(x) + 1
"""


def test_verify_fails_a_graph_that_does_not_replay_what_ran_and_says_why(project):
    project.write("hooked.py", HOOK_REMOVES_ITSELF)
    result = project.run("verify", "hooked.py:Net", "float32[2,3]")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "captured in one graph" not in result.stdout
    assert "does not replay what ran" in result.stdout, result.stdout

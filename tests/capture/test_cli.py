"""python3 -m fxlint_capture, the interface `fxlint verify` calls."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

import fxlint_capture

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(fxlint_capture.__file__)))

TARGET = textwrap.dedent('''
    import torch

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(3, 4)

        def forward(self, x, k: int = 2):
            y = self.fc(x).relu() * k
            if y.sum() > 0:
                y = y + 1
            return y

    def clean(x, mask):
        return torch.where(mask, x, torch.zeros_like(x)).sum(0)

    def counts(labels):
        return labels.float() * 2

    def fails(x):
        raise ValueError("no good")

    def chatty(x):
        print("hello from the target")
        return x + 1

    def make_inputs():
        return (torch.randn(2, 3),)
''')


@pytest.fixture()
def target(tmp_path):
    path = tmp_path / "model.py"
    path.write_text(TARGET)
    return path


def run(*args, cwd=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_ROOT, env.get("PYTHONPATH")) if p)
    proc = subprocess.run([sys.executable, "-m", "fxlint_capture", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=300)
    return proc


def test_json_report(target):
    proc = run(f"{target}:Net", "float32[2,3]", "int:3", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["target"] == f"{target}:Net"
    assert data["graph_count"] == 2 and data["graph_break_count"] == 1
    (reason,) = data["break_reasons"]
    assert reason["code"] == "FX103" and reason["user_stack"][-1]["line"] == "if y.sum() > 0:"
    assert {"source": "L['k']", "kind": "CONSTANT_MATCH", "detail": "3"} in data["guards"]


def test_text_report(target):
    proc = run(f"{target}:Net", "float32[2,3]")
    assert proc.returncode == 0, proc.stderr
    assert "Graph Count: 2" in proc.stdout and "FX103" in proc.stdout


def test_onnx_export_and_strict(target, tmp_path):
    out = tmp_path / "clean.onnx"
    proc = run(f"{target}:clean", "float32[4,3]", "bool[4,3]", "--mode", "strict", "--json", "--onnx", str(out))
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["ok"] and data["graph_count"] == 1
    onnx = data["onnx"]
    assert onnx["ok"] and onnx["checker"] == "ok" and onnx["shape_inference"] == "ok"
    assert "Where" in onnx["op_types"] and onnx["non_standard_ops"] == []
    assert onnx["max_abs_diff_graph_vs_eager"] == 0.0
    assert onnx["onnxruntime"] == "ok" and onnx["max_abs_diff_onnx_vs_eager"] < 1e-6
    assert out.exists()


def test_strict_failure_exit_code(target):
    proc = run(f"{target}:Net", "float32[2,3]", "--mode", "strict", "--json")
    assert proc.returncode == 1
    data = json.loads(proc.stdout)
    assert not data["ok"] and data["failures"][0]["code"] == "FX103"


def test_onnx_refused_for_several_graphs(target, tmp_path):
    proc = run(f"{target}:Net", "float32[2,3]", "--json", "--onnx", str(tmp_path / "x.onnx"))
    assert proc.returncode == 1
    assert "exactly one graph" in json.loads(proc.stdout)["onnx"]["error"]


def test_input_factory_and_int_specs(target):
    proc = run(f"{target}:Net", "model:make_inputs", "--json", cwd=target.parent)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["graph_count"] == 2
    proc = run(f"{target}:counts", "int64[4]", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["graph_count"] == 1


@pytest.mark.parametrize("args, message", [
    (["{t}:Nope", "float32[2]"], "has no 'Nope'"),
    (["{t}:Net", "float32[2,"], "cannot read input spec"),
    (["{t}:Net", "floaty[2]"], "unknown dtype"),
    (["missing.py:f"], "no such file"),
    (["{t}"], "target must be"),
])
def test_usage_errors(target, args, message):
    proc = run(*[a.format(t=target) for a in args])
    assert proc.returncode == 2
    assert message in proc.stderr


def test_user_exception_exit_code(target):
    proc = run(f"{target}:fails", "float32[2]")
    assert proc.returncode == 3
    assert "ValueError: no good" in proc.stderr


def test_json_stdout_stays_json_when_the_target_prints(target):
    proc = run(f"{target}:chatty", "float32[2]", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["break_reasons"][0]["code"] == "FX501"
    assert "hello from the target" in proc.stderr


def test_target_inside_a_package_keeps_its_imports(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "util.py").write_text("def double(t):\n    return t * 2\n")
    (pkg / "model.py").write_text("from . import util\nfrom pkg.util import double\n\n"
                                  "def run(x):\n    return util.double(x) + double(x)\n")
    proc = run(f"{pkg / 'model.py'}:run", "float32[3]", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["graph_count"] == 1

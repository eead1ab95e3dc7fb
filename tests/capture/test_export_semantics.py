"""The `export` target's severities against the real compilers: each pattern
below is exported with torch.export (strict and non-strict); where the export
fails, `fxlint check --target export` has an error on the line it fails at, and
where it succeeds, fxlint gives no error for the file (warnings are allowed:
FX101 and FX301-FX303 are warnings there). The patterns fxlint only warns about
also export to ONNX and match eager in ONNX Runtime."""

import importlib.util
import json
import os
import pathlib
import subprocess
import sys
import traceback

import pytest
import torch

FXLINT = os.environ.get("FXLINT_BIN", "")
pytestmark = pytest.mark.skipif(not os.path.isfile(FXLINT), reason="FXLINT_BIN names no built fxlint")

HEADER = "import torch\nfrom torch import nn, Tensor\n\n\n"

# name -> (forward body of class M, helpers after it, whether it exports)
CASES = {
    "item_arithmetic": ("return x * x.sum().item()", "", True),
    "item_branch": ("v = x.sum().item()\n        if v > 0:\n            return x\n        return -x", "", False),
    "item_flag_ternary": ("g = (x > 0).any().item()\n        return x if g else -x", "", False),
    "mask_read": ("return x[x > 0]", "", True),
    "nonzero": ("return x.nonzero()", "", True),
    "where_one_argument": ("return torch.where(x > 0)[0]", "", True),
    "unique": ("return torch.unique(x)", "", True),
    "mask_assign": ("y = x.clone()\n        y[y > 0] = 0\n        return y", "", True),
    "mask_numel_branch": ("y = x[x > 0]\n        if y.numel() == 0:\n            return x\n        return y", "", False),
    "where_rows_branch": ("k = torch.where(x > 0)[0]\n        if len(k) > 3:\n            return x[k]\n        return x",
                          "", False),
    "shape_of_input_branch": ("if x.shape[0] > 3:\n            return x * 2\n        return x", "", True),
    "reduction_of_rows": ("y = x[x > 0]\n        if y.sum().dim() == 0:\n            return y.sum() * x\n        return x",
                          "", True),
    "tensor_branch": ("if x.sum() > 0:\n            return x\n        return -x", "", False),
    "item_loop": ("s = x\n        for _ in range(int(x.argmax())):\n            s = s + 1\n        return s", "", False),
    "helper_rows_branch": ("return helper(x, x[x > 0])",
                           "def helper(x: Tensor, boxes: Tensor):\n    if boxes.numel() > 4:\n"
                           "        return x\n    return boxes * 2\n", False),
    "flag_through_module": ("return self.layer(x, flag=(x > 0).any().item())",
                            "class Layer(nn.Module):\n    def forward(self, x, flag=None):\n        if flag:\n"
                            "            return x * 2\n        return x\n", False),
}


def module_source(body, helpers):
    init = "        self.layer = Layer()\n" if "class Layer" in helpers else ""
    return (HEADER + helpers + "\n\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n" + init +
            "\n    def forward(self, x):\n        " + body + "\n")


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    root = tmp_path_factory.mktemp("export_semantics")
    for name, (body, helpers, _) in CASES.items():
        (root / f"{name}.py").write_text(module_source(body, helpers))
    out = subprocess.run([FXLINT, "check", "--target", "export", "--output-format", "json", "--exit-zero", str(root)],
                         capture_output=True, text=True, check=True).stdout
    errors = {}
    for d in json.loads(out):
        if d["severity"] == "error":
            errors.setdefault(pathlib.Path(d["filename"]).stem, set()).add(d["location"]["row"])
    return root, errors


def load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.M().eval()


def failure_line(exc, path):
    """The last line of `path` on the failure's traceback, following causes."""
    line = None
    while exc is not None:
        for frame in traceback.extract_tb(exc.__traceback__):
            if frame.filename == str(path):
                line = frame.lineno
        exc = exc.__cause__ or exc.__context__
    return line


def export(model, x, strict):
    try:
        torch.export.export(model, (x,), strict=strict)
        return None
    except Exception as e:  # the compiler's own error types vary by mode
        return e


@pytest.mark.parametrize("name", sorted(CASES))
def test_export_fails_exactly_where_fxlint_reports_an_error(cases, name):
    root, errors = cases
    path = root / f"{name}.py"
    x = torch.randn(8)
    non_strict = export(load(path), x, strict=False)
    strict = export(load(path), x, strict=True)
    assert (non_strict is None) == CASES[name][2], f"non-strict export of {name}: {non_strict!r}"
    assert (strict is None) == CASES[name][2], f"strict export of {name}: {strict!r}"
    if non_strict is None:
        assert not errors.get(name), f"fxlint reports errors on lines {sorted(errors[name])} of {name}, which exports"
    else:
        line = failure_line(non_strict, path)
        assert line is not None, f"no frame of {path} in the failure: {non_strict!r}"
        assert line in errors.get(name, set()), (f"{name} fails at line {line}; fxlint errors on "
                                                 f"{sorted(errors.get(name, set()))}")


@pytest.mark.parametrize("name", ["item_arithmetic", "mask_read", "nonzero", "mask_assign"])
def test_warned_patterns_export_to_onnx_and_match_eager(cases, name, tmp_path):
    onnxruntime = pytest.importorskip("onnxruntime")
    root, _ = cases
    model = load(root / f"{name}.py")
    x = torch.randn(8)
    program = torch.onnx.export(model, (x,), dynamo=True, verbose=False)
    program.save(str(tmp_path / "m.onnx"))
    session = onnxruntime.InferenceSession(str(tmp_path / "m.onnx"))
    got = session.run(None, {session.get_inputs()[0].name: x.numpy()})[0]
    want = model(x).numpy()
    assert got.shape == want.shape and (abs(got - want) <= 1e-6).all()

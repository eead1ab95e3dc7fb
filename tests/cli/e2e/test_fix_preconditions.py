"""Fixes that `fix --apply` writes keep what the module does: it still imports
where it imported before, and the rewritten code computes what it computed. Each
case comes from real library code where a rewrite did not."""
import json
import subprocess
import sys


def safe_fixes(project, path, *args):
    result = project.run("check", "--output-format", "json", "--scope", "all", *args, path)
    return [(d["code"], d["fix"]["applicability"]) for d in json.loads(result.stdout) if d["fix"]]


def test_guard_adds_import_torch_when_a_star_import_does_not_bind_it(project):
    # timm's _efficientnet_builder: `from ._efficientnet_blocks import *`, whose __all__
    # leaves `torch` out; the module imports torch.nn itself, so `import torch` is safe to add.
    project.write("pkg/__init__.py", "")
    project.write("pkg/blocks.py", "import torch\n\n__all__ = [\"Block\"]\n\n\nclass Block(torch.nn.Module):\n    pass\n")
    project.write("pkg/builder.py", "import logging\n\nimport torch.nn as nn\n\nfrom .blocks import *\n\n"
                  "_logger = logging.getLogger(__name__)\n\n\ndef log_if(msg, cond):\n    if cond:\n"
                  "        _logger.info(msg)\n    return nn.Identity()\n")
    result = project.run("fix", "--apply", "--scope", "all", "--target", "dynamo", "pkg")
    assert result.returncode == 0, result.stdout + result.stderr
    text = (project.root / "pkg/builder.py").read_text()
    assert "import torch\n" in text and "if not torch.compiler.is_compiling():" in text, text
    run = subprocess.run([sys.executable, "-c", "import pkg.builder as b; b.log_if('x', True); print('ran')"],
                         cwd=project.root, capture_output=True, text=True)
    assert run.stdout.strip() == "ran", run.stderr


def test_no_import_torch_for_a_module_that_imports_without_torch(project):
    # transformers' pipelines: torch only under `if is_torch_available()`, and a name
    # re-exported from a module that imported it from torch conditionally.
    project.write("pkg/__init__.py", "")
    project.write("pkg/base.py", "try:\n    from torch.utils.data import Dataset\nexcept ImportError:\n"
                  "    Dataset = None\n")
    project.write("pkg/mod.py", "from .base import Dataset\n\n\ndef postprocess(rows, labels) -> \"Tensor\":\n"
                  "    print(labels)\n    return rows\n")
    before = (project.root / "pkg/mod.py").read_text()
    result = project.run("check", "--output-format", "json", "--scope", "all", "--target", "dynamo", "pkg")
    found = [(d["code"], d["fix"]) for d in json.loads(result.stdout)]
    assert found == [("FX501", None)], found  # reported, with no rewrite: it would need `import torch`
    project.run("fix", "--apply", "--scope", "all", "--target", "dynamo", "pkg")
    assert (project.root / "pkg/mod.py").read_text() == before


MASKS = """\
import torch


def inline(x: torch.Tensor):
    x[x > 0] = 0
    return x


def from_a_local(x: torch.Tensor):
    y = x.clone()
    m = y > 0
    y[m] = 0
    return y


def rebound_after_the_mask(x: torch.Tensor):
    m = x > 0
    x = x.unsqueeze(1).repeat(1, x.shape[0])
    x[m] = 0
    return x


def reshaped_in_place(x: torch.Tensor):
    m = x > 0
    x.unsqueeze_(1)
    x[m] = 0
    return x


def past_float16(x: torch.Tensor):
    x[x < 0] = -1e9
    return x
"""


def test_mask_assignment_rewrite_is_safe_only_with_the_mask_of_the_tensor_it_writes(project):
    project.write("masks.py", MASKS)
    fixes = safe_fixes(project, "masks.py", "--select", "FX302")
    # inline, from_a_local: safe; the stale masks: none; -1e9: only unsafe (float16 holds at most 65504).
    assert fixes == [("FX302", "safe"), ("FX302", "safe"), ("FX302", "unsafe")], fixes
    result = project.run("fix", "--apply", "--scope", "all", "--select", "FX302", "masks.py")
    text = (project.root / "masks.py").read_text()
    assert text.count("masked_fill_") == 2 and "x[m] = 0\n" in text and "x[x < 0] = -1e9" in text, text
    # What the rewritten functions compute is what the originals did, on the edges.
    check = (
        "import torch, importlib.util\n"
        "spec = importlib.util.spec_from_file_location('fixed', 'masks.py')\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "for x in (torch.tensor([1., -2., 3.]), torch.tensor([], dtype=torch.float16), torch.tensor([-1, 2]),\n"
        "          torch.tensor(True), torch.zeros(2, 3)):\n"
        "    for f in (m.inline, m.from_a_local):\n"
        "        a = x.clone(); want = a.clone(); want[want > 0] = 0\n"
        "        assert torch.equal(f(a), want) and a.dtype == want.dtype\n"
        "print('same')\n")
    run = subprocess.run([sys.executable, "-c", check], cwd=project.root, capture_output=True, text=True)
    assert run.stdout.strip() == "same", run.stderr + result.stdout


def test_a_floating_masked_sum_is_rewritten_only_as_an_unsafe_fix(project):
    # torch.where(m, x, 0).sum() adds in another order than x[m].sum(): float32 results
    # differ in their last bits. A logical reduction is exact.
    project.write("sums.py", "import torch\n\n\ndef pos_sum(x: torch.Tensor):\n    return x[x > 0].sum()\n\n\n"
                  "def any_pos(x: torch.Tensor):\n    return x[x > 0].any()\n")
    assert safe_fixes(project, "sums.py", "--select", "FX301") == [("FX301", "unsafe"), ("FX301", "safe")]


INTEGER_SUMS = """\
import torch


def count_pos(x: torch.Tensor):
    n = x.long()
    return n[n > 0].sum()


def flags(x: torch.Tensor):
    b = x > 0
    return b[b].sum()
"""


def test_an_integer_or_bool_masked_sum_keeps_a_safe_rewrite_that_computes_the_same(project):
    # Integer addition is exact in any order: the select-and-sum gives the same value and dtype.
    project.write("orig.py", INTEGER_SUMS)
    project.write("fixed.py", INTEGER_SUMS)
    assert safe_fixes(project, "fixed.py", "--select", "FX301") == [("FX301", "safe"), ("FX301", "safe")]
    project.run("fix", "--apply", "--scope", "all", "--select", "FX301", "fixed.py")
    assert (project.root / "fixed.py").read_text().count("torch.where(") == 2
    check = (
        "import torch, orig, fixed\n"
        "inputs = [torch.tensor([3., -1., 2.]), torch.tensor([], dtype=torch.float16), torch.tensor(5),\n"
        "          torch.tensor([[1, -2], [3, 4]], dtype=torch.int8), torch.tensor([True, False]),\n"
        "          torch.arange(6.).view(2, 3).t(), torch.full((4,), -1.0)]\n"
        "for x in inputs:\n"
        "    for name in ('count_pos', 'flags'):\n"
        "        a, b = getattr(orig, name)(x.clone()), getattr(fixed, name)(x.clone())\n"
        "        assert torch.equal(a, b) and a.dtype == b.dtype, (name, x, a, b)\n"
        "print('same')\n")
    run = subprocess.run([sys.executable, "-c", check], cwd=project.root, capture_output=True, text=True)
    assert run.stdout.strip() == "same", run.stderr


def test_no_where_rewrite_of_a_branch_on_a_numpy_array(project):
    # Under TorchDynamo an array made from a tensor is traced as one, so the branch on it
    # breaks the graph; in eager it is an array, which `torch.where` does not take.
    project.write("m.py", "import torch\nfrom torch import nn\n\n\nclass M(nn.Module):\n"
                  "    def forward(self, x):\n        a = x.detach().numpy()\n        if (a > 0).any():\n"
                  "            x = x + 1\n        return x\n\n\nclass N(nn.Module):\n"
                  "    def forward(self, x):\n        if (x > 0).any():\n            x = x + 1\n        return x\n")
    result = project.run("check", "--output-format", "json", "--target", "dynamo", "m.py")
    found = [(d["code"], d["location"]["row"], d["fix"] is not None) for d in json.loads(result.stdout)]
    assert found == [("FX103", 8, False), ("FX103", 15, True)], found

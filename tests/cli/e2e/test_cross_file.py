"""Module names let imports between the checked files resolve: a helper that a
forward calls through an import is a compile region."""
import pytest

HELPER = "import torch\n\n\ndef to_number(t: torch.Tensor):\n    return t.item()\n"
MODEL = """\
import torch

{import_line}


class Net(torch.nn.Module):
    def forward(self, x):
        return to_number(x)
"""


@pytest.mark.parametrize("import_line", ["from pkg.helpers import to_number", "from .helpers import to_number"])
def test_helper_called_from_forward_in_another_file(project, import_line):
    project.write("src/pkg/__init__.py", "")
    project.write("src/pkg/helpers.py", HELPER)
    project.write("src/pkg/model.py", MODEL.format(import_line=import_line))
    result = project.run("check", "--output-format", "concise")
    assert result.returncode == 1, result.stdout
    assert result.stdout.splitlines()[0].startswith("src/pkg/helpers.py:5:12: FX101")


def test_imports_through_namespace_packages_resolve(project):
    # `ldm/` and `ldm/modules/` have no __init__.py: run from the repository
    # root, Python imports `ldm.modules.pkg.helpers` all the same.
    project.write("ldm/modules/pkg/__init__.py", "")
    project.write("ldm/modules/pkg/helpers.py", HELPER)
    project.write("ldm/models/net.py", MODEL.format(import_line="from ldm.modules.pkg.helpers import to_number"))
    result = project.run("check", "--output-format", "concise")
    assert result.returncode == 1, result.stdout
    assert result.stdout.splitlines()[0].startswith("ldm/modules/pkg/helpers.py:5:12: FX101")


def test_helper_alone_is_not_a_compile_region(project):
    project.write("src/pkg/__init__.py", "")
    project.write("src/pkg/helpers.py", HELPER)
    assert project.run("check").returncode == 0


@pytest.mark.parametrize("sub_config", ['torch-version = "2.1"\n', 'scope = "all"\ntarget = "dynamo"\n'])
def test_a_sub_package_config_does_not_split_the_project(project, sub_config):
    # Settings that only decide what is reported in a file (torch version,
    # scope, target) stay per file: the helper is still compiled through the
    # model outside the sub-package, for check and fix alike.
    project.write("src/pkg/__init__.py", "")
    project.write("src/pkg/sub/__init__.py", "")
    project.write("src/pkg/sub/fxlint.toml", sub_config)
    project.write("src/pkg/sub/helpers.py", HELPER)
    project.write("src/pkg/model.py", MODEL.format(import_line="from pkg.sub.helpers import to_number"))
    check = project.run("check", "--output-format", "concise", "src")
    assert check.returncode == 1, check.stdout
    assert "src/pkg/sub/helpers.py:5:12: FX101" in check.stdout
    fix = project.run("fix", "src")
    assert "FX101" in fix.stdout + fix.stderr


OWN_NMS = """\
import torch


def nms(boxes, scores, threshold: float):
    return torch.ops.torchvision.nms(boxes, scores, threshold)


class Filter(torch.nn.Module):
    def forward(self, boxes, scores):
        keep = nms(boxes, scores, 0.5)
        return boxes[keep]
"""


@pytest.mark.parametrize("package, flagged", [("torchvision/ops/boxes.py", True), ("mylib/boxes.py", False)])
def test_a_library_calling_its_own_function_is_known_by_its_public_name(project, package, flagged):
    # Inside torchvision.ops.boxes, `nms(...)` is torchvision.ops.boxes.nms, whose
    # result's shape depends on the values; a project's own `nms` is not.
    top = package.split("/")[0]
    project.write(f"{top}/__init__.py", "")
    project.write(f"{top}/ops/__init__.py" if "ops" in package else f"{top}/__init__.py", "")
    project.write(package, OWN_NMS)
    result = project.run("check", "--output-format", "concise", "--select", "FX303", package)
    lines = [ln for ln in result.stdout.splitlines() if ": FX303" in ln]
    assert f"{package}:5:12: FX303" in result.stdout, result.stdout  # the op itself, either way
    assert any(ln.startswith(f"{package}:10:16: FX303 `torchvision.ops.boxes.nms`") for ln in lines) == flagged, lines


TORCH_UTILS = """\
try:
    from torch._dynamo import allow_in_graph as maybe_allow_in_graph
except ImportError:
    def maybe_allow_in_graph(fn):
        return fn
"""
DECORATED = """\
import torch

from .torch_utils import maybe_allow_in_graph


@maybe_allow_in_graph
def scaled(x: torch.Tensor) -> torch.Tensor:
    print("scaled")
    return x * 2


class Net(torch.nn.Module):
    def forward(self, x):
        return scaled(x) + 1
"""


def test_a_decorator_re_exported_from_torch_by_a_project_module(project):
    # TorchDynamo does not trace into an allow_in_graph function: its print is no break.
    project.write("src/pkg/__init__.py", "")
    project.write("src/pkg/torch_utils.py", TORCH_UTILS)
    project.write("src/pkg/model.py", DECORATED)
    assert project.run("check", "--target", "dynamo", "src").returncode == 0
    # Without the decorator the print breaks the graph.
    project.write("src/pkg/model.py", DECORATED.replace("@maybe_allow_in_graph\n", ""))
    result = project.run("check", "--target", "dynamo", "--output-format", "concise", "src")
    assert "src/pkg/model.py:7:5: FX501" in result.stdout, result.stdout


def test_a_compile_decorator_re_exported_by_a_project_module(project):
    # `@compiled` is torch.compile under another name: the function is a compile region.
    project.write("src/pkg/__init__.py", "")
    project.write("src/pkg/compat.py", "from torch import compile as compiled\n")
    project.write("src/pkg/step.py", "import torch\n\nfrom .compat import compiled\n\n\n@compiled\n"
                                     "def step(x: torch.Tensor):\n    return x * x.sum().item()\n")
    result = project.run("check", "--output-format", "concise", "src")
    assert "src/pkg/step.py:8:16: FX101" in result.stdout, result.stdout


def test_a_logger_imported_from_a_project_module_is_a_logger(project):
    # torchtitan's dist_gemm: `from pkg.log import logger`, then `logger.warning(...)` in forward.
    project.write("src/pkg/__init__.py", "")
    project.write("src/pkg/log.py", "import logging\n\nlogger = logging.getLogger(__name__)\n")
    project.write("src/pkg/layer.py", "import torch\nfrom pkg.log import logger\n\n\nclass Layer(torch.nn.Module):\n"
                  "    def forward(self, x):\n        logger.warning(\"unfused\")\n        return x * 2\n")
    result = project.run("check", "--target", "dynamo", "--output-format", "concise")
    assert result.returncode == 1, result.stdout
    assert result.stdout.splitlines()[0].startswith("src/pkg/layer.py:7:9: FX501 [*] logging")


@pytest.mark.parametrize("import_line", ["from models.common import *", "from models.common import nn, torch"])
def test_torch_imported_through_a_project_module(project, import_line):
    # yolov7's models/yolo.py: `nn` and `torch` come from models/common.py, which imports them.
    project.write("models/__init__.py", "")
    project.write("models/common.py", "import torch\nimport torch.nn as nn\n\n\ndef autopad(k):\n    return k // 2\n")
    project.write("models/yolo.py", import_line + "\n\n\nclass Model(nn.Module):\n    def __init__(self):\n"
                  "        super().__init__()\n        self.stride = torch.tensor([8.0, 16.0])\n\n"
                  "    def forward(self, x):\n        return x * int(self.stride.max())\n")
    result = project.run("check", "--target", "dynamo", "--output-format", "concise")
    assert result.returncode == 1, result.stdout
    assert result.stdout.splitlines()[0].startswith("models/yolo.py:10:20: FX102")


def test_classes_re_exported_through_nested_packages_resolve(project):
    # mmdet's `from ..layers import PatchEmbed`: layers/__init__ re-exports it from
    # .transformer, whose __init__ re-exports it from .utils. Its forward returns the
    # shape as ints, so the sizes the caller slices with are no tensors.
    project.write("pkg/__init__.py", "")
    project.write("pkg/models/__init__.py", "")
    project.write("pkg/layers/__init__.py", "from .transformer import PatchEmbed\n")
    project.write("pkg/layers/transformer/__init__.py", "from .utils import PatchEmbed\n")
    project.write("pkg/layers/transformer/utils.py", (
        "from typing import Tuple\n\nfrom torch import Tensor, nn\n\n\nclass PatchEmbed(nn.Module):\n"
        "    def forward(self, x: Tensor) -> Tuple[Tensor, Tuple[int]]:\n"
        "        return x.flatten(2), (x.shape[2], x.shape[3])\n"))
    project.write("pkg/models/swin.py", (
        "from torch import nn\n\nfrom ..layers import PatchEmbed\n\n\nclass Window(nn.Module):\n"
        "    def forward(self, x, hw_shape):\n        h, w = hw_shape\n        if h > 7:\n"
        "            x = x[:, :, : h * w]\n        return x\n\n\nclass Swin(nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n        self.patch_embed = PatchEmbed()\n"
        "        self.window = Window()\n\n    def forward(self, x):\n"
        "        y, hw_shape = self.patch_embed(x)\n        return self.window(y, hw_shape)\n"))
    result = project.run("check", "--target", "dynamo", "--output-format", "concise")
    assert result.returncode == 0, result.stdout


def test_files_a_checked_file_imports_are_read_but_not_reported(project):
    # `fxlint check models` knows what `util.ops.valid` returns, as `fxlint check .`
    # does; the problems in util/ are reported only when util/ is checked.
    project.write("models/__init__.py", "")
    project.write("util/__init__.py", "")
    project.write("util/ops.py", "def valid(scores):\n    print(scores.sum().item())\n    return scores > 0.5\n")
    project.write("models/net.py", """\
import torch

from util.ops import valid


class Net(torch.nn.Module):
    def forward(self, boxes, scores):
        return boxes[valid(scores)]
""")
    models = project.run("check", "--target", "dynamo", "--output-format", "concise", "models")
    assert models.returncode == 1, models.stdout
    lines = [line for line in models.stdout.splitlines() if ": FX" in line]
    assert [line.split(" ")[:2] for line in lines] == [["models/net.py:8:16:", "FX301"]]
    whole = project.run("check", "--target", "dynamo", "--output-format", "concise", ".")
    assert "models/net.py:8:16: FX301" in whole.stdout
    assert "util/ops.py:2:5: FX501" in whole.stdout


def test_calls_of_dynamo_disabled_functions_are_breaks_except_torchs_own(project):
    # torch's own disabled functions (checkpoint) Dynamo turns into graph operators.
    disabled = ("import torch\n\n\n@torch.compiler.disable\ndef checkpoint(fn, x):\n    return fn(x)\n\n\n"
                "class Inner(torch.nn.Module):\n    def forward(self, x):\n        return checkpoint(torch.relu, x)\n")
    project.write("torch/__init__.py", "")
    project.write("torch/utils/__init__.py", "")
    project.write("torch/utils/ckpt.py", disabled)
    project.write("vendor/__init__.py", "")
    project.write("vendor/ckpt.py", disabled)
    project.write("model.py", "import torch\nimport torch.utils.ckpt\nfrom vendor.ckpt import checkpoint\n\n\n"
                  "class M(torch.nn.Module):\n    def forward(self, x):\n"
                  "        y = torch.utils.ckpt.checkpoint(torch.relu, x)\n        return checkpoint(torch.relu, y)\n")
    result = project.run("check", "--target", "dynamo", "--select", "FX502", "--output-format", "concise")
    lines = [l for l in result.stdout.splitlines() if "FX502" in l]
    assert sorted(l.split(": FX502")[0] for l in lines) == ["model.py:9:16", "vendor/ckpt.py:11:16"], result.stdout


TYPING = """\
from typing import Optional

from torch import Tensor

OptTensor = Optional[Tensor]
"""
NORM = """\
import torch
from torch import Tensor

{import_line}


class GraphNorm(torch.nn.Module):
    def forward(self, x: Tensor, batch: OptTensor = None) -> Tensor:
        if batch is None:
            return x
        return x * (int(batch.max()) + 1)
"""


@pytest.mark.parametrize(
    "import_line",
    ["from pkg.typing import OptTensor", "from .typing import OptTensor", "from pkg import OptTensor"],
)
def test_a_type_alias_imported_from_a_project_module(project, import_line):
    # torch_geometric's `batch: OptTensor = None`: the alias names an optional tensor,
    # through a package that re-exports it too.
    project.write("src/pkg/__init__.py", "from .typing import OptTensor\n")
    project.write("src/pkg/typing.py", TYPING)
    project.write("src/pkg/norm.py", NORM.format(import_line=import_line))
    result = project.run("check", "--target", "dynamo", "--output-format", "concise", "src")
    assert result.returncode == 1, result.stdout
    assert result.stdout.splitlines()[0].startswith("src/pkg/norm.py:11:21: FX102"), result.stdout

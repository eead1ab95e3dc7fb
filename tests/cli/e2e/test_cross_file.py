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


def test_helper_alone_is_not_a_compile_region(project):
    project.write("src/pkg/__init__.py", "")
    project.write("src/pkg/helpers.py", HELPER)
    assert project.run("check").returncode == 0

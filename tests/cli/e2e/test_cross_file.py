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

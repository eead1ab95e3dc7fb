"""How `check` shows available fixes (FX104 has a safe one), and the config
settings that shape them."""
import json

ASSERT_MODEL = """\
import torch


class Checked(torch.nn.Module):
    def forward(self, x):
        assert torch.isfinite(x).all(), "finite"
        return x * 2
"""


def test_fixable_marker_help_and_summary(project):
    project.write("m.py", ASSERT_MODEL)
    result = project.run("check")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("m.py:6:9: FX104 [*] ")
    assert any(l.startswith("  = help: ") for l in lines)
    assert lines[-1] == "Found 1 error (1 fixable with `fxlint fix --apply`)."
    assert "= fix (" not in result.stdout


def test_show_fixes_prints_the_changed_lines(project):
    project.write("m.py", ASSERT_MODEL)
    lines = project.run("check", "--show-fixes").stdout.splitlines()
    start = lines.index("  = fix (safe):")
    assert lines[start + 1] == '    -         assert torch.isfinite(x).all(), "finite"'
    assert lines[start + 2] == "    +         if not torch.compiler.is_compiling():"
    assert lines[start + 3] == '    +             assert torch.isfinite(x).all(), "finite"'


def test_torch_version_from_config_reaches_the_fix(project):
    project.write("m.py", ASSERT_MODEL)
    project.write("pyproject.toml", '[tool.fxlint]\ntorch-version = "2.1"\n')
    fix = json.loads(project.run("check", "--output-format", "json").stdout)[0]["fix"]
    assert fix["applicability"] == "safe"
    assert "torch._dynamo.is_compiling()" in fix["edits"][0]["content"]

"""How `check` shows available fixes (FX104 has a safe one), and the config
settings that shape them."""
import json
import os

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
    # The default target, fx2onnx, is torch.fx.symbolic_trace; on the installed torch (>= 2.9)
    # the guard it answers without a warning is is_fx_symbolic_tracing.
    assert lines[start + 2] == "    +         if not torch.fx._symbolic_trace.is_fx_symbolic_tracing():"
    assert lines[start + 3] == '    +             assert torch.isfinite(x).all(), "finite"'


def test_torch_version_from_config_reaches_the_fix(project):
    project.write("m.py", ASSERT_MODEL)
    project.write("pyproject.toml", '[tool.fxlint]\ntarget = "export"\ntorch-version = "2.1"\n')
    result = project.run("check", "--output-format", "json", "--select", "FX104")
    fix = json.loads(result.stdout)[0]["fix"]
    assert fix["applicability"] == "safe"
    assert "torch._dynamo.is_compiling()" in fix["edits"][0]["content"]
    # The pin is not the installed torch's version: said once, on stderr.
    import torch
    assert result.stderr.count('pins torch-version = "2.1", but the environment has torch '
                               + torch.__version__) == 1, result.stderr


def test_the_installed_torch_decides_the_fix_when_nothing_is_pinned(project):
    project.write("m.py", ASSERT_MODEL)
    project.write("pyproject.toml", '[tool.fxlint]\ntarget = "export"\n')
    result = project.run("check", "--output-format", "json", "--select", "FX104")
    fix = json.loads(result.stdout)[0]["fix"]
    assert "torch.compiler.is_compiling()" in fix["edits"][0]["content"]  # torch >= 2.3 is installed
    assert "warning" not in result.stderr
    shown = project.run("check", "--show-settings", "m.py").stdout
    import torch
    assert f"the environment's torch {torch.__version__}" in shown


def test_no_torch_found_gives_the_guard_every_torch_2_has(project):
    project.write("m.py", ASSERT_MODEL)
    project.write("pyproject.toml", '[tool.fxlint]\ntarget = "export"\n')
    empty = project.root / "no-torch"
    (empty / "bin").mkdir(parents=True)
    python = empty / "bin" / "python3"
    python.write_text("#!/bin/sh\nexit 1\n")
    python.chmod(0o755)
    result = project.run("check", "--output-format", "json", "--select", "FX104",
                         env={"VIRTUAL_ENV": str(empty)})
    fix = json.loads(result.stdout)[0]["fix"]
    assert "torch._dynamo.is_compiling()" in fix["edits"][0]["content"]


def test_check_marks_fixable_only_what_fix_applies(project):
    """[*] is a promise: `fix --apply` changes exactly the files where `check` marks one."""
    import pathlib
    import shutil

    fixtures = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "rules"
    for source in sorted(fixtures.glob("FX*.py")):
        if not source.name.endswith(".fixed.py"):
            shutil.copy(source, project.root / source.name)
    # A fixable finding in a file that also has a syntax error: `fix` never edits such a file.
    project.write("broken.py", ASSERT_MODEL + "\n\ndef broken(:\n    pass\n")
    checked = json.loads(project.run("check", "--output-format", "json").stdout)
    promised = {os.path.basename(d["filename"]) for d in checked
                if d["fix"] and d["fix"]["applicability"] == "safe"}
    assert "broken.py" not in promised
    assert len(promised) >= 3
    before = {p.name: p.read_text() for p in project.root.glob("*.py")}
    fixed = project.run("fix", "--apply")
    assert fixed.returncode in (0, 1), fixed.stderr
    changed = {name for name, text in before.items() if (project.root / name).read_text() != text}
    assert changed == promised

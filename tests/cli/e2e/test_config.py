"""Config files: discovery, keys, and errors for broken ones (exit status 2)."""
from conftest import MODEL, SYNTAX_ERROR

ASSERT_MODEL = """\
import torch


class Net(torch.nn.Module):
    def forward(self, x):
        assert x.sum() > 0
        return x * 2
"""


def codes(result):
    return [line.split(": ")[1].split()[0] for line in result.stdout.splitlines() if ": FX" in line]


def test_pyproject_tool_fxlint_select_and_ignore(project):
    project.write("pyproject.toml", '[project]\nname = "x"\n\n[tool.fxlint]\nignore = ["FX101"]\n')
    project.write("model.py", MODEL)
    result = project.run("check")
    assert result.returncode == 0, result.stdout
    # The command line adds to the config's selection.
    assert project.run("check", "--extend-select", "FX101").returncode == 1


def test_nearest_config_wins(project):
    project.write("fxlint.toml", 'ignore = ["FX101"]\n')
    project.write("strict/fxlint.toml", 'select = ["ALL"]\n')
    project.write("model.py", MODEL)
    project.write("strict/model.py", MODEL)
    result = project.run("check", "--output-format", "concise")
    assert result.returncode == 1
    assert [l.split(":")[0] for l in result.stdout.splitlines()[:-1]] == ["strict/model.py"]


def test_dot_fxlint_toml_and_explicit_config(project):
    project.write(".fxlint.toml", 'ignore = ["FX1"]\n')
    project.write("other.toml", 'select = ["FX101"]\n')
    project.write("model.py", MODEL)
    assert project.run("check").returncode == 0
    assert project.run("check", "--config", "other.toml").returncode == 1


def test_per_file_ignores(project):
    project.write("fxlint.toml", '[per-file-ignores]\n"tests/*" = ["FX101"]\n"legacy_*.py" = ["tensor-item"]\n')
    project.write("tests/deep/test_model.py", MODEL)
    project.write("legacy_model.py", MODEL)
    project.write("model.py", MODEL)
    result = project.run("check", "--output-format", "concise")
    assert [l.split(":")[0] for l in result.stdout.splitlines()[:-1]] == ["model.py"]


def test_target_changes_which_rules_are_on(project):
    project.write("model.py", ASSERT_MODEL)
    fx2onnx = project.run("check", "--select", "FX104", "--output-format", "json")
    assert '"severity": "error"' in fx2onnx.stdout
    dynamo = project.run("check", "--target", "dynamo", "--select", "FX1")
    assert dynamo.returncode == 0, dynamo.stdout
    project.write("fxlint.toml", 'target = "export"\n')
    export = project.run("check", "--select", "FX104", "--output-format", "json")
    assert export.returncode == 1
    assert '"severity": "error"' in export.stdout
    # The command line overrides the config's target.
    assert project.run("check", "--target", "dynamo").returncode == 0


def test_exclude_and_extend_exclude(project):
    project.write("fxlint.toml", 'extend-exclude = ["generated", "*_pb2.py"]\n')
    project.write("generated/x.py", SYNTAX_ERROR)
    project.write("api_pb2.py", SYNTAX_ERROR)
    project.write("build/y.py", SYNTAX_ERROR)
    project.write("ok.py", "x = 1\n")
    assert project.run("check").returncode == 0
    # Named on the command line, an excluded file is linted, unless --force-exclude.
    assert project.run("check", "api_pb2.py").returncode == 1
    assert project.run("check", "--force-exclude", "api_pb2.py").returncode == 0
    project.write("fxlint.toml", 'exclude = ["generated"]\n')
    # `exclude` replaces the defaults, so build/ is linted now.
    result = project.run("check", "--output-format", "concise")
    assert "build/y.py" in result.stdout
    assert "generated" not in result.stdout


def test_broken_config_names_file_key_and_allowed_values(project):
    project.write("pyproject.toml", '[tool.fxlint]\ntarget = "tensorrt"\n')
    project.write("model.py", MODEL)
    result = project.run("check")
    assert result.returncode == 2
    assert result.stdout == ""
    err = result.stderr
    assert "pyproject.toml:2:" in err
    assert "tool.fxlint.target" in err
    assert '"fx2onnx", "dynamo", "export"' in err


def test_unknown_key_and_bad_code_and_bad_toml(project):
    project.write("model.py", MODEL)
    project.write("fxlint.toml", 'selekt = ["FX1"]\n')
    result = project.run("check")
    assert result.returncode == 2
    assert "`selekt`: unknown key" in result.stderr and '"select"' in result.stderr
    project.write("fxlint.toml", 'select = ["FX777"]\n')
    result = project.run("check")
    assert result.returncode == 2
    assert 'unknown rule selector "FX777"' in result.stderr
    project.write("fxlint.toml", 'select = ["FX1"\n')
    result = project.run("check")
    assert result.returncode == 2
    assert "fxlint.toml:" in result.stderr and "invalid TOML" in result.stderr


def test_verify_table_is_validated(project):
    project.write("model.py", MODEL)
    project.write(
        "fxlint.toml",
        '[[verify.targets]]\ntarget = "model.py:Net.forward"\ninputs = ["float32[2,3]", "int:3"]\n',
    )
    assert project.run("check").returncode == 1
    project.write("fxlint.toml", '[[verify.targets]]\ntarget = "model.py:Net.forward"\ninputs = ["f32[2]"]\n')
    result = project.run("check")
    assert result.returncode == 2
    assert "verify.targets[0].inputs" in result.stderr


HELPER = "import torch\n\n\ndef f(x: torch.Tensor):\n    return x.item()\n"


def test_entry_points_make_a_function_a_compile_region(project):
    project.write("pkg/__init__.py", "")
    project.write("pkg/m.py", HELPER)
    assert project.run("check").returncode == 0
    project.write(
        "fxlint.toml",
        'entry-points = ["pkg.m:f"]\ncompile-functions = ["v.C.compile"]\n'
        'compile-decorators = ["v.jit"]\ntorch-version = "2.1"\n',
    )
    result = project.run("check", "--output-format", "concise")
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.startswith("pkg/m.py:5:12: FX101")


def test_entry_points_that_name_nothing_are_warned_about(project):
    project.write("pkg/__init__.py", "")
    project.write("pkg/m.py", HELPER)
    project.write("fxlint.toml", 'entry-points = ["pkg.m:f", "pkg.m:g", "nope.mod:f"]\n')
    result = project.run("check", "--output-format", "concise")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "warning: entry point `pkg.m:g` names no function or class of its module" in result.stderr
    assert "warning: entry point `nope.mod:f` names a module that is not among the checked files" in result.stderr
    assert "pkg.m:f`" not in result.stderr
    # Checking some files (as pre-commit does): other modules are expected to be missing.
    result = project.run("check", "--output-format", "concise", "pkg/m.py")
    assert "nope.mod" not in result.stderr and "`pkg.m:g` names no function" in result.stderr


def test_scope_all_from_config_or_command_line(project):
    project.write("m.py", HELPER)
    assert project.run("check").returncode == 0
    assert project.run("check", "--scope", "all").returncode == 1
    project.write("fxlint.toml", 'scope = "all"\n')
    assert project.run("check").returncode == 1
    assert project.run("check", "--scope", "reachable").returncode == 0


PARAMETERS = """import torch
from torch import nn


class M(nn.Module):
    def __init__(self, n=4):
        super().__init__()
        self.v = nn.Parameter(torch.randn(1, n))
        self.w = torch.zeros(3, requires_grad=True)
        self.v.requires_grad = False

    def forward(self, x):
        return x + self.v

    def reset(self):
        self.v = nn.Parameter(torch.zeros(1, 4))
"""


def test_scope_all_leaves_parameters_built_in_constructors(project):
    # `--scope all` checks every function as compiled code, but a module's
    # constructor is where parameters are made: only `reset` is reported.
    project.write("m.py", PARAMETERS)
    result = project.run("check", "--scope", "all", "--target", "dynamo", "--output-format", "concise")
    assert result.returncode == 1
    assert [l.split(" ")[:2] for l in result.stdout.splitlines() if l.startswith("m.py")] == [["m.py:16:18:", "FX504"]]


def test_show_settings_and_show_files(project):
    project.write("pyproject.toml", '[tool.fxlint]\ntarget = "dynamo"\nextend-exclude = ["skip"]\n'
                  '[tool.fxlint.per-file-ignores]\n"tests/*" = ["FX1"]\n')
    project.write("pkg/__init__.py", "")
    project.write("pkg/model.py", MODEL)
    project.write("skip/x.py", MODEL)
    files = project.run("check", "--show-files")
    assert files.returncode == 0
    assert files.stdout.splitlines() == ["pkg/__init__.py", "pkg/model.py"]
    settings = project.run("check", "--show-settings", "--ignore", "FX501", "pkg/model.py")
    assert settings.returncode == 0
    lines = settings.stdout.splitlines()
    assert lines[0] == "Resolved settings for: pkg/model.py"
    assert lines[1] == f"Config file: {project.root / 'pyproject.toml'}"
    assert lines[2] == 'Module name: "pkg.model"'
    assert 'target = "dynamo"' in lines
    rules = next(l for l in lines if l.startswith("rules = "))
    assert '"FX101"' in rules and '"FX104"' not in rules and '"FX501"' not in rules
    assert 'extend-exclude = ["skip"]' in lines
    assert 'per-file-ignores = {"tests/*" = ["FX1"]}' in lines

"""`fxlint check`: what is found, where it is reported, and the exit status."""
import json

from conftest import MODEL, SYNTAX_ERROR, TRAINING


def test_clean_project_passes_with_status_0(project):
    project.write("train.py", TRAINING)
    result = project.run("check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == "All checks passed!\n"


def test_item_in_forward_is_reported_with_status_1(project):
    project.write("pkg/model.py", MODEL)
    project.write("train.py", TRAINING)
    result = project.run("check")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("pkg/model.py:6:16: FX101 ")
    assert "6 |         return x.item()" in lines
    assert "  |                ^^^^^^^^ FX101 error" in lines
    assert "train.py" not in result.stdout
    assert lines[-1] == "Found 1 error."


def test_syntax_error_is_fx900_and_other_files_still_run(project):
    project.write("bad.py", SYNTAX_ERROR)
    project.write("model.py", MODEL)
    result = project.run("check", "--output-format", "concise")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("bad.py:1:12: FX900 ")
    assert lines[1].startswith("model.py:6:16: FX101 ")
    assert lines[2] == "Found 2 errors."


def test_exit_zero(project):
    project.write("bad.py", SYNTAX_ERROR)
    result = project.run("check", "--exit-zero")
    assert result.returncode == 0
    assert "FX900" in result.stdout


def test_paths_are_relative_to_cwd_and_sorted(project):
    project.write("b/z.py", SYNTAX_ERROR)
    project.write("a/y.py", SYNTAX_ERROR)
    result = project.run("check", "--output-format", "concise", "b", "a")
    assert [l.split(":")[0] for l in result.stdout.splitlines()[:2]] == ["a/y.py", "b/z.py"]
    inside = project.run("check", "--output-format", "concise", ".", cwd=project.root / "a")
    assert inside.stdout.startswith("y.py:1:")


def test_same_output_with_one_or_many_jobs(project):
    for i in range(30):
        project.write(f"m{i:02}.py", MODEL if i % 3 else SYNTAX_ERROR)
    one = project.run("check", "--jobs", "1", "--output-format", "json")
    many = project.run("check", "-j", "4", "--output-format", "json")
    assert one.returncode == many.returncode == 1
    assert one.stdout == many.stdout
    assert len(json.loads(one.stdout)) == 30


def test_stdin_with_filename(project):
    project.write("fxlint.toml", '[per-file-ignores]\n"ignored/*" = ["FX101"]\n')
    result = project.run("check", "--stdin-filename", "pkg/model.py", "--output-format", "concise", stdin=MODEL)
    assert result.returncode == 1
    assert result.stdout.startswith("pkg/model.py:6:16: FX101 ")
    ignored = project.run("check", "--stdin-filename", "ignored/model.py", stdin=MODEL)
    assert ignored.returncode == 0, ignored.stdout
    dash = project.run("check", "-", stdin=SYNTAX_ERROR, prefix=())
    assert dash.returncode == 1
    assert "FX900" in dash.stdout


def test_no_python_files_warns_and_passes(project):
    project.write("README.md", "nothing here\n")
    result = project.run("check")
    assert result.returncode == 0
    assert "no Python files found" in result.stderr


def test_files_without_compiled_code_warn_that_nothing_was_checked(project):
    helper = "import logging\n\nlog = logging.getLogger(__name__)\n\n\ndef helper(x):\n    log.warning('hi')\n    return x.item()\n"
    project.write("helpers.py", helper)
    result = project.run("check", "helpers.py")
    assert result.returncode == 0
    assert result.stdout == "All checks passed!\n"
    assert "no compiled code in the checked files" in result.stderr
    assert "--scope all" in result.stderr
    everything = project.run("check", "--scope", "all", "--output-format", "concise", "helpers.py")
    assert everything.returncode == 1
    assert "helpers.py:7:5: FX501" in everything.stdout
    assert "no compiled code" not in everything.stderr
    # With the model that calls it, the helper is compiled code: no warning.
    project.write("model.py", "import torch.nn as nn\nfrom helpers import helper\n\n\nclass M(nn.Module):\n"
                  "    def forward(self, x):\n        return helper(x)\n")
    both = project.run("check", "--output-format", "concise", "helpers.py", "model.py")
    assert "helpers.py:7:5: FX501" in both.stdout
    assert "no compiled code" not in both.stderr
    quiet = project.run("check", "--quiet", "helpers.py")
    assert quiet.stderr == ""


def test_statistics(project):
    project.write("a.py", MODEL)
    project.write("b.py", MODEL)
    project.write("c.py", SYNTAX_ERROR)
    result = project.run("check", "--statistics")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].split("\t") == ["2", "FX101", "error", "tensor-item"]
    assert lines[1].split("\t") == ["1", "FX900", "error", "syntax-error"]
    assert lines[-1] == "Found 3 errors."
    stats = json.loads(project.run("check", "--statistics", "--output-format", "json").stdout)
    assert {k: stats[0][k] for k in ("code", "name", "count", "severity")} == {
        "code": "FX101", "name": "tensor-item", "count": 2, "severity": "error"}


def test_quiet_and_silent(project):
    project.write("model.py", MODEL)
    quiet = project.run("check", "--quiet", "--output-format", "concise")
    assert quiet.returncode == 1
    assert quiet.stdout.splitlines() == [quiet.stdout.splitlines()[0]]
    assert quiet.stdout.startswith("model.py:6:16: FX101")
    silent = project.run("check", "-s")
    assert silent.returncode == 1
    assert silent.stdout == "" and silent.stderr == ""
    project.write("model.py", "x = 1\n")
    assert project.run("check", "-q").stdout == ""


def test_pep484_type_comments_say_which_parameters_are_tensors(project):
    project.write("m.py", (
        "import torch\n"
        "from torch import Tensor\n\n\n"
        "@torch.compile\n"
        "def scale(x, n):\n"
        "    # type: (Tensor, int) -> Tensor\n"
        "    return x * x.item() * n\n\n\n"
        "@torch.compile\n"
        "def counted(x, n):\n"
        "    # type: (int, int) -> int\n"
        "    return x * x.item() * n\n"))
    result = project.run("check", "--output-format", "concise")
    lines = [l for l in result.stdout.splitlines() if ": FX" in l]
    assert lines == ["m.py:8:16: FX101 `.item()` reads a tensor's value into Python; "
                     "the trace breaks here or freezes the value"], result.stdout


def test_compile_regions_follow_the_targets_tracer(project):
    # fx.wrap: a leaf for torch.fx, traced by Dynamo; compiler.disable: hidden from
    # both; jit.unused: TorchScript only, traced by both.
    project.write("m.py", (
        "import torch\n\n\n"
        "@torch.fx.wrap\n"
        "def wrapped(x: torch.Tensor):\n"
        "    return x.max().item()\n\n\n"
        "@torch.compiler.disable\n"
        "def disabled(x: torch.Tensor):\n"
        "    return x.min().item()\n\n\n"
        "@torch.jit.unused\n"
        "def unused(x: torch.Tensor):\n"
        "    return x.sum().item()\n\n\n"
        "class Net(torch.nn.Module):\n"
        "    def forward(self, x):\n"
        "        return x * wrapped(x) * disabled(x) * unused(x)\n"))
    rows = {}
    for target in ("fx2onnx", "dynamo", "export"):
        result = project.run("check", "--target", target, "--select", "FX101", "--output-format", "json")
        rows[target] = sorted(d["location"]["row"] for d in json.loads(result.stdout))
    assert rows == {"fx2onnx": [16], "dynamo": [6, 16], "export": [6, 16]}


def test_size_keyword_computed_from_tensor_values(project):
    project.write("m.py", (
        "import torch\n\n\n"
        "@torch.compile\n"
        "def f(x: torch.Tensor):\n"
        "    n = x.sum().int()\n"
        "    a = torch.randint(0, 5, size=(n,))\n"
        "    b = torch.normal(0.0, 1.0, size=(n,))\n"
        "    c = torch.randint(0, 5, size=x.shape)\n"
        "    return a, b, c\n"))
    result = project.run("check", "--select", "FX304", "--output-format", "json")
    assert sorted(d["location"]["row"] for d in json.loads(result.stdout)) == [7, 8]


def test_comparison_operators_come_from_tokens_not_from_text(project):
    # A string operand that reads "in" or "is" does not make the comparison an identity test.
    project.write("m.py", (
        "import torch\n\n\n"
        "class M(torch.nn.Module):\n"
        "    def forward(self, x, limits: dict, mask=None):\n"
        "        if x.max() > limits[\"value in range\"]:\n"
        "            x = x + 1\n"
        "        if mask is not None:\n"
        "            if mask.sum() > 0:\n"
        "                x = x - 1\n"
        "        if \"k\" not in limits:\n"
        "            x = x * 2\n"
        "        return x\n"))
    result = project.run("check", "--select", "FX103", "--output-format", "json")
    assert sorted(d["location"]["row"] for d in json.loads(result.stdout)) == [6, 9]


def test_python_state_messages_say_what_the_target_does(project):
    # The tracers freeze a global read and run a write once; TorchDynamo guards
    # on the read and replays the write.
    project.write("m.py", (
        "import torch\n\n"
        "SCALE = 1.0\n"
        "CALLS = 0\n\n\n"
        "def set_scale(s):\n"
        "    global SCALE\n"
        "    SCALE = s\n\n\n"
        "class Net(torch.nn.Module):\n"
        "    def forward(self, x):\n"
        "        global CALLS\n"
        "        CALLS += 1\n"
        "        if SCALE > 1:\n"
        "            x = x * 2\n"
        "        return x * SCALE\n"))
    messages = {}
    for target in ("fx2onnx", "dynamo", "export"):
        result = project.run("check", "--target", target, "--select", "FX2", "--output-format", "json")
        messages[target] = {d["code"]: d["message"] for d in json.loads(result.stdout)}
    assert messages["fx2onnx"] == {
        "FX201": "reads mutable global `SCALE`; the trace freezes its current value",
        "FX202": "branch depends on mutable global `SCALE`; the branch taken at trace time is frozen",
        "FX203": "updates global `CALLS`; the trace runs it once and never again",
    }
    assert messages["dynamo"] == {
        "FX201": "reads mutable global `SCALE`; TorchDynamo guards on it and recompiles when it changes",
        "FX202": "branch depends on mutable global `SCALE`; TorchDynamo guards on it and recompiles when it changes",
        "FX203": "updates global `CALLS`; TorchDynamo replays it after the graph and recompiles when the value changes",
    }
    assert messages["export"]["FX203"] == (
        "updates global `CALLS`; torch.export runs it once while tracing, and the exported program never does")


def test_forward_of_a_class_deriving_from_a_library_module_is_compiled(project):
    # LightningModule and PreTrainedModel derive from nn.Module in sources fxlint
    # does not lint; a plain class with a forward does not.
    project.write("m.py", (
        "import pytorch_lightning as pl\n"
        "from transformers import PreTrainedModel\n\n\n"
        "class Net(pl.LightningModule):\n"
        "    def forward(self, x):\n"
        "        return x * x.sum().item()\n\n"
        "    def training_step(self, batch, idx):\n"
        "        return self(batch).sum().item()\n\n\n"
        "class HF(PreTrainedModel):\n"
        "    def forward(self, x):\n"
        "        return x * x.max().item()\n\n\n"
        "class Plain:\n"
        "    def forward(self, x):\n"
        "        return x * x.min().item()\n"))
    result = project.run("check", "--target", "dynamo", "--output-format", "json")
    assert sorted(d["location"]["row"] for d in json.loads(result.stdout)) == [7, 15]

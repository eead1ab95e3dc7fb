"""The `fxlint` and `fxlint-fix` pre-commit hooks, run by the real `pre-commit`
in a temporary git repository. The hooks repository is a committed snapshot of
this project; pre-commit installs fxlint from it (`language: python`) with no
`fxlint` on PATH beforehand. The hook environment is built once per session."""
import os
import shutil
import subprocess

import pytest

from conftest import GIT_ENV, PYTHON, git, path_without_fxlint

MODEL = """\
import torch


class Net(torch.nn.Module):
    def forward(self, x):
        return x.item()
"""

ASSERT_MODEL = """\
import torch


class Checked(torch.nn.Module):
    def forward(self, x):
        assert torch.isfinite(x).all(), "finite"
        return x * 2
"""


@pytest.fixture(scope="session")
def pre_commit_home(tmp_path_factory):
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture
def repo(snapshot, pre_commit_home, tmp_path, request):
    """A git repository with the hooks installed, and an environment to commit in."""
    hook_ids = getattr(request, "param", ["fxlint"])
    hooks, rev = snapshot
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "FXLINT_PYTHON", "PYTHONPATH")}
    env.update(GIT_ENV)
    env.update({"PATH": path_without_fxlint(), "PRE_COMMIT_HOME": str(pre_commit_home), "HOME": str(tmp_path)})
    assert shutil.which("fxlint", path=env["PATH"]) is None
    root = tmp_path / "work"
    root.mkdir()
    git(root, "init", "-q", env=env)
    hook_list = "".join(f"  - id: {h}\n" for h in hook_ids)
    (root / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {hooks.as_uri()}\n  rev: {rev}\n  hooks:\n{hook_list}")
    git(root, "add", ".pre-commit-config.yaml", env=env)
    installed = subprocess.run([PYTHON, "-m", "pre_commit", "install", "--install-hooks"], cwd=root, env=env,
                               capture_output=True, text=True)
    assert installed.returncode == 0, installed.stdout[-4000:] + installed.stderr[-4000:]
    return root, env


def commit(root, env, *files, message="change"):
    git(root, "add", *files, env=env)
    return subprocess.run(["git", "commit", "-m", message], cwd=root, env=env, capture_output=True, text=True)


def write(root, relative, text):
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_commit_with_zero_python_files_passes(repo):
    root, env = repo
    write(root, "README.md", "docs only\n")
    result = commit(root, env, "README.md")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "fxlint" in result.stdout + result.stderr  # the hook was considered (and skipped)


def test_clean_python_commit_passes_and_bad_one_is_blocked(repo):
    root, env = repo
    write(root, "train.py", "def train(x):\n    print(x.item())\n")
    ok = commit(root, env, "train.py")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    write(root, "model.py", MODEL)
    blocked = commit(root, env, "model.py")
    assert blocked.returncode != 0
    assert "model.py:6:16: FX101" in blocked.stdout + blocked.stderr


def test_hook_respects_config_exclude(repo):
    root, env = repo
    write(root, "fxlint.toml", 'extend-exclude = ["vendored"]\n')
    write(root, "vendored/model.py", MODEL)
    result = commit(root, env, "fxlint.toml", "vendored/model.py")
    assert result.returncode == 0, result.stdout + result.stderr


def test_local_repo_config_runs_an_installed_fxlint(repo, tmp_path):
    root, env = repo
    binary = os.environ.get("FXLINT_BIN")
    if not binary:
        pytest.skip("FXLINT_BIN names no built fxlint")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(binary, bin_dir / "fxlint")
    env = {**env, "PATH": f"{bin_dir}{os.pathsep}{env['PATH']}"}
    write(root, ".pre-commit-config.yaml",
          "repos:\n- repo: local\n  hooks:\n  - id: fxlint\n    name: fxlint\n"
          "    entry: fxlint check --force-exclude\n    language: system\n"
          "    types_or: [python, pyi]\n    require_serial: true\n")
    write(root, "model.py", MODEL)
    result = commit(root, env, ".pre-commit-config.yaml", "model.py")
    assert result.returncode != 0
    assert "FX101" in result.stdout + result.stderr


@pytest.mark.parametrize("repo", [["fxlint-fix", "fxlint"]], indirect=True)
def test_fix_hook_rewrites_the_staged_file_then_check_passes(repo):
    root, env = repo
    model = write(root, "model.py", ASSERT_MODEL)
    first = commit(root, env, "model.py")
    assert first.returncode != 0  # pre-commit fails a hook that modified files
    assert "files were modified by this hook" in first.stdout + first.stderr
    # The hook's environment has no torch: the fx2onnx guard every torch version has.
    assert "if not torch.fx._symbolic_trace.is_fx_tracing():" in model.read_text()
    second = commit(root, env, "model.py")
    assert second.returncode == 0, second.stdout + second.stderr


@pytest.mark.parametrize("repo", [["fxlint-fix", "fxlint"]], indirect=True)
def test_fix_hook_follows_a_pinned_torch_version(repo):
    root, env = repo
    write(root, "fxlint.toml", 'target = "export"\ntorch-version = "2.3"\n')
    model = write(root, "model.py", ASSERT_MODEL)
    first = commit(root, env, "fxlint.toml", "model.py")
    assert first.returncode != 0
    assert "if not torch.compiler.is_compiling():" in model.read_text()


@pytest.mark.parametrize("repo", [["fxlint-fix", "fxlint"]], indirect=True)
def test_fix_hook_with_zero_python_files(repo):
    root, env = repo
    write(root, "notes.txt", "no python\n")
    result = commit(root, env, "notes.txt")
    assert result.returncode == 0, result.stdout + result.stderr

"""The `fxlint` pre-commit hook, run by the real `pre-commit` in a temporary git
repository, offline: the hooks repository is a local clone holding this
project's .pre-commit-hooks.yaml, and `fxlint` is found on PATH."""
import os
import shutil
import subprocess

import pytest

from conftest import MODEL, REPO

PRE_COMMIT = shutil.which("pre-commit")
pytestmark = pytest.mark.skipif(PRE_COMMIT is None, reason="pre-commit is not installed (Debian package pre-commit)")


def git(cwd, *args, env=None):
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True)


@pytest.fixture(params=[["fxlint"]])
def hook_ids(request):
    """The hooks of this project that the test repository enables."""
    return request.param


@pytest.fixture
def repo(project, tmp_path, hook_ids):
    """A git repository with the hooks installed, and an environment to commit in."""
    env = dict(os.environ)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(project.binary, bin_dir / "fxlint")
    env.update({
        "PATH": f"{bin_dir}{os.pathsep}{env['PATH']}",
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
        "HOME": str(tmp_path),
        "GIT_CONFIG_NOSYSTEM": "1",
    })
    # The hooks repository: this project's hook definitions, committed.
    hooks = tmp_path / "hooks-repo"
    hooks.mkdir()
    shutil.copy(REPO / ".pre-commit-hooks.yaml", hooks / ".pre-commit-hooks.yaml")
    git(hooks, "init", "-q", env=env)
    git(hooks, "add", ".", env=env)
    git(hooks, "commit", "-q", "-m", "hooks", env=env)
    rev = git(hooks, "rev-parse", "HEAD", env=env).stdout.strip()

    root = project.root
    git(root, "init", "-q", env=env)
    hook_list = "".join(f"  - id: {h}\n" for h in hook_ids)
    project.write(".pre-commit-config.yaml", f"repos:\n- repo: {hooks.as_uri()}\n  rev: {rev}\n  hooks:\n{hook_list}")
    git(root, "add", ".pre-commit-config.yaml", env=env)
    subprocess.run([PRE_COMMIT, "install"], cwd=root, env=env, check=True, capture_output=True)
    return root, env


def commit(root, env, *files, message="change"):
    git(root, "add", *files, env=env)
    return subprocess.run(["git", "commit", "-m", message], cwd=root, env=env, capture_output=True, text=True)


def test_commit_with_zero_python_files_passes(project, repo):
    root, env = repo
    project.write("README.md", "docs only\n")
    result = commit(root, env, "README.md")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "fxlint" in result.stdout + result.stderr  # the hook was considered (and skipped)


def test_clean_python_commit_passes_and_bad_one_is_blocked(project, repo):
    root, env = repo
    project.write("train.py", "def train(x):\n    print(x.item())\n")
    ok = commit(root, env, "train.py")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    project.write("model.py", MODEL)
    blocked = commit(root, env, "model.py")
    assert blocked.returncode != 0
    assert "model.py:6:16: FX101" in blocked.stdout + blocked.stderr


def test_hook_respects_config_exclude(project, repo):
    root, env = repo
    project.write("fxlint.toml", 'extend-exclude = ["vendored"]\n')
    project.write("vendored/model.py", MODEL)
    result = commit(root, env, "fxlint.toml", "vendored/model.py")
    assert result.returncode == 0, result.stdout + result.stderr


def test_local_repo_config_also_works(project, repo):
    root, env = repo
    project.write(".pre-commit-config.yaml",
                  "repos:\n- repo: local\n  hooks:\n  - id: fxlint\n    name: fxlint\n"
                  "    entry: fxlint check --force-exclude\n    language: system\n"
                  "    types_or: [python, pyi]\n    require_serial: true\n")
    project.write("model.py", MODEL)
    result = commit(root, env, ".pre-commit-config.yaml", "model.py")
    assert result.returncode != 0
    assert "FX101" in result.stdout + result.stderr


ASSERT_MODEL = """\
import torch


class Checked(torch.nn.Module):
    def forward(self, x):
        assert torch.isfinite(x).all(), "finite"
        return x * 2
"""


@pytest.mark.parametrize("hook_ids", [["fxlint-fix", "fxlint"]], indirect=True)
def test_fix_hook_rewrites_the_staged_file_then_check_passes(project, repo):
    root, env = repo
    model = project.write("model.py", ASSERT_MODEL)
    first = commit(root, env, "model.py")
    assert first.returncode != 0  # pre-commit fails a hook that modified files
    assert "files were modified by this hook" in first.stdout + first.stderr
    assert "if not torch.compiler.is_compiling():" in model.read_text()
    second = commit(root, env, "model.py")
    assert second.returncode == 0, second.stdout + second.stderr


@pytest.mark.parametrize("hook_ids", [["fxlint-fix", "fxlint"]], indirect=True)
def test_fix_hook_with_zero_python_files(project, repo):
    root, env = repo
    project.write("notes.txt", "no python\n")
    result = commit(root, env, "notes.txt")
    assert result.returncode == 0, result.stdout + result.stderr

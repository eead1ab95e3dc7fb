"""Fixtures for the packaging tests: a committed snapshot of this project (its
working tree, as `git ls-files` sees it), built and installed the way users do."""
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
# The project's interpreter (tests run under .venv/bin/python): it has pip,
# pre-commit and the pinned torch.
PYTHON = sys.executable

GIT_ENV = {
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(cwd, *args, env=None):
    return subprocess.run(["git", *args], cwd=cwd, env={**os.environ, **GIT_ENV, **(env or {})},
                          capture_output=True, text=True, check=True)


def path_without_fxlint():
    """PATH with every directory that holds an `fxlint` left out."""
    dirs = [d for d in os.environ.get("PATH", "").split(os.pathsep)
            if d and not os.path.exists(os.path.join(d, "fxlint"))]
    return os.pathsep.join(dirs)


@pytest.fixture(scope="session")
def snapshot(tmp_path_factory):
    """A git repository holding this project's files at one commit; returns (path, rev)."""
    dst = tmp_path_factory.mktemp("fxlint-repo")
    listed = git(REPO, "ls-files", "-z", "--cached", "--others", "--exclude-standard").stdout.split("\0")
    for rel in filter(None, listed):
        src = REPO / rel
        if src.is_file():
            (dst / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst / rel)
    git(dst, "init", "-q")
    git(dst, "add", "-A")
    git(dst, "commit", "-q", "-m", "snapshot")
    return dst, git(dst, "rev-parse", "HEAD").stdout.strip()

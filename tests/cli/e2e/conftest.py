"""Fixtures for running the built `fxlint` binary on files in temporary directories."""
import os
import pathlib
import shutil
import subprocess
import tempfile

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


def fxlint_binary():
    path = os.environ.get("FXLINT_BIN") or str(REPO / "build" / "fxlint")
    if not os.path.isfile(path):
        pytest.exit(f"fxlint binary not found at {path}; build it or set FXLINT_BIN", 2)
    return path


class Project:
    """A temporary directory with helpers to write files and run fxlint in it."""

    def __init__(self, root):
        self.root = pathlib.Path(root)
        self.binary = fxlint_binary()

    def write(self, relative, text, mode="w"):
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    def run(self, *args, stdin=None, cwd=None, prefix=(), env=None):
        environment = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")}
        environment.update(env or {})
        return subprocess.run(
            [*prefix, self.binary, *args],
            cwd=cwd or self.root,
            env=environment,
            input=stdin,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=120,
        )


@pytest.fixture
def project():
    root = tempfile.mkdtemp(prefix="fxlint-e2e-")
    os.chmod(root, 0o755)  # readable by an unprivileged user too
    try:
        yield Project(os.path.realpath(root))
    finally:
        for dirpath, dirnames, filenames in os.walk(root):
            for name in dirnames + filenames:
                p = os.path.join(dirpath, name)
                if not os.path.islink(p):
                    os.chmod(p, 0o755)
        shutil.rmtree(root, ignore_errors=True)


# A model whose forward calls `.item()` (FX101) on line 6.
MODEL = """\
import torch


class Net(torch.nn.Module):
    def forward(self, x):
        return x.item()
"""

# A training loop: `.item()` outside any compile region is fine.
TRAINING = """\
def train(model, batches, optimizer):
    for x in batches:
        loss = model(x).sum()
        loss.backward()
        optimizer.step()
        print(loss.item())
"""

SYNTAX_ERROR = "def broken(:\n    pass\n"

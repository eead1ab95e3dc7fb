"""Bad input is reported (FX900) and never stops the other files or crashes."""
import json
import os
import shutil
import subprocess

import pytest

from conftest import MODEL, fxlint_binary


def by_file(result):
    return {item["filename"]: item for item in json.loads(result.stdout)}


def test_undecodable_empty_huge_and_symlink_loop(project):
    project.write("latin1.py", b"x = 'caf\xe9'\n")
    project.write("declared.py", b"#!/usr/bin/env python\n# -*- coding: iso-8859-1 -*-\nx = 'caf\xe9'\n")
    project.write("empty.py", "")
    project.write("huge.py", "x = [\n" + "    1,\n" * 1_600_000 + "]\n")  # about 10 MB
    project.write("model.py", MODEL)
    os.symlink("loop.py", project.root / "loop.py")
    os.symlink(".", project.root / "dirloop")
    project.write("x.py/inner.py", MODEL)  # a directory named x.py
    result = project.run("check", "--output-format", "json")
    assert result.returncode == 1, result.stderr
    found = by_file(result)
    root = project.root
    assert found[str(root / "latin1.py")]["code"] == "FX900"
    assert found[str(root / "latin1.py")]["location"] == {"row": 1, "column": 9}
    assert found[str(root / "latin1.py")]["message"] == "file is not valid UTF-8"
    assert found[str(root / "declared.py")]["message"] == (
        "file is not valid UTF-8 (it declares `iso-8859-1`; fxlint reads UTF-8 only)")
    assert found[str(root / "loop.py")]["code"] == "FX900"
    assert "symbolic links" in found[str(root / "loop.py")]["message"]
    assert found[str(root / "model.py")]["code"] == "FX101"
    assert found[str(root / "x.py" / "inner.py")]["code"] == "FX101"
    assert str(root / "empty.py") not in found
    assert str(root / "huge.py") not in found


def test_nesting_too_deep_to_analyze_is_reported_not_a_crash(project):
    # 100k nested operators and calls: Python itself refuses to compile these.
    body = " + ".join(["x"] * 100_000)
    calls = "f(" * 50_000 + "x" + ")" * 50_000
    project.write("deep.py", f"import torch\n\n@torch.compile\ndef f(x):\n    return {body}\n")
    project.write("calls.py", f"y = {calls}\n")
    project.write("fine.py", "def g(x):\n    return " + " + ".join(["x"] * 2000) + "\n")
    project.write("model.py", MODEL)
    result = project.run("check", "--scope", "all", "--output-format", "json")
    assert result.returncode == 1, result.stderr
    found = by_file(result)
    root = project.root
    deep = found[str(root / "deep.py")]
    assert deep["code"] == "FX900"
    assert deep["message"] == "nesting too deep to analyze: 100005 levels (at most 5000)"
    assert deep["location"]["row"] == 5
    assert found[str(root / "calls.py")]["code"] == "FX900"
    assert str(root / "fine.py") not in found  # 2000 levels: analyzed
    assert found[str(root / "model.py")]["code"] == "FX101"
    before = (root / "deep.py").read_text()
    result = project.run("fix", "--apply", "--unsafe-fixes", "--scope", "all")
    assert result.returncode == 1, result.stderr
    assert "FX900 has no automatic fix (2 errors)" in result.stderr
    assert (root / "deep.py").read_text() == before


def test_directory_named_x_py_given_explicitly(project):
    project.write("x.py/inner.py", MODEL)
    result = project.run("check", "x.py", "--output-format", "concise")
    assert result.returncode == 1
    assert result.stdout.startswith("x.py/inner.py:6:16: FX101")


def test_missing_path_is_reported_and_others_run(project):
    project.write("model.py", MODEL)
    result = project.run("check", "missing.py", "model.py", "--output-format", "concise")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "missing.py:1:1: FX900 cannot read path: no such file or directory"
    assert lines[1].startswith("model.py:6:16: FX101")


def drop_privileges():
    """Unreadable files are only unreadable to a user without root's override."""
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    if not setpriv:
        pytest.skip("running as root without setpriv: cannot make a file unreadable")
    prefix = (setpriv, "--reuid=65534", "--regid=65534", "--clear-groups")
    probe = subprocess.run([*prefix, fxlint_binary(), "--version"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("the fxlint binary is not reachable by an unprivileged user here")
    return prefix


def test_unreadable_file_and_directory(project):
    prefix = drop_privileges()
    secret = project.write("secret.py", MODEL)
    os.chmod(secret, 0o000)
    locked = project.root / "locked"
    locked.mkdir()
    (locked / "m.py").write_text(MODEL)
    os.chmod(locked, 0o000)
    project.write("model.py", MODEL)
    result = project.run("check", "--output-format", "concise", prefix=prefix)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert "locked:1:1: FX900 cannot read directory: permission denied" in lines
    assert "secret.py:1:1: FX900 cannot read file: permission denied" in lines
    assert any(l.startswith("model.py:6:16: FX101") for l in lines)

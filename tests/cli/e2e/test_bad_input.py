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


def test_fifos_devices_and_closed_stdin_are_refused_not_read(project):
    project.write("model.py", MODEL)
    os.mkfifo(project.root / "pipe.py")
    os.symlink("/dev/zero", project.root / "zero.py")
    result = project.run("check", "--output-format", "json", "pipe.py", "zero.py", "model.py")
    assert result.returncode == 1, result.stderr
    found = by_file(result)
    for name in ("pipe.py", "zero.py"):
        item = found[str(project.root / name)]
        assert item["code"] == "FX900"
        assert item["message"] == "cannot read file: not a regular file (a device, FIFO or socket)"
    assert found[str(project.root / "model.py")]["code"] == "FX101"
    fixed = project.run("fix", "--apply", "pipe.py", "zero.py", "model.py")
    assert fixed.returncode == 2  # files that could not be fixed
    assert "pipe.py: cannot read file: not a regular file" in fixed.stderr
    # Standard input closed: an error for that input, not an internal error.
    closed = subprocess.run([project.binary, "check", "--stdin-filename", "x.py"], stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, cwd=project.root, timeout=60,
                            preexec_fn=lambda: os.close(0))
    assert closed.returncode == 1, closed.stderr
    assert "cannot read standard input" in closed.stdout
    assert "internal error" not in closed.stdout + closed.stderr


def test_python2_syntax_null_bytes_and_cr_endings_as_cpython_reads_them(project):
    project.write("py2.py", "import torch\nprint 'x'\n")
    project.write("octal.py", "import torch\nMODE = 0777\n")
    project.write("nul.py", b"import torch\nx = 1\x00 +\n")
    cr = "import torch\r\r@torch.compile\rdef f(x: torch.Tensor):\r    return x.item()\r"
    project.write("cr.py", cr.encode())
    result = project.run("check", "--output-format", "json")
    found = {}
    for item in json.loads(result.stdout):
        found.setdefault(os.path.basename(item["filename"]), []).append(item)
    assert [d["code"] for d in found["py2.py"]] == ["FX900"]
    assert "missing parentheses in call to 'print'" in found["py2.py"][0]["message"]
    assert "leading zeros" in found["octal.py"][0]["message"]
    assert found["nul.py"][0]["message"] == "syntax error: source code cannot contain null bytes"
    assert found["nul.py"][0]["location"] == {"row": 2, "column": 6}
    assert [(d["code"], d["location"]["row"]) for d in found["cr.py"]] == [("FX101", 5)]
    full = project.run("check", "nul.py")
    assert "\x00" not in full.stdout
    # Files CPython rejects are never rewritten.
    before = (project.root / "py2.py").read_text()
    project.run("fix", "--apply", "--unsafe-fixes", "py2.py")
    assert (project.root / "py2.py").read_text() == before


def test_float_literals_out_of_range_do_not_stop_the_run(project):
    # Counters initialised with literals past float range: fixed or not, never an internal error.
    for name, literal in (("big.py", "1e400"), ("tiny.py", "1e-400"), ("zero.py", "0e999")):
        project.write(name, f"import torch\nTOTAL = {literal}\n\n@torch.compile\ndef f(x):\n"
                            "    global TOTAL\n    TOTAL += 1\n    return x * 2\n")
    result = project.run("fix", "--unsafe-fixes", "--jobs", "2", ".")
    assert "internal error" not in result.stdout + result.stderr
    assert result.returncode in (0, 1), result.stderr
    assert "torch.zeros((), dtype=torch.float64)" in result.stdout  # 0e999 is zero
    checked = project.run("check", "--jobs", "2", "--output-format", "concise", ".")
    assert checked.stdout.count("FX203") == 3, checked.stdout

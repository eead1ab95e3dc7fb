"""`pip wheel .` builds one wheel holding the `fxlint` executable and the
`fxlint_capture` package; installed into a fresh environment with no compiler
on PATH, it lints, and `verify` runs the capture in that environment's torch."""
import os
import pathlib
import site
import subprocess
import sys
import sysconfig
import zipfile

import pytest

from conftest import PYTHON, path_without_fxlint

MODEL = """\
import torch


class Net(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x.item()
        return x * 2
"""


@pytest.fixture(scope="module")
def wheel(snapshot, tmp_path_factory):
    src, _ = snapshot
    out = tmp_path_factory.mktemp("wheel")
    # The isolated build a user's `pip install .` runs: build requirements come from the index.
    built = subprocess.run([PYTHON, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check",
                            "-w", str(out), str(src)], capture_output=True, text=True)
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    wheels = list(out.glob("fxlint-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    """A fresh virtual environment with the wheel installed and nothing to compile with."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([PYTHON, "-m", "venv", str(venv)], check=True)
    env = {**os.environ, "PATH": str(venv / "bin"), "CC": "false", "CXX": "false"}
    env.pop("VIRTUAL_ENV", None)
    installed = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--no-deps", "--no-index",
                                "--disable-pip-version-check", str(wheel)], capture_output=True, text=True, env=env)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    # torch without a second 5 GB install: the project's site-packages, after the venv's own.
    purelib = pathlib.Path(sysconfig.get_paths(vars={"base": str(venv), "platbase": str(venv)})["purelib"])
    (purelib / "zz_project_torch.pth").write_text(site.getsitepackages()[0] + "\n")
    return venv


def run(venv, *args, cwd):
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "FXLINT_PYTHON", "PYTHONPATH",
                                                            "FXLINT_CAPTURE_PATH")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{path_without_fxlint()}"
    return subprocess.run([str(venv / "bin" / "fxlint"), *args], cwd=cwd, env=env, capture_output=True, text=True)


def test_the_wheel_holds_the_executable_and_the_capture(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.endswith(".data/scripts/fxlint") for n in names), names
    assert "fxlint_capture/__init__.py" in names
    # Subpackages too: the real-compiler backends of `verify --backend`.
    assert "fxlint_capture/backends/__init__.py" in names and "fxlint_capture/backends/codes.py" in names
    assert any(n.startswith("fxlint_capture/_fxlint_capture") and n.endswith(".so") for n in names)
    assert "-cp311-cp311-linux_x86_64.whl" in wheel.name or "-cp311-cp311-" in wheel.name


def test_the_executable_needs_no_library_beyond_the_c_and_cxx_runtimes(installed):
    ldd = subprocess.run(["ldd", str(installed / "bin" / "fxlint")], capture_output=True, text=True, check=True)
    libs = {line.split()[0] for line in ldd.stdout.splitlines() if "=>" in line}
    allowed = {"libstdc++.so.6", "libm.so.6", "libgcc_s.so.1", "libc.so.6"}
    assert libs <= allowed, libs - allowed


def test_installed_fxlint_checks_files(installed, tmp_path):
    (tmp_path / "model.py").write_text(MODEL)
    result = run(installed, "check", "model.py", "--output-format", "concise", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert "model.py:6:12: FX103" in result.stdout
    assert "model.py:7:20: FX101" in result.stdout


def test_installed_fxlint_reads_the_environment_torch_version(installed, tmp_path):
    import torch

    (tmp_path / "model.py").write_text(MODEL)
    result = run(installed, "check", "--show-settings", "model.py", cwd=tmp_path)
    major_minor = ".".join(torch.__version__.split(".")[:2])
    assert f'torch-version = "{major_minor}"  # the environment\'s torch {torch.__version__}' in result.stdout


def test_installed_fxlint_verifies_with_the_environment_torch(installed, tmp_path):
    (tmp_path / "model.py").write_text(MODEL.replace("if x.sum() > 0:\n            return x.item()\n", ""))
    result = run(installed, "verify", "model.py:Net", "float32[2,3]", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok: captured in one graph" in result.stdout, result.stdout

#!/usr/bin/env bash
# One command on a fresh Debian 12 or 13 machine: system packages, the Python
# environment (.venv/) with the pinned torch stack, fxlint built and installed
# into it (a developer build in build/, tests included), then fxlint run on the
# bundled examples.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "[1/3] Debian packages"
./scripts/setup-deps.sh
echo "[2/3] .venv/ with the pinned torch stack (requirements/)"
./scripts/setup-venv.sh
echo "[3/3] pip install . into .venv/ (compiles fxlint; the build stays in build/)"
# The same `pip install .` a user runs, with the build kept in build/ (so that
# rebuilds are incremental and ctest finds the tests) and the tests built too.
.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-build-isolation --no-deps \
  -C build-dir=build -C cmake.build-type=RelWithDebInfo -C cmake.define.FXLINT_TESTS=ON \
  -C build.verbose=false .
echo
echo "$ .venv/bin/fxlint check examples/"
.venv/bin/fxlint check examples/ || true  # the examples are meant to have findings

#!/usr/bin/env bash
# One command from a fresh Debian 12 machine: install dependencies, build, and
# run fxlint on the bundled example project.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
echo
echo "$ build/fxlint check examples/"
build/fxlint check examples/ || true  # the examples are meant to have findings

#!/usr/bin/env bash
# The whole test suite: unit, fixture, end-to-end, rewriter and capture tests.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x build/fxlint ]; then ./scripts/setup.sh; fi
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"

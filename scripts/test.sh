#!/usr/bin/env bash
# The whole test suite: unit, fixture, end-to-end, rewriter, capture, language
# server and packaging tests, run by ctest with the project's .venv.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/fxlint ] || [ ! -f build/CTestTestfile.cmake ]; then ./scripts/setup.sh; fi
export VIRTUAL_ENV="$PWD/.venv" PATH="$PWD/.venv/bin:$PATH"
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"

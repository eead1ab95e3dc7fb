#!/usr/bin/env bash
# Installs everything fxlint needs on Debian 12: system packages and the pinned
# tree-sitter sources from npm (compiled by CMake, never committed).
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

PACKAGES=(
  build-essential cmake git ca-certificates
  nlohmann-json3-dev catch2 libtomlplusplus-dev
  libonnx-dev libprotobuf-dev protobuf-compiler
  libtorch-dev pybind11-dev libpython3.11-dev
  python3-torch python3-torchvision python3-onnx python3-pytest
  pre-commit flake8
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ! command -v npm >/dev/null 2>&1; then missing+=(nodejs npm); fi
if [ "${#missing[@]}" -gt 0 ]; then
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

# tree-sitter runtime and Python grammar, pinned (package.json / package-lock.json).
if [ ! -f third_party/node_modules/tree-sitter-python/src/parser.c ]; then
  (cd third_party && npm ci --ignore-scripts --no-audit --no-fund)
fi

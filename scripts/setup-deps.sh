#!/usr/bin/env bash
# Installs everything fxlint needs on Debian 12: system packages and the pinned
# npm packages (tree-sitter sources compiled by CMake, ONNX Runtime for Node.js;
# never committed).
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

# Pinned npm packages (package.json / package-lock.json): the tree-sitter runtime and
# Python grammar, and ONNX Runtime for Node.js (its CPU binaries ship in the package,
# so no install script runs).
if [ ! -f third_party/node_modules/tree-sitter-python/src/parser.c ] ||
   [ ! -f third_party/node_modules/onnxruntime-node/package.json ]; then
  (cd third_party && npm ci --ignore-scripts --no-audit --no-fund)
fi

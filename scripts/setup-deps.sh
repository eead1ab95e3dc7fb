#!/usr/bin/env bash
# Debian 12 or 13: the compiler and the C++ libraries fxlint builds against
# (nlohmann-json, toml++ and Catch2, v2 on Debian 12 and v3 on 13), and Neovim,
# the editor the language server's tests drive. Everything else comes from PyPI
# (scripts/setup-venv.sh).
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

PACKAGES=(build-essential cmake git ca-certificates nlohmann-json3-dev libtomlplusplus-dev catch2 neovim)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "Installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

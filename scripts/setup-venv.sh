#!/usr/bin/env bash
# The project's Python environment, .venv/: CPython 3.11 with the pinned
# runtime (requirements/runtime.txt: torch, torchvision, ONNX, timm,
# transformers) and the build and test tools (requirements/dev.txt). Installs
# again only when the requirement files change.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${FXLINT_BASE_PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
  echo "error: fxlint needs CPython 3.11 (its capture decodes 3.11 bytecode); $PYTHON is" \
       "$("$PYTHON" --version 2>&1 || echo missing). Set FXLINT_BASE_PYTHON to a python3.11." >&2
  exit 2
fi

stamp=".venv/.requirements.sha256"
want="$(cat requirements/*.txt | sha256sum | cut -d' ' -f1)"
if [ -x .venv/bin/python ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
# (grep drops the notes some machines' pip configuration prints for every package)
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements/dev.txt \
  2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
echo "$want" > "$stamp"

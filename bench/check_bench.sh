#!/usr/bin/env bash
# Times `fxlint check --scope all` on the installed torch package's Python
# sources against a parse-only pass with the same tree-sitter, and flake8.
# Usage: bench/check_bench.sh [build-dir] [source-dir]
set -euo pipefail
BUILD=${1:-build}
PY=${FXLINT_PYTHON:-.venv/bin/python}
SRC=${2:-$("$PY" -c 'import os, torch; print(os.path.dirname(torch.__file__))')}
FILES=$(mktemp)
trap 'rm -f "$FILES"' EXIT
find "$SRC" -name '*.py' | sort > "$FILES"
echo "files: $(wc -l < "$FILES"), lines: $(xargs cat < "$FILES" | wc -l), bytes: $(xargs cat < "$FILES" | wc -c)"

best() {  # best wall time of 3 runs, in seconds
  local best=999999
  for _ in 1 2 3; do
    local s e t
    s=$(date +%s.%N); "$@" > /dev/null 2>&1 || true; e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc)
    best=$(echo "if ($t < $best) $t else $best" | bc)
  done
  printf '%.2f' "$best"
}

cores=$(nproc)
p1=$(best sh -c "\"$BUILD/fxlint_parse_only\" --jobs 1 - < $FILES")
pn=$(best sh -c "\"$BUILD/fxlint_parse_only\" --jobs $cores - < $FILES")
c1=$(best sh -c "xargs \"$BUILD/fxlint\" check --scope all --exit-zero --no-cache --jobs 1 --output-format concise < $FILES")
cn=$(best sh -c "xargs \"$BUILD/fxlint\" check --scope all --exit-zero --no-cache --jobs $cores --output-format concise < $FILES")
echo "parse-only, 1 thread:        ${p1}s"
echo "parse-only, $cores threads:       ${pn}s"
echo "fxlint check, 1 thread:      ${c1}s  ($(echo "scale=2; $c1 / $p1" | bc)x parse-only)"
echo "fxlint check, $cores threads:     ${cn}s  (speedup $(echo "scale=2; $c1 / $cn" | bc)x)"
if command -v flake8 > /dev/null; then
  f=$(best sh -c "xargs flake8 --jobs $cores < $FILES")
  echo "flake8 (reference), $cores jobs: ${f}s"
fi

#!/usr/bin/env bash
# End-to-end checks of `fix` as a process on temporary files.
#   fix_e2e.sh "FIX COMMAND" "TOY FIX COMMAND"
# FIX COMMAND runs the real rules (`<build>/fxlint fix`); TOY FIX COMMAND runs
# the toy rules of toy_rules.h, one of which breaks the syntax.
set -u
read -r -a FIX <<<"$1"
read -r -a TOY <<<"$2"
PY=${FXLINT_PYTHON:-python3}
HERE=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
cd "$work" || exit 2
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect_status() {  # expected actual what
  [ "$1" = "$2" ] || fail "$3: exit status $2, expected $1 (stderr: $(cat err))"
}
if ! "${FIX[@]}" --help >/dev/null 2>&1; then
  echo "FAIL: '${FIX[*]} --help' does not run; is the fix command dispatched by the binary?"
  exit 1
fi
parses() { "$PY" -c 'import ast,sys; ast.parse(open(sys.argv[1],"rb").read())' "$1"; }

write_model() {
  cat >"$1" <<'PY'
import torch


class M(torch.nn.Module):
    def forward(self, x):
        # a comment before
        assert (x.abs() < 100).all(), "out of range"  # why
        print("hello", x.shape)
        if x.sum() > 0:
            y = x * 2  # doubled
        else:
            y = x - 1
        return y
PY
}

# 1. Without --apply: a diff, exit 1, the file untouched.
write_model m.py
cp m.py orig.py
"${FIX[@]}" m.py >out 2>err
expect_status 1 $? "diff run"
grep -q '^--- a/m.py$' out || fail "diff run: no '--- a/m.py' header"
grep -q '^+            assert (x.abs() < 100).all(), "out of range"  # why$' out || fail "diff run: guard line missing"
cmp -s m.py orig.py || fail "diff run changed the file"
mkdir patched && cp m.py patched/m.py && cp out m.diff
(cd patched && patch -s -p1 <../m.diff) || fail "diff run: patch -p1 cannot apply the diff"

# 2. --apply: safe fixes written, comments kept, still parses; a second run changes nothing.
"${FIX[@]}" --apply m.py >out 2>err
expect_status 1 $? "apply (FX103 left: unsafe)"
grep -q 'if not torch.fx._symbolic_trace.is_fx_symbolic_tracing():' m.py || fail "apply: no guard written"
grep -q '# why' m.py && grep -q '# a comment before' m.py || fail "apply: a comment was lost"
grep -q 'fix available with --unsafe-fixes' err || fail "apply: summary does not mention --unsafe-fixes"
parses m.py || fail "apply: the fixed file does not parse"
cp m.py once.py
cmp -s patched/m.py once.py || fail "the printed diff and --apply disagree"
"${FIX[@]}" --apply m.py >out 2>err
cmp -s m.py once.py || fail "second apply changed the file"
[ ! -s out ] || fail "second apply printed a diff"

# 3. --unsafe-fixes: the tensor if/else becomes torch.where; again, stable.
"${FIX[@]}" --apply --unsafe-fixes m.py >out 2>err
grep -q 'y = torch.where(' m.py || fail "unsafe apply: no torch.where"
grep -q '# doubled' m.py || fail "unsafe apply: the comment inside the rewritten branch was lost"
parses m.py || fail "unsafe apply: the fixed file does not parse"
cp m.py twice.py
"${FIX[@]}" --apply --unsafe-fixes m.py >out 2>err
expect_status 0 $? "unsafe apply, second run (nothing left)"
cmp -s m.py twice.py || fail "second unsafe apply changed the file"

# 4. CRLF and tabs: the fixed file keeps both.
write_model crlf.py
sed -i 's/$/\r/' crlf.py
"${FIX[@]}" --apply crlf.py >out 2>err
lines=$(wc -l <crlf.py)
[ "$(grep -c $'\r$' crlf.py)" = "$lines" ] || fail "CRLF file has lines without CR after fixing"
grep -q 'is_fx_symbolic_tracing' crlf.py || fail "CRLF file not fixed"
write_model tabs.py
sed -i 's/    /\t/g' tabs.py
"${FIX[@]}" --apply tabs.py >out 2>err
grep -q 'is_fx_symbolic_tracing' tabs.py || fail "tab file not fixed"
! grep -q '^ ' tabs.py || fail "tab file got space indentation"
parses tabs.py || fail "tab file does not parse after fixing"

# 5. A read-only file: an error naming it, exit 2, every byte kept.
write_model ro.py
cp ro.py ro.orig
chmod 444 ro.py
"${FIX[@]}" --apply ro.py >out 2>err
expect_status 2 $? "read-only file"
grep -q 'ro.py: file is read-only' err || fail "read-only: error does not name the file"
cmp -s ro.py ro.orig || fail "read-only file changed"

# 6. A fix that would break the syntax: the file is left as it was, and the fix named.
printf 'x = old\nbreakme\n' >broken.py
cp broken.py broken.orig
"${TOY[@]}" --apply broken.py >out 2>err
expect_status 2 $? "syntax-breaking fix"
grep -q 'broken.py: the fix for FX502 at 2:1' err || fail "syntax-breaking fix not named: $(cat err)"
cmp -s broken.py broken.orig || fail "a syntax-breaking fix changed the file"

# 7. The fixed model computes what the original did, traces, and exports to ONNX. With no
#    torch-version pinned, the guard is the installed torch's: for the default target (fx2onnx,
#    torch.fx.symbolic_trace) on torch 2.9 and later, is_fx_symbolic_tracing.
mkdir sem && cd sem || exit 2
write_model model.py
cp model.py original.py
"${FIX[@]}" --apply --unsafe-fixes model.py >out 2>err
expect_status 0 $? "semantic project: unsafe apply"
grep -q 'torch.fx._symbolic_trace.is_fx_symbolic_tracing()' model.py ||
  fail "the installed torch's guard not used: $(cat model.py)"
"$PY" "$HERE/fix_semantics.py" original.py model.py >sem.out 2>&1 ||
  fail "fixed model differs, does not trace or does not export: $(tail -5 sem.out)"
cd ..

# 7b. A pinned torch-version decides the guard, and one the environment does not have is warned of.
mkdir pinned && cd pinned || exit 2
echo 'torch-version = "1.13"' >fxlint.toml
write_model model.py
"${FIX[@]}" --apply --unsafe-fixes model.py >out 2>err
expect_status 0 $? "pinned project: unsafe apply"
grep -q 'torch.fx._symbolic_trace.is_fx_tracing' model.py || fail "torch-version 1.13 guard not used"
grep -q 'warning: .*fxlint.toml pins torch-version = "1.13", but the environment has torch 2\.' err ||
  fail "no warning for a pinned torch the environment does not have: $(cat err)"
cd ..

# 8. Files are fixed together: a function is compiled because another file passes it to
#    torch.compile, so its print is guarded.
mkdir -p proj/pkg && touch proj/pkg/__init__.py
printf 'import torch\n\n\ndef scale(x):\n    print("scaling", x.shape)\n    return x * 2\n' >proj/pkg/helpers.py
printf 'import torch\n\nfrom pkg.helpers import scale\n\ncompiled = torch.compile(scale)\n' >proj/pkg/main.py
(cd proj && "${FIX[@]}" --apply . >out 2>err)
expect_status 0 $? "cross-file project"
grep -q '    if not torch.fx._symbolic_trace.is_fx_symbolic_tracing():' proj/pkg/helpers.py || fail "cross-file: helper not fixed"

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all fix end-to-end checks passed"

"""scripts/new_rule.py, run on a copy of the files it writes (never on the source tree).

    python new_rule_test.py --source DIR --registry-test BIN --cxx COMPILER --include DIR [--include DIR ...]

The scaffolded rule must satisfy the registry test's file invariants (doc sections,
fixture, docs/rules.md row, check file), and the .def with its new row, the
generated check factories and the new check must compile. Bad arguments, and a code
or name already taken, leave the copy as it was.
"""
import argparse
import hashlib
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

# What new_rule.py reads or writes, and what the registry test's [files] cases read.
COPIED = ["rules", "docs/rules.md", "tests/fixtures/rules", "capture/python", "capture/src"]


def digest(root):
    h = hashlib.sha256()
    for rel in COPIED:
        p = root / rel
        files = sorted(f for f in p.rglob("*") if f.is_file() and "__pycache__" not in f.parts) if p.is_dir() else [p]
        for f in files:
            h.update(str(f.relative_to(root)).encode())
            h.update(f.read_bytes())
    return h.hexdigest()


def copy_tree(source, dest):
    for rel in COPIED:
        src, dst = source / rel, dest / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, dst)


def run(cmd, **kw):
    print("$", " ".join(str(c) for c in cmd), flush=True)
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    sys.stdout.write(r.stdout)
    sys.stdout.write(r.stderr)
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", type=pathlib.Path, required=True)
    ap.add_argument("--registry-test", required=True)
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--include", action="append", default=[])
    args = ap.parse_args()
    source = args.source.resolve()
    script = source / "scripts" / "new_rule.py"
    before = digest(source)
    failures = []

    def expect(ok, what):
        print(("ok: " if ok else "FAIL: ") + what, flush=True)
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory(prefix="fxlint-new-rule-") as tmp:
        root = pathlib.Path(tmp)
        copy_tree(source, root)
        new = lambda *a: run([sys.executable, script, "--root", root, *a])

        # Refusals leave the copy untouched.
        untouched = digest(root)
        for bad in (["FX5", "a-name", "summary"], ["FX505", "Not_Kebab", "summary"],
                    ["FX505", "a-name", 'with "quotes"'], ["FX101", "a-name", "summary"],
                    ["FX505", "tensor-item", "summary"], ["FX505", "a-name", "summary", "--severities", "E,X,E"],
                    ["FX905", "a-name", "summary"]):
            r = new(*bad)
            expect(r.returncode == 2 and digest(root) == untouched, f"new_rule.py {' '.join(bad)} is refused")

        # A rule of an existing family with a new check, and one that starts a family.
        r = new("FX505", "tensor-widget", "tensor handed to a widget", "--severities", "E,W,O")
        expect(r.returncode == 0 and "Left to do by hand" in r.stdout, "FX505 scaffolded")
        r = new("FX601", "graph-gadget", "gadget in compiled code")
        expect(r.returncode == 0 and "FX6xx" in r.stdout, "FX601 scaffolded with a new family")
        for rel in ("rules/docs/FX505.md", "rules/checks/tensor_widget.cpp", "tests/fixtures/rules/FX505.py",
                    "rules/docs/FX601.md", "rules/checks/graph_gadget.cpp", "tests/fixtures/rules/FX601.py"):
            expect((root / rel).is_file(), f"{rel} written")
        table = (root / "rules" / "rule_table.def").read_text()
        rows = [l for l in table.splitlines() if l.startswith("RULE(")]
        expect([l[5:10] for l in rows] == sorted(l[5:10] for l in rows), "rows stay in code order")
        expect(any(l.startswith("RULE(FX505,") and "E, W, O, DisplayOnly" in l and "CHECKED_BY(tensor_widget)" in l
                   for l in rows), "FX505's row")
        r = new("FX505", "other-name", "summary")
        expect(r.returncode == 2, "a code taken by a scaffolded rule is refused")

        # The registry test's file invariants hold for the scaffolded tree.
        r = run([args.registry_test, "[files]"], env={**os.environ, "FXLINT_REGISTRY_ROOT": str(root)})
        expect(r.returncode == 0, "registry test [files] passes on the scaffolded tree")

        # The .def still compiles into the registry and the check factories, and the checks compile.
        includes = [f"-I{root}", f"-I{source}"] + [f"-I{d}" for d in args.include]
        for rel in ("rules/registry.cpp", "rules/check_factories.cpp", "rules/checks/tensor_widget.cpp",
                    "rules/checks/graph_gadget.cpp"):
            r = run([args.cxx, "-std=c++20", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", *includes, root / rel])
            expect(r.returncode == 0, f"{rel} compiles")

        # Adding a rule to an existing check writes no check file.
        r = new("FX205", "global-gizmo", "gizmo read from a global", "--check", "global_read")
        expect(r.returncode == 0 and "CHECKED_BY(global_read)" in (root / "rules" / "rule_table.def").read_text()
               and not (root / "rules" / "checks" / "global_gizmo.cpp").exists()
               and (root / "rules" / "checks" / "global_read.cpp").read_text()
               == (source / "rules" / "checks" / "global_read.cpp").read_text(),
               "FX205 added to the existing global_read check")

    expect(digest(source) == before, "the source tree is unchanged")
    if failures:
        print(f"{len(failures)} failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Scaffolds a new fxlint rule.

    scripts/new_rule.py FX505 kebab-name "one-line summary" [--severities E,E,W] [--check STEM] [--root DIR]

Writes the rule's row into rules/rule_table.def (in code order), a check in
rules/checks/STEM.cpp (STEM defaults to the name with underscores; an existing
check is reused, not rewritten), rules/docs/CODE.md with the sections every rule
doc has, a fixture tests/fixtures/rules/CODE.py and the rule's row in
docs/rules.md, then prints what is left to do by hand. The new rule starts
without a rewriting fix (fix column DisplayOnly). --root names the tree to write
into (default: this repository).
"""
import argparse
import pathlib
import re
import sys

REPO = pathlib.Path(__file__).resolve().parent.parent

# The row format of rule_table.def (its header comment describes the columns).
ROW_RE = re.compile(
    r'^RULE\((FX[0-9]{3}), *"([a-z][a-z0-9-]*)", *([EWO]), *([EWO]), *([EWO]), *'
    r'(None|DisplayOnly|Safe|Unsafe|SafeOrUnsafe), *(?:CHECKED_BY\(([a-z][a-z0-9_]*)\)|NO_CHECK), *"(.+)"\) *$')
SEVERITY_WORDS = {"E": "error", "W": "warning", "O": "off"}
TARGETS = ("fx2onnx", "dynamo", "export")


class Error(Exception):
    pass


def parse_table(text):
    """The .def's rows as (line index, match); raises on a RULE( line that does not parse."""
    rows = []
    for i, line in enumerate(text.splitlines()):
        if not line.startswith("RULE("):
            continue
        m = ROW_RE.match(line)
        if not m:
            raise Error(f"rule_table.def: row does not parse: {line}")
        rows.append((i, m))
    return rows


def column_starts(line):
    """Where each column after the code starts in an existing row, to align the new one."""
    starts, depth, quoted = [], 0, False
    for i, c in enumerate(line):
        if c == '"':
            quoted = not quoted
        elif not quoted and c == "(":
            depth += 1
        elif not quoted and c == ")":
            depth -= 1
        elif not quoted and c == "," and depth == 1:
            j = i + 1
            while j < len(line) and line[j] == " ":
                j += 1
            starts.append(j)
    return starts


def format_row(fields, like):
    """RULE(...) with fields aligned to the columns of the row `like`."""
    starts = column_starts(like) if like else []
    out = "RULE(" + fields[0]
    for k, field in enumerate(fields[1:]):
        out += ","
        target = starts[k] if k < len(starts) else 0
        out += " " * max(1, target - len(out)) + field
    return out + ")"


def add_table_row(text, code, name, severities, stem, summary):
    rows = parse_table(text)
    for _, m in rows:
        if m.group(1) == code:
            raise Error(f"{code} is already in rules/rule_table.def")
        if m.group(2) == name:
            raise Error(f"the name {name} is already {m.group(1)}'s")
    fields = [code, f'"{name}"', *severities, "DisplayOnly", f"CHECKED_BY({stem})", f'"{summary}"']
    lines = text.splitlines(keepends=True)
    after = [i for i, m in rows if m.group(1) < code]
    before = [i for i, m in rows if m.group(1) > code]
    if after:
        at = after[-1] + 1
    elif before:
        at = before[0]
    else:
        at = next(i for i, l in enumerate(lines) if l.startswith("#undef RULE"))
    like = lines[after[-1]] if after else lines[before[0]] if before else None
    lines.insert(at, format_row(fields, like.rstrip("\n") if like else None) + "\n")
    return "".join(lines)


def catalog_row(code, name, severities, summary):
    sev = " | ".join(SEVERITY_WORDS[s] for s in severities)
    return f"| [{code}](../rules/docs/{code}.md) | `{name}` | {summary} | {sev} | display-only |"


def add_catalog_row(text, code, row):
    """Inserts the row into its family's table of docs/rules.md (FX5xx for FX505);
    returns the text and whether a new family section was started."""
    lines = text.splitlines(keepends=True)
    family = f"### {code[:3]}xx"
    heading = next((i for i, l in enumerate(lines) if l.startswith(family)), None)
    if heading is not None:
        end = heading + 1
        while end < len(lines) and not lines[end].startswith("#"):
            end += 1
        table = [i for i in range(heading, end) if lines[i].startswith("|")]
        if not table:
            raise Error(f"docs/rules.md: no table under '{lines[heading].strip()}'")
        at = table[-1] + 1
        for i in table:
            m = re.match(r"\| \[(FX[0-9]{3})\]", lines[i])
            if m and m.group(1) > code:
                at = i
                break
        lines.insert(at, row + "\n")
        return "".join(lines), False
    # A new family: its section goes before the next family's, or after the last.
    families = [i for i, l in enumerate(lines) if re.match(r"### FX[0-9]xx", l)]
    if not families:
        raise Error("docs/rules.md: no catalog section (### FXnxx) found")
    later = [i for i in families if lines[i][4:7] > code[:3]]
    if later:
        at = later[0]
    else:
        at = families[-1] + 1
        while at < len(lines) and not lines[at].startswith("#"):
            at += 1
    section = (f"{family}: TODO the family's title\n\n"
               "| code | name | summary | fx2onnx | dynamo | export | fix |\n"
               "|---|---|---|---|---|---|---|\n"
               f"{row}\n\n")
    lines.insert(at, section)
    return "".join(lines), True


def check_source(code, summary, stem):
    klass = "".join(part.capitalize() for part in stem.split("_"))
    return f"""// {code}: {summary}.
#include "rules/check.h"
#include "rules/check_support.h"

namespace fxlint {{
namespace {{

class {klass} final : public Check {{
 public:
  using Check::Check;
  // Override the events the rule needs (analyzer/code_visitor.h lists them);
  // rules/check_support.h has the usual queries on calls and values.
  void on_call(Node call, const SemanticModel& ctx) override {{
    if (!reported(call, ctx)) return;
    sink_.report(RuleId::{code}, call.range(), "TODO: what is wrong here and why the graph breaks");
  }}

 private:
  // TODO({code}): the calls the rule reports.
  static bool reported(Node, const SemanticModel&) {{ return false; }}
}};

}}  // namespace
std::unique_ptr<Check> make_{stem}(DiagnosticSink& s, const CheckSettings& c) {{
  return std::make_unique<{klass}>(s, c);
}}
}}  // namespace fxlint
"""


def doc_source(code, name, severities):
    targets = "\n".join(f"- {t} ({SEVERITY_WORDS[s]}): TODO." for t, s in zip(TARGETS, severities))
    return f"""# {code} {name}

## What it does
TODO: what is reported, in a compile region, and what is left alone.

## Why is this bad
TODO: what each tracer does with it.

{targets}

## Example
```python
class Model(nn.Module):
    def forward(self, x):
        return x  # TODO: code the rule reports
```

## Use instead
```python
class Model(nn.Module):
    def forward(self, x):
        return x  # TODO: the capturable rewrite
```

## Fix safety
Display-only.

## See also
- TODO: related rules (`fxlint rule FXnnn`) or torch documentation
"""


def fixture_source(code, name):
    return f"""# {code} {name}: every form the rule reports, each reported line marked
# `# expect: {code}`, and negatives that must stay silent (code outside compile
# regions, escape hatches, values not known to be tensors, the rule's traps).
# TODO: replace the placeholders; tests/fixtures/rules/README.md has the format.
import torch
from torch import nn


class Reported(nn.Module):
    def forward(self, x):
        y = x + 1  # expect: {code}
        return y


def not_compiled(x):
    return x + 1
"""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("code", help="FXnnn, not in use")
    ap.add_argument("name", help="kebab-case name, not in use")
    ap.add_argument("summary", help="one line, as in `fxlint rule --all`")
    ap.add_argument("--severities", default="E,E,E",
                    help="fx2onnx,dynamo,export: E (error), W (warning) or O (off); default E,E,E")
    ap.add_argument("--check", help="the check's file stem in rules/checks/ (default: the name with underscores); "
                                    "an existing check gets the rule added to what it reports")
    ap.add_argument("--root", type=pathlib.Path, default=REPO, help="the tree to write into (default: this repository)")
    args = ap.parse_args(argv)

    try:
        code, name, summary = args.code, args.name, args.summary.strip()
        if not re.fullmatch(r"FX[1-8][0-9]{2}", code):
            raise Error(f"{code}: a code is FX followed by three digits, 101 to 899 (FX9xx are the tool's own)")
        if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", name):
            raise Error(f"{name}: a name is lower-case kebab-case")
        if not summary or any(c in summary for c in '"|\n\\'):
            raise Error("the summary is one non-empty line without \", | or \\")
        severities = args.severities.replace(" ", "").split(",")
        if len(severities) != 3 or any(s not in SEVERITY_WORDS for s in severities):
            raise Error(f"--severities {args.severities}: three of E, W, O, comma-separated")
        stem = args.check or name.replace("-", "_")
        if not re.fullmatch(r"[a-z][a-z0-9_]*", stem):
            raise Error(f"--check {stem}: a file stem in lower case with underscores")

        root = args.root.resolve()
        def_path = root / "rules" / "rule_table.def"
        doc_path = root / "rules" / "docs" / f"{code}.md"
        check_path = root / "rules" / "checks" / f"{stem}.cpp"
        fixture_path = root / "tests" / "fixtures" / "rules" / f"{code}.py"
        catalog_path = root / "docs" / "rules.md"
        for p in (def_path, catalog_path):
            if not p.is_file():
                raise Error(f"{p} not found (is --root the repository?)")
        for p in (doc_path, fixture_path):
            if p.exists():
                raise Error(f"{p} already exists")
        new_check = not check_path.exists()

        # Everything is computed before anything is written, so an error leaves the tree as it was.
        table = add_table_row(def_path.read_text(), code, name, severities, stem, summary)
        catalog, new_family = add_catalog_row(catalog_path.read_text(), code,
                                              catalog_row(code, name, severities, summary))
    except Error as e:
        print(f"new_rule.py: {e}", file=sys.stderr)
        return 2

    def_path.write_text(table)
    catalog_path.write_text(catalog)
    doc_path.write_text(doc_source(code, name, severities))
    fixture_path.write_text(fixture_source(code, name))
    if new_check:
        check_path.write_text(check_source(code, summary, stem))

    rel = lambda p: p.relative_to(root)
    print(f"{code} {name}: wrote")
    for p in (def_path, catalog_path, doc_path, fixture_path) + ((check_path,) if new_check else ()):
        print(f"  {rel(p)}")
    todo = []
    if new_check:
        todo.append(f"Implement {rel(check_path)}: the events to override and when to report {code}. "
                    f"Until it reports the marked lines of {rel(fixture_path)}, the fixture test fails.")
    else:
        todo.append(f"Report {code} from the existing {rel(check_path)} (sink_.report(RuleId::{code}, ...)); "
                    "the registry test checks that a check reports exactly the rules naming it.")
    todo += [
        f"Write the fixture {rel(fixture_path)}: every reported form, marked, and the negatives.",
        f"Fill in the TODOs of {rel(doc_path)} (`fxlint rule {code}` prints it).",
    ]
    if new_family:
        todo.append(f"Give the new {code[:3]}xx family in {rel(catalog_path)} its title.")
    todo += [
        f"If the check offers a rewriting fix: set the fix column in {rel(def_path)} (Safe, Unsafe or "
        f"SafeOrUnsafe), say so under \"Fix safety\" in the doc, add tests/fixtures/rules/{code}.fixed.py "
        "and a CASES entry in tests/fixtures/rules/equivalence/run.py.",
        "If the capture or `fxlint verify --backend` can observe the break: map it to the code in "
        "capture/ (capture/python/fxlint_capture/backends/codes.py for the backends' messages).",
        "Build and run the tests: the registry test (ctest -R registry) holds all of the above to the table.",
    ]
    print("Left to do by hand:")
    for i, t in enumerate(todo, 1):
        print(f"  {i}. {t}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Latency of `fxlint server` through a raw JSON-RPC client, on real model code.

    .venv/bin/python bench/lsp/bench_lsp.py [--fxlint build/fxlint] [--lines 5000 20000] [--edits 30]
        [--source real|generated] [--workspace DIR --file REL]

The real code is transformers' own modeling files (installed with the project's
requirements), concatenated up to the size asked for; `--source generated` uses a
synthetic file whose `forward` reaches every helper. The server's workspace is the
directory that holds the file, so the workspace indexing runs too. With `--workspace`,
a file of that project is edited instead, with the whole project as the workspace.

For each file it measures:

- a whole lint: the file opened, until its first diagnostics (a full parse and analysis,
  as `fxlint check` does it); the best of three opens;
- edit -> diagnostics: one keystroke (a space after the `=` of an assignment in a
  `forward`), then the time until the diagnostics of that version are published;
  median and worst of N edits;
- a burst of 200 keystrokes sent back to back: the time from the last one to the
  diagnostics of the last version, against the edit -> diagnostics time and against a
  whole lint, and how many versions were published;
- hover while a lint runs: a keystroke, then at once a hover; the time until the answer.
"""
import argparse
import json
import os
import queue
import statistics
import subprocess
import tempfile
import threading
import time


def model_source(lines):
    """About `lines` lines: helpers of 9 lines each, all called from one compiled forward."""
    functions = max(1, lines // 10)
    out = ["import torch", "import torch.nn as nn", ""]
    for i in range(functions):
        out += [f"def helper_{i}(x):", f"    y = x * {i} + 1", "    z = y.relu()", "    w = z.sum(dim=0)",
                "    if w.numel() > 0:", "        w = w + 1", "    return w", "", ""]
    out += ["class Big(nn.Module):", "    def forward(self, x):", "        n = x.sum().item()"]
    out += [f"        x = helper_{i}(x)" for i in range(0, functions, 7)]
    out += ["        return x", ""]
    return "\n".join(out)


def real_source(lines):
    """transformers' modeling files, whole, until about `lines` lines."""
    import transformers
    models = os.path.join(os.path.dirname(transformers.__file__), "models")
    names = ["qwen3_omni_moe", "seamless_m4t_v2", "seamless_m4t", "qwen2_5_omni", "oneformer", "perceiver"]
    out = []
    for name in names:
        with open(os.path.join(models, name, f"modeling_{name}.py")) as f:
            out += f.read().split("\n")
        if len(out) >= lines:
            break
    # Cut before an undecorated top-level definition, so that the text still parses.
    cut = len(out) if len(out) <= lines else lines
    while cut > 0 and not (out[cut].startswith(("def ", "class ")) and not out[cut - 1].strip()):
        cut -= 1
    return "\n".join(out[:cut]) + "\n"


def edit_site(fxlint, path, text):
    """(line, column) of a space to type: just after the `= ` of an assignment whose
    right-hand side holds a finding, so that each keystroke moves the finding and new
    diagnostics are published (the server does not publish unchanged ones)."""
    found = json.loads(subprocess.run([fxlint, "check", "--output-format", "json", "--exit-zero", path],
                                      capture_output=True, text=True, check=True).stdout)
    lines = text.split("\n")
    for d in found:
        row, col = d["location"]["row"] - 1, d["location"]["column"] - 1
        line = lines[row]
        eq = line.find(" = ")
        if d["code"] != "FX900" and 0 <= eq and eq + 3 <= col and line[:eq].strip().isidentifier():
            return row, eq + 3
    raise SystemExit("no finding on the right of an assignment to move")


class Client:
    def __init__(self, fxlint, cwd):
        self.proc = subprocess.Popen([fxlint, "server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, cwd=cwd)
        self.messages = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 1

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            self.messages.put((time.perf_counter(), json.loads(out.read(length))))

    def send(self, message):
        body = json.dumps(dict(message, jsonrpc="2.0")).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def wait(self, predicate, timeout=60):
        while True:
            at, m = self.messages.get(timeout=timeout)
            if predicate(m):
                return at, m

    def close(self):
        self.send({"id": 10 ** 6, "method": "shutdown"})
        self.send({"method": "exit"})
        self.proc.wait(timeout=60)


def measure(fxlint, text, root, path, edits):
    item_line, column = edit_site(fxlint, path, text)
    if True:
        d = root
        uri = "file://" + path
        c = Client(fxlint, d)
        c.send({"id": 0, "method": "initialize", "params": {"capabilities": {}, "rootUri": "file://" + root}})
        c.wait(lambda m: m.get("id") == 0)
        c.send({"method": "initialized", "params": {}})
        published = lambda v: (lambda m: m.get("method") == "textDocument/publishDiagnostics"
                               and m["params"].get("version") == v)
        # A whole lint: the file opened (a full parse and analysis), then closed, three times.
        full = []
        for _ in range(3):
            sent = time.perf_counter()
            c.send({"method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": uri, "languageId": "python", "version": 1, "text": text}}})
            got, _ = c.wait(published(1))
            full.append(got - sent)
            c.send({"method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}})
            c.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                   and not m["params"]["diagnostics"] and m["params"].get("version") is None)
        c.send({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": text}}})
        c.wait(published(1))
        version = 1
        at = {"line": item_line, "character": column}

        def keystroke():
            nonlocal version
            version += 1
            c.send({"method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": at, "end": at}, "text": " "}]}})
            return time.perf_counter()

        single = []
        for _ in range(edits):
            sent = keystroke()
            got, _ = c.wait(published(version))
            single.append(got - sent)
        lint = statistics.median(single)

        seen = []
        for _ in range(200):
            last = keystroke()
        final = version
        while True:
            got, m = c.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")
            seen.append(m["params"]["version"])
            if m["params"]["version"] == final:
                break
        burst = got - last

        hovers = []
        for i in range(edits):
            keystroke()
            sent = time.perf_counter()
            c.send({"id": 1000 + i, "method": "textDocument/hover", "params": {
                "textDocument": {"uri": uri}, "position": {"line": item_line, "character": column}}})
            got, _ = c.wait(lambda m, k=1000 + i: m.get("id") == k)
            hovers.append(got - sent)
            c.wait(published(version))
        c.close()
    return {
        "file": os.path.basename(path),
        "lines": len(text.split("\n")),
        "edit_to_diagnostics_median_ms": round(1000 * lint, 1),
        "edit_to_diagnostics_max_ms": round(1000 * max(single), 1),
        "burst_200_last_keystroke_to_final_ms": round(1000 * burst, 1),
        "burst_200_in_lints": round(burst / lint, 2),
        "open_to_diagnostics_ms": round(1000 * min(full), 1),
        "burst_200_in_whole_lints": round(burst / min(full), 2),
        "burst_200_versions_published": len(seen),
        "hover_during_lint_median_ms": round(1000 * statistics.median(hovers), 2),
        "hover_during_lint_max_ms": round(1000 * max(hovers), 2),
    }


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--fxlint", default="build/fxlint")
    p.add_argument("--lines", type=int, nargs="+", default=[5000, 20000])
    p.add_argument("--edits", type=int, default=30)
    p.add_argument("--source", choices=["real", "generated"], default="real")
    p.add_argument("--workspace", help="a project directory: edit --file in it, with the project as workspace")
    p.add_argument("--file", help="with --workspace: the file to edit, relative to it")
    args = p.parse_args()
    fxlint = os.path.abspath(args.fxlint)
    if args.workspace:
        root = os.path.abspath(args.workspace)
        path = os.path.join(root, args.file)
        with open(path) as f:
            text = f.read()
        result = measure(fxlint, text, root, path, args.edits)
        result["workspace_files"] = sum(f.endswith(".py") for _, _, fs in os.walk(root) for f in fs)
        print(json.dumps(result))
        return
    for n in args.lines:
        text = real_source(n) if args.source == "real" else model_source(n)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "big.py")
            with open(path, "w") as f:
                f.write(text)
            print(json.dumps(measure(fxlint, text, d, path, args.edits)))


if __name__ == "__main__":
    main()

"""Latency of `fxlint server` through a raw JSON-RPC client, on generated model code.

    .venv/bin/python bench/lsp/bench_lsp.py [--fxlint build/fxlint] [--lines 5000 20000] [--edits 30]

For each file size it measures, on a file whose `forward` reaches every helper:

- edit -> diagnostics: one keystroke (a space that moves a flagged `.item()`), then the time
  until the diagnostics of that version are published; median and worst of N edits;
- a burst of 200 keystrokes sent back to back: the time from the last one to the diagnostics of
  the last version, against the time of one lint, and how many versions were published;
- hover while a lint runs: a keystroke, then at once a hover; the time until the hover answer.
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


def measure(fxlint, lines, edits):
    text = model_source(lines)
    item_line = text.split("\n").index("        n = x.sum().item()")
    with tempfile.TemporaryDirectory() as d:
        uri = "file://" + os.path.join(d, "big.py")
        c = Client(fxlint, d)
        c.send({"id": 0, "method": "initialize", "params": {"capabilities": {}}})
        c.wait(lambda m: m.get("id") == 0)
        c.send({"method": "initialized", "params": {}})
        c.send({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": text}}})
        published = lambda v: (lambda m: m.get("method") == "textDocument/publishDiagnostics"
                               and m["params"].get("version") == v)
        c.wait(published(1))
        version = 1
        at = {"line": item_line, "character": 8}

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
                "textDocument": {"uri": uri}, "position": {"line": item_line, "character": 20 + version}}})
            got, _ = c.wait(lambda m, k=1000 + i: m.get("id") == k)
            hovers.append(got - sent)
            c.wait(published(version))
        c.close()
    return {
        "lines": len(text.split("\n")),
        "edit_to_diagnostics_median_ms": round(1000 * lint, 1),
        "edit_to_diagnostics_max_ms": round(1000 * max(single), 1),
        "burst_200_last_keystroke_to_final_ms": round(1000 * burst, 1),
        "burst_200_in_lints": round(burst / lint, 2),
        "burst_200_versions_published": len(seen),
        "hover_during_lint_median_ms": round(1000 * statistics.median(hovers), 2),
        "hover_during_lint_max_ms": round(1000 * max(hovers), 2),
    }


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--fxlint", default="build/fxlint")
    p.add_argument("--lines", type=int, nargs="+", default=[5000, 20000])
    p.add_argument("--edits", type=int, default=30)
    args = p.parse_args()
    fxlint = os.path.abspath(args.fxlint)
    for n in args.lines:
        print(json.dumps(measure(fxlint, n, args.edits)))


if __name__ == "__main__":
    main()

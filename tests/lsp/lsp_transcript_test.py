"""`fxlint server` through a real client: JSON-RPC with Content-Length framing
over the server's stdin/stdout, as an editor speaks it.

Usage: .venv/bin/python lsp_transcript_test.py /path/to/fxlint
"""
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import unittest

FXLINT = os.environ.get("FXLINT", "")
TIMEOUT = 20.0
VERIFY_TIMEOUT = 180.0

# The emoji before `.item()` is two UTF-16 units but one character: the
# expected columns below only hold when the server counts UTF-16 units.
MODEL = (
    "import torch\n"
    "import torch.nn as nn\n"
    "\n"
    "\n"
    "class M(nn.Module):\n"
    "    def forward(self, x):\n"
    '        label = "\U0001F600"; peak = x.abs().max().item()\n'
    "        assert (x > 0).all()\n"
    "        return x / peak\n"
)
ITEM_RANGE = {"start": {"line": 6, "character": 29}, "end": {"line": 6, "character": 49}}


class Client:
    """A minimal LSP client: frames requests, collects every message the server sends."""

    def __init__(self, cwd):
        self.proc = subprocess.Popen(
            [FXLINT, "server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, cwd=cwd)
        self.messages = queue.Queue()
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            body = out.read(length)
            self.messages.put(json.loads(body.decode("utf-8")))

    def send_raw(self, body: bytes):
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def send(self, message):
        message = dict(message, jsonrpc="2.0")
        self.send_raw(json.dumps(message).encode("utf-8"))

    def notify(self, method, params=None):
        self.send({"method": method, "params": params if params is not None else {}})

    def request(self, method, params=None, timeout=TIMEOUT):
        request_id = self.next_id
        self.next_id += 1
        self.send({"id": request_id, "method": method, "params": params if params is not None else {}})
        return self.wait_for(lambda m: m.get("id") == request_id and "method" not in m, timeout)

    def wait_for(self, predicate, timeout=TIMEOUT):
        while True:
            message = self.messages.get(timeout=timeout)
            if message is None:
                raise AssertionError("the server closed its output")
            if predicate(message):
                return message

    def diagnostics_for(self, uri, version=None):
        """The next diagnostics published for `uri` (for that version of it, when given)."""
        return self.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                             and m["params"]["uri"] == uri
                             and (version is None or m["params"].get("version") == version))["params"]

    def finish(self):
        self.request("shutdown")
        self.notify("exit")
        return self.proc.wait(timeout=TIMEOUT)

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            stream.close()


def apply_edits(text, edits):
    """Applies LSP TextEdits (UTF-16 positions) to `text`, last first."""
    lines = text.split("\n")

    def offset(pos):
        line = lines[pos["line"]] if pos["line"] < len(lines) else ""
        before = sum(len(l) + 1 for l in lines[:pos["line"]])
        units = 0
        for i, ch in enumerate(line):
            if units >= pos["character"]:
                return before + i
            units += 2 if ord(ch) > 0xFFFF else 1
        return before + len(line)

    spans = sorted(((offset(e["range"]["start"]), offset(e["range"]["end"]), e["newText"]) for e in edits),
                   reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


class ServerTranscript(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "model.py")
        with open(self.path, "w", encoding="utf-8") as f:
            f.write(MODEL)
        self.uri = "file://" + self.path
        self.client = Client(self.dir.name)
        self.addCleanup(self.client.kill)
        self.addCleanup(self.dir.cleanup)

    def initialize(self):
        reply = self.client.request("initialize", {"processId": None, "rootUri": "file://" + self.dir.name,
                                                   "capabilities": {}})
        self.client.notify("initialized")
        return reply

    def open(self, text, version=1):
        self.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": self.uri, "languageId": "python", "version": version, "text": text}})
        return self.client.diagnostics_for(self.uri)

    def test_lint_edit_fix_and_exit(self):
        caps = self.initialize()["result"]["capabilities"]
        self.assertIn(caps["textDocumentSync"]["change"], (1, 2))
        self.assertEqual(set(caps["codeActionProvider"]["codeActionKinds"]),
                         {"quickfix", "source.fixAll.fxlint", "source.verify.fxlint"})
        self.assertEqual(caps["executeCommandProvider"]["commands"], ["fxlint.verify"])

        published = self.open(MODEL)
        item = [d for d in published["diagnostics"] if d["code"] == "FX101"]
        self.assertEqual(len(item), 1, published)
        self.assertEqual(item[0]["range"], ITEM_RANGE)
        self.assertEqual(item[0]["source"], "fxlint")
        self.assertEqual(item[0]["severity"], 1)

        # An incremental change that removes `.item()`: the FX101 goes away.
        self.client.notify("textDocument/didChange", {
            "textDocument": {"uri": self.uri, "version": 2},
            "contentChanges": [{"range": {"start": {"line": 6, "character": 42},
                                          "end": {"line": 6, "character": 49}}, "text": ""}]})
        after = self.client.diagnostics_for(self.uri, 2)
        self.assertEqual([d["code"] for d in after["diagnostics"]], ["FX104"])
        text = MODEL.replace(".max().item()", ".max()")

        # A full-text change that drops the assert as well: nothing is left.
        clean = text.replace("        assert (x > 0).all()\n", "")
        self.client.notify("textDocument/didChange", {
            "textDocument": {"uri": self.uri, "version": 3}, "contentChanges": [{"text": clean}]})
        self.assertEqual(self.client.diagnostics_for(self.uri, 3)["diagnostics"], [])

        # Back to the assert; ask for the fixes on its line and apply the quick fix.
        self.client.notify("textDocument/didChange", {
            "textDocument": {"uri": self.uri, "version": 4}, "contentChanges": [{"text": text}]})
        diags = self.client.diagnostics_for(self.uri, 4)["diagnostics"]
        self.assertEqual([d["code"] for d in diags], ["FX104"])
        self.assertEqual(diags[0]["data"]["applicability"], "safe")
        reply = self.client.request("textDocument/codeAction", {
            "textDocument": {"uri": self.uri},
            "range": {"start": {"line": 7, "character": 10}, "end": {"line": 7, "character": 10}},
            "context": {"diagnostics": diags}})
        actions = reply["result"]
        quick = [a for a in actions if a["kind"] == "quickfix"]
        self.assertEqual(len(quick), 1, actions)
        self.assertEqual(quick[0]["title"], diags[0]["data"]["title"])
        self.assertEqual(quick[0]["diagnostics"][0]["code"], "FX104")
        fixed = apply_edits(text, quick[0]["edit"]["changes"][self.uri])
        self.assertIn("        if not torch.fx._symbolic_trace.is_fx_symbolic_tracing():\n            assert (x > 0).all()\n", fixed)

        # The fix-all source action makes the same change.
        fix_all = [a for a in actions if a["kind"] == "source.fixAll.fxlint"]
        self.assertEqual(len(fix_all), 1, actions)
        self.assertEqual(apply_edits(text, fix_all[0]["edit"]["changes"][self.uri]), fixed)

        # The edited text lints clean.
        self.client.notify("textDocument/didChange", {
            "textDocument": {"uri": self.uri, "version": 5}, "contentChanges": [{"text": fixed}]})
        self.assertEqual(self.client.diagnostics_for(self.uri, 5)["diagnostics"], [])

        # Closing clears the document's diagnostics.
        self.client.notify("textDocument/didClose", {"textDocument": {"uri": self.uri}})
        self.assertEqual(self.client.diagnostics_for(self.uri)["diagnostics"], [])
        self.assertEqual(self.client.finish(), 0)

    def test_hover_shows_the_rule_documentation(self):
        caps = self.initialize()["result"]["capabilities"]
        self.assertTrue(caps["hoverProvider"])
        text = MODEL.replace("        return x / peak\n", "        return x / peak  # noqa: FX103\n")
        self.open(text)  # returns once the diagnostics are published

        def hover(line, character):
            return self.client.request("textDocument/hover", {
                "textDocument": {"uri": self.uri}, "position": {"line": line, "character": character}})["result"]

        # Inside the `.item()` diagnostic (a UTF-16 column past the emoji).
        on_item = hover(6, 45)
        self.assertEqual(on_item["contents"]["kind"], "markdown")
        self.assertTrue(on_item["contents"]["value"].startswith("# FX101 tensor-item"), on_item)
        # As `fxlint rule FX101` prints it: the severity per target under the title.
        self.assertIn("\n\nSeverity: fx2onnx error, dynamo error, export warning\n\n", on_item["contents"]["value"])
        self.assertEqual(on_item["range"], ITEM_RANGE)
        # On the code in a suppression comment.
        column = text.split("\n")[8].index("FX103") + 2
        on_code = hover(8, column)
        self.assertTrue(on_code["contents"]["value"].startswith("# FX103 tensor-condition"), on_code)
        self.assertEqual(on_code["range"]["start"], {"line": 8, "character": column - 2})
        # Nowhere near a diagnostic or a code: nothing.
        self.assertIsNone(hover(0, 3))
        self.assertEqual(self.client.finish(), 0)

    def test_garbage_gets_an_error_and_the_server_survives(self):
        self.initialize()
        self.client.send_raw(b"{this is not json")
        error = self.client.wait_for(lambda m: "error" in m)
        self.assertEqual(error["error"]["code"], -32700)
        self.assertIsNone(error["id"])

        reply = self.client.request("no/suchMethod", {})
        self.assertEqual(reply["error"]["code"], -32601)
        reply = self.client.request("textDocument/codeAction", {"textDocument": 7})
        self.assertEqual(reply["error"]["code"], -32602)
        # A broken header block is skipped; the next message is still read.
        self.client.proc.stdin.write(b"Content-Length: banana\r\n\r\n")
        self.client.proc.stdin.flush()

        published = self.open(MODEL)
        self.assertIn("FX101", [d["code"] for d in published["diagnostics"]])
        self.assertEqual(self.client.finish(), 0)

    def test_exit_without_shutdown_is_status_1(self):
        self.initialize()
        self.client.notify("exit")
        self.assertEqual(self.client.proc.wait(timeout=TIMEOUT), 1)

    def test_requests_before_initialize_are_refused(self):
        reply = self.client.request("textDocument/codeAction", {})
        self.assertEqual(reply["error"]["code"], -32002)
        self.initialize()
        self.assertEqual(self.client.finish(), 0)

    def test_config_file_settings_apply(self):
        with open(os.path.join(self.dir.name, "fxlint.toml"), "w") as f:
            f.write('ignore = ["FX101"]\n')
        self.initialize()
        codes = [d["code"] for d in self.open(MODEL)["diagnostics"]]
        self.assertNotIn("FX101", codes)
        self.assertIn("FX104", codes)
        self.assertEqual(self.client.finish(), 0)

    def test_files_the_config_excludes_get_no_diagnostics(self):
        with open(os.path.join(self.dir.name, "fxlint.toml"), "w") as f:
            f.write('extend-exclude = ["generated"]\n')
        os.mkdir(os.path.join(self.dir.name, "generated"))
        self.uri = "file://" + os.path.join(self.dir.name, "generated", "model.py")
        self.initialize()
        self.assertEqual(self.open(MODEL)["diagnostics"], [])
        self.assertEqual(self.client.finish(), 0)

    def test_open_documents_are_linted_together(self):
        # A helper is a compile region only because a forward in another open
        # file calls it; module names come from the package layout on disk.
        pkg = os.path.join(self.dir.name, "pkg")
        os.mkdir(pkg)
        open(os.path.join(pkg, "__init__.py"), "w").close()
        helper_uri = "file://" + os.path.join(pkg, "helpers.py")
        model_uri = "file://" + os.path.join(pkg, "model.py")
        self.initialize()
        self.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": helper_uri, "languageId": "python", "version": 1,
            "text": "import torch\n\n\ndef to_number(t: torch.Tensor):\n    return t.item()\n"}})
        self.assertEqual(self.client.diagnostics_for(helper_uri)["diagnostics"], [])
        self.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": model_uri, "languageId": "python", "version": 1,
            "text": "import torch\n\nfrom .helpers import to_number\n\n\nclass Net(torch.nn.Module):\n"
                    "    def forward(self, x):\n        return to_number(x)\n"}})
        helper = self.client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                                      and m["params"]["uri"] == helper_uri
                                      and m["params"]["diagnostics"])["params"]["diagnostics"]
        self.assertEqual([d["code"] for d in helper], ["FX101"])
        self.assertEqual(helper[0]["range"]["start"], {"line": 4, "character": 11})
        self.assertEqual(self.client.finish(), 0)


HELPER = "import torch\n\n\ndef to_number(t: torch.Tensor):\n    return t.item()\n"
CALLER = ("import torch\n\nfrom .helpers import to_number\n\n\nclass Net(torch.nn.Module):\n"
          "    def forward(self, x):\n        return to_number(x)\n")


class Workspace(unittest.TestCase):
    """Files that are not open take part in the analysis, and changes on disk reach it."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.pkg = os.path.join(self.dir.name, "pkg")
        os.mkdir(self.pkg)
        open(os.path.join(self.pkg, "__init__.py"), "w").close()
        self.write("pkg/helpers.py", HELPER)
        self.write("pkg/model.py", CALLER)
        self.helper_uri = "file://" + os.path.join(self.pkg, "helpers.py")
        self.client = Client(self.dir.name)
        self.addCleanup(self.client.kill)
        self.addCleanup(self.dir.cleanup)

    def write(self, relative, text):
        with open(os.path.join(self.dir.name, relative), "w", encoding="utf-8") as f:
            f.write(text)

    def watched(self, relative, change_type):
        self.client.notify("workspace/didChangeWatchedFiles", {"changes": [
            {"uri": "file://" + os.path.join(self.dir.name, relative), "type": change_type}]})

    def helper_codes(self):
        return [d["code"] for d in self.client.diagnostics_for(self.helper_uri)["diagnostics"]]

    def test_a_caller_on_disk_makes_the_open_helper_compiled_and_changes_on_disk_follow(self):
        self.client.request("initialize", {"processId": None, "rootUri": "file://" + self.dir.name, "capabilities": {
            "workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}}}})
        self.client.notify("initialized")
        registration = self.client.wait_for(lambda m: m.get("method") == "client/registerCapability")
        self.client.send({"id": registration["id"], "result": None})
        watchers = registration["params"]["registrations"][0]["registerOptions"]["watchers"]
        self.assertIn({"globPattern": "**/*.py"}, watchers)
        self.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": self.helper_uri, "languageId": "python", "version": 1, "text": HELPER}})
        # model.py is not open: its forward calls the helper from disk.
        self.assertEqual(self.helper_codes(), ["FX101"])
        # The caller changes on disk: the helper is no longer compiled.
        self.write("pkg/model.py", CALLER.replace("return to_number(x)", "return x"))
        self.watched("pkg/model.py", 2)
        self.assertEqual(self.helper_codes(), [])
        # A new file calls it again.
        self.write("pkg/other.py", CALLER)
        self.watched("pkg/other.py", 1)
        self.assertEqual(self.helper_codes(), ["FX101"])
        # A config that excludes the new file takes it out of the workspace.
        self.write("fxlint.toml", 'exclude = ["pkg/other.py"]\n')
        self.watched("fxlint.toml", 1)
        self.assertEqual(self.helper_codes(), [])
        # Deleted: the file is gone from the analysis.
        os.remove(os.path.join(self.dir.name, "fxlint.toml"))
        self.watched("fxlint.toml", 3)
        self.assertEqual(self.helper_codes(), ["FX101"])
        os.remove(os.path.join(self.pkg, "other.py"))
        self.watched("pkg/other.py", 3)
        self.assertEqual(self.helper_codes(), [])
        self.assertEqual(self.client.finish(), 0)

    def test_without_file_watching_no_registration_is_asked_and_a_save_rereads_the_file(self):
        self.client.request("initialize", {"processId": None, "rootUri": "file://" + self.dir.name,
                                           "capabilities": {}})
        self.client.notify("initialized")
        model_uri = "file://" + os.path.join(self.pkg, "model.py")
        self.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": self.helper_uri, "languageId": "python", "version": 1, "text": HELPER}})
        self.assertEqual(self.helper_codes(), ["FX101"])
        # The editor edits and saves the caller: the saved file on disk is read again.
        self.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": model_uri, "languageId": "python", "version": 1, "text": CALLER}})
        edited = CALLER.replace("return to_number(x)", "return x")
        self.client.notify("textDocument/didChange", {"textDocument": {"uri": model_uri, "version": 2},
                                                      "contentChanges": [{"text": edited}]})
        self.assertEqual(self.helper_codes(), [])
        self.write("pkg/model.py", edited)
        self.client.notify("textDocument/didSave", {"textDocument": {"uri": model_uri}})
        self.client.notify("textDocument/didClose", {"textDocument": {"uri": model_uri}})
        # Closed, the caller on disk no longer calls the helper either.
        self.client.request("textDocument/hover", {"textDocument": {"uri": self.helper_uri},
                                                   "position": {"line": 0, "character": 0}})
        self.assertTrue(all(m.get("method") != "client/registerCapability" for m in self.drain()))
        self.assertEqual(self.client.finish(), 0)

    def drain(self):
        out = []
        while True:
            try:
                out.append(self.client.messages.get(timeout=0.5))
            except queue.Empty:
                return out


NET = """\
import torch


class Net(torch.nn.Module):
    def forward(self, x):
        y = x * 2
        if y.sum() > 0:
            y = y + 1
        return y
"""


class RuntimeVerification(unittest.TestCase):
    """`fxlint.verify` runs a config's target through a real compiler from the editor."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        with open(os.path.join(self.dir.name, "net.py"), "w") as f:
            f.write(NET)
        with open(os.path.join(self.dir.name, "pyproject.toml"), "w") as f:
            f.write('[tool.fxlint.verify]\nbackend = "dynamo"\n\n'
                    '[[tool.fxlint.verify.targets]]\ntarget = "net.py:Net"\ninputs = ["float32[2,3]"]\n')
        probe = subprocess.run([FXLINT, "verify", "--backend", "dynamo", "net.py:Net", "float32[2,3]"],
                               cwd=self.dir.name, capture_output=True, text=True)
        if probe.returncode not in (0, 1):
            self.skipTest("fxlint verify cannot run here: " + (probe.stderr or probe.stdout).strip()[:200])
        self.client = Client(self.dir.name)
        self.addCleanup(self.client.kill)

    def test_a_dynamo_break_is_published_beside_the_static_finding(self):
        uri = "file://" + os.path.join(self.dir.name, "net.py")
        self.client.request("initialize", {"processId": None, "rootUri": "file://" + self.dir.name,
                                           "capabilities": {}})
        self.client.notify("initialized")
        self.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": NET}})
        static = self.client.diagnostics_for(uri)["diagnostics"]
        self.assertEqual([d["code"] for d in static], ["FX103"])
        actions = self.client.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": {"start": {"line": 3, "character": 7}, "end": {"line": 3, "character": 7}},
            "context": {"diagnostics": [], "only": ["source.verify.fxlint"]}})["result"]
        self.assertEqual([a["title"] for a in actions], ["Verify Net with dynamo"])
        command = actions[0]["command"]
        # The command runs `fxlint verify`, which starts Python, imports torch and runs Dynamo.
        reply = self.client.request("workspace/executeCommand",
                                    {"command": command["command"], "arguments": command["arguments"]},
                                    timeout=VERIFY_TIMEOUT)
        self.assertEqual(reply["result"]["passed"], False, reply)
        self.assertEqual(reply["result"]["findings"], 1, reply)
        published = self.client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                                         and len(m["params"]["diagnostics"]) == 2)["params"]["diagnostics"]
        runtime = [d for d in published if d["source"] == "fxlint verify (dynamo)"]
        self.assertEqual(len(runtime), 1)
        self.assertEqual(runtime[0]["code"], "FX103")
        self.assertEqual(runtime[0]["range"]["start"], {"line": 6, "character": 8})
        self.assertEqual(runtime[0]["relatedInformation"][0]["location"]["range"], static[0]["range"])
        # An edit makes the runtime result stale: only the static finding stays.
        self.client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                                      "contentChanges": [{"text": NET + "\n"}]})
        after = self.client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                                     and len(m["params"]["diagnostics"]) == 1)["params"]["diagnostics"]
        self.assertEqual(after[0]["source"], "fxlint")
        self.assertEqual(self.client.finish(), 0)


def big_model():
    """The latency benchmark's model: about 18,000 lines, every helper reached from a forward."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "lsp"))
    from bench_lsp import model_source
    return model_source(20000)


class Concurrency(unittest.TestCase):
    """Input is read while a lint runs: edits merge, hover does not wait, requests can be cancelled."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.uri = "file://" + os.path.join(self.dir.name, "big.py")
        self.text = big_model()
        self.item_line = self.text.split("\n").index("        n = x.sum().item()")
        self.client = Client(self.dir.name)
        self.client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        self.client.notify("initialized")
        self.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": self.uri, "languageId": "python", "version": 1, "text": self.text}})
        self.assertEqual([d["code"] for d in self.client.diagnostics_for(self.uri)["diagnostics"]], ["FX101"])

    def tearDown(self):
        self.client.kill()
        self.dir.cleanup()

    def indent(self, version):
        """Moves the `.item()` one column right: every version has its own diagnostics."""
        at = {"line": self.item_line, "character": 8}
        self.client.notify("textDocument/didChange", {
            "textDocument": {"uri": self.uri, "version": version},
            "contentChanges": [{"range": {"start": at, "end": at}, "text": " "}]})

    def test_a_burst_of_edits_is_linted_once_at_its_end(self):
        for version in range(2, 202):
            self.indent(version)
        published = []
        while True:
            params = self.client.diagnostics_for(self.uri)
            published.append(params["version"])
            if params["version"] == 201:
                break
        # The last text is linted; the 199 before it are merged away, not linted one by one.
        self.assertLess(len(published), 20, published)
        column = params["diagnostics"][0]["range"]["start"]["character"]
        self.assertEqual(column, 12 + 200)
        self.assertEqual(self.client.finish(), 0)

    def test_hover_is_answered_while_a_lint_runs(self):
        # A keystroke starts a lint of some 100 ms; a hover sent right after it is
        # answered from the last finished lint, before that lint is published. Tried
        # three times, so that one moment of a loaded machine starving the reader
        # thread for a whole lint does not decide it.
        answered_first = []
        for attempt, version in enumerate((2, 3, 4)):
            self.indent(version)
            request_id = 50 + attempt
            self.client.send({"id": request_id, "method": "textDocument/hover", "params": {
                "textDocument": {"uri": self.uri}, "position": {"line": self.item_line, "character": 14}}})
            seen = []
            while True:
                m = self.client.wait_for(lambda m: True)
                seen.append(m)
                if m.get("id") == request_id:
                    break
            self.assertIn("FX101", json.dumps(m["result"]))
            answered_first.append(version not in [x["params"].get("version") for x in seen
                                                  if x.get("method") == "textDocument/publishDiagnostics"])
            if version not in [x["params"].get("version") for x in seen if "method" in x]:
                self.assertEqual(self.client.diagnostics_for(self.uri)["version"], version)
        self.assertTrue(any(answered_first), answered_first)
        self.assertEqual(self.client.finish(), 0)

    def test_hover_right_after_the_text_shrank_reads_the_linted_text(self):
        # The last finished lint's diagnostics point far past the end of the new text.
        self.client.notify("textDocument/didChange", {
            "textDocument": {"uri": self.uri, "version": 2}, "contentChanges": [{"text": "x = 1\n"}]})
        self.client.send({"id": 60, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": self.uri}, "position": {"line": self.item_line, "character": 14}}})
        # The reply and the new diagnostics, in whichever order they come.
        reply, published = None, None
        while reply is None or published is None:
            m = self.client.wait_for(lambda m: True)
            if m.get("id") == 60:
                reply = m
            elif m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == 2:
                published = m["params"]["diagnostics"]
        self.assertIn("result", reply)
        self.assertEqual(published, [])
        self.assertEqual(self.client.finish(), 0)

    def test_a_code_action_waiting_for_its_lint_can_be_cancelled(self):
        # The edit, the request and its cancellation arrive together, well within one
        # lint: the request is cancelled while it waits. Tried three times, as above.
        at = {"line": self.item_line, "character": 8}
        errors = []
        for attempt, version in enumerate((2, 3, 4)):
            request_id = 77 + attempt
            burst = b""
            for message in (
                    {"method": "textDocument/didChange", "params": {
                        "textDocument": {"uri": self.uri, "version": version},
                        "contentChanges": [{"range": {"start": at, "end": at}, "text": " "}]}},
                    {"id": request_id, "method": "textDocument/codeAction", "params": {
                        "textDocument": {"uri": self.uri}, "range": {"start": at, "end": at},
                        "context": {"diagnostics": []}}},
                    {"method": "$/cancelRequest", "params": {"id": request_id}}):
                body = json.dumps(dict(message, jsonrpc="2.0")).encode("utf-8")
                burst += b"Content-Length: %d\r\n\r\n" % len(body) + body
            self.client.proc.stdin.write(burst)
            self.client.proc.stdin.flush()
            reply = self.client.wait_for(lambda m, r=request_id: m.get("id") == r and "method" not in m)
            errors.append(reply.get("error", {}).get("code"))
            if errors[-1] == -32800:
                break
        self.assertIn(-32800, errors)
        self.assertEqual(self.client.finish(), 0)


class Robustness(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.uri = "file://" + os.path.join(self.dir.name, "m.py")
        self.client = Client(self.dir.name)
        self.client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        self.client.notify("initialized")

    def tearDown(self):
        self.client.kill()
        self.dir.cleanup()

    def test_a_lone_surrogate_escape_does_not_lose_the_document(self):
        # What JSON.stringify writes for a string holding half a surrogate pair.
        text = 'import torch\n\n\n@torch.compile\ndef f(x: torch.Tensor):\n    s = "LONE"\n    return x.item()\n'
        body = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": self.uri, "languageId": "python", "version": 1, "text": text}}})
        body = body.replace("LONE", "\\udc80")
        self.client.send_raw(body.encode("utf-8"))
        diagnostics = self.client.diagnostics_for(self.uri)["diagnostics"]
        self.assertEqual([d["code"] for d in diagnostics], ["FX101"])
        self.assertEqual(self.client.finish(), 0)

    def test_changes_after_shutdown_are_not_linted(self):
        self.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": self.uri, "languageId": "python", "version": 1, "text": "x = 1\n"}})
        self.client.diagnostics_for(self.uri)
        self.client.request("shutdown")
        self.client.notify("textDocument/didChange", {
            "textDocument": {"uri": self.uri, "version": 2},
            "contentChanges": [{"text": "import torch\n\n\n@torch.compile\ndef f(x):\n    return x.item()\n"}]})
        self.client.notify("exit")
        self.assertEqual(self.client.proc.wait(timeout=TIMEOUT), 0)
        rest = []
        while True:
            m = self.client.messages.get(timeout=TIMEOUT)
            if m is None:
                break
            rest.append(m)
        self.assertEqual([m for m in rest if m.get("method") == "textDocument/publishDiagnostics"], [])

    def test_a_closed_output_ends_the_server_without_a_signal(self):
        # The editor went away: the read end of the server's output is closed before it writes.
        proc = subprocess.Popen([FXLINT, "server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, cwd=self.dir.name)
        proc.stdout.close()
        for message in ({"id": 1, "method": "initialize", "params": {"capabilities": {}}},
                        {"method": "initialized", "params": {}}):
            body = json.dumps(dict(message, jsonrpc="2.0")).encode("utf-8")
            proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        proc.stdin.flush()
        status = proc.wait(timeout=TIMEOUT)
        proc.stdin.close()
        self.assertGreaterEqual(status, 0, "killed by a signal")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        FXLINT = os.path.abspath(sys.argv.pop(1))
    if not FXLINT:
        sys.exit("usage: lsp_transcript_test.py /path/to/fxlint")
    unittest.main()

"""The server through a real editor: Neovim's built-in LSP client (headless).

    python tests/lsp/neovim_client_test.py /path/to/fxlint

What Neovim shows must be what the command line says: the diagnostics of the
opened file equal `fxlint check` of the project (its caller is not open), they
follow typing, hover shows the rule, and "fix all" gives `fxlint fix --apply`.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

FXLINT = None
HERE = os.path.dirname(os.path.abspath(__file__))

HELPERS = '''\
import logging

import torch

log = logging.getLogger(__name__)


def to_number(t: torch.Tensor):
    print("converting", t.shape)
    return t.item()
'''
MODEL = '''\
import torch

from .helpers import to_number


class Net(torch.nn.Module):
    def forward(self, x):
        return to_number(x)
'''


def check(fxlint, root, path):
    """(code, 0-based line, 0-based column) of `fxlint check` for `path`, in the project at `root`."""
    out = subprocess.run([fxlint, "check", "--output-format", "json", "--exit-zero", "."], cwd=root,
                         capture_output=True, text=True, check=True).stdout
    return sorted((d["code"], d["location"]["row"] - 1, d["location"]["column"] - 1) for d in json.loads(out)
                  if os.path.realpath(os.path.join(root, d["filename"])) == os.path.realpath(path))


@unittest.skipIf(shutil.which("nvim") is None, "Neovim is not installed (scripts/setup.sh installs it)")
class Neovim(unittest.TestCase):
    def test_a_session_in_neovim_matches_the_command_line(self):
        with tempfile.TemporaryDirectory() as root:
            pkg = os.path.join(root, "pkg")
            os.mkdir(pkg)
            open(os.path.join(pkg, "__init__.py"), "w").close()
            helpers = os.path.join(pkg, "helpers.py")
            with open(helpers, "w") as f:
                f.write(HELPERS)
            with open(os.path.join(pkg, "model.py"), "w") as f:
                f.write(MODEL)
            out = os.path.join(root, "result.json")
            env = dict(os.environ, FXLINT=FXLINT, ROOT=root, FILE=helpers, OUT=out, HOME=root,
                       XDG_CONFIG_HOME=root, XDG_DATA_HOME=root, XDG_STATE_HOME=root)
            subprocess.run(["nvim", "--headless", "--clean", "-u", "NONE", "-c",
                            "luafile " + os.path.join(HERE, "neovim_session.lua")],
                           cwd=root, env=env, timeout=120, check=True, capture_output=True)
            with open(out) as f:
                result = json.load(f)
            self.assertNotIn("error", result)
            shown = lambda step: sorted((d["code"], d["line"], d["col"]) for d in result["steps"][step])

            # Opened alone: the caller on disk makes it compiled code, as for `fxlint check`.
            self.assertEqual(shown("opened"), check(FXLINT, root, helpers))
            self.assertEqual({c for c, _, _ in shown("opened")}, {"FX101", "FX501"})
            self.assertTrue(all(d["source"] == "fxlint" for d in result["steps"]["opened"]))

            # After typing, the editor's text checked on the command line gives the same.
            with open(helpers, "w") as f:
                f.write(result["edited_text"])
            self.assertEqual(shown("edited"), check(FXLINT, root, helpers))
            self.assertIn("FX", result["hover"])

            # Fix all gives what `fxlint fix --apply` gives for the same text.
            self.assertTrue(result["fix_all"])
            subprocess.run([FXLINT, "fix", "--apply", "."], cwd=root, capture_output=True)
            with open(helpers) as f:
                self.assertEqual(result["fixed_text"], f.read())


if __name__ == "__main__":
    FXLINT = os.path.abspath(sys.argv.pop(1))
    unittest.main()

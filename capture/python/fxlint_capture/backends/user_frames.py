"""Which frames of a stack are the user's: not torch's, not this package's, not
the standard library's, and not code compiled from a string. A compiler's error
or graph break is reported at the innermost user frame, where the user can act."""

import importlib.util
import linecache
import os
import sysconfig
import traceback

# Packages whose frames are the compilers' own (the ONNX exporter runs onnxscript
# and onnx; torch.export reasons with sympy).
_TOOL_PACKAGES = ("torch", "onnxscript", "onnx", "onnxruntime", "sympy", "fxlint_capture")
_internal_dirs = None


def _package_dir(name):
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return os.path.realpath(list(spec.submodule_search_locations)[0]) + os.sep


def _dirs():
    global _internal_dirs
    if _internal_dirs is None:
        tools = [d for d in (_package_dir(n) for n in _TOOL_PACKAGES) if d]
        stdlib = {os.path.realpath(sysconfig.get_paths()[k]) + os.sep for k in ("stdlib", "platstdlib")}
        _internal_dirs = (tools, sorted(stdlib))
    return _internal_dirs


def is_user_file(filename):
    """Whether a frame in `filename` is user code (a third-party library other
    than the compilers' own counts as user code: its source is what breaks)."""
    if not filename or filename.startswith("<"):
        return False
    path = os.path.realpath(filename)
    tools, stdlib = _dirs()
    if any(path.startswith(d) for d in tools):
        return False
    for d in stdlib:
        if path.startswith(d):
            rest = path[len(d):]
            return "site-packages" in rest or "dist-packages" in rest
    return True


def frame_json(filename, lineno, name, line=None):
    if line is None:
        line = linecache.getline(filename, lineno or 0)
    return {"filename": filename, "lineno": lineno or 0, "name": name, "line": (line or "").strip()}


def user_stack(frames):
    """`frames` (traceback.FrameSummary, outermost first) as the capture's
    `user_stack` JSON: the user's frames only, outermost first."""
    out = []
    for f in frames or ():
        if is_user_file(f.filename):
            out.append(frame_json(f.filename, f.lineno, f.name, f.line))
    return out


def _exception_chain(exc):
    """`exc` and the exceptions it was raised from, outermost first, each once."""
    seen, out = set(), []
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        out.append(exc)
        exc = exc.__cause__ or (None if exc.__suppress_context__ else exc.__context__)
    return out


def exception_user_stack(exc):
    """The user's frames where `exc` arose: Dynamo's stack of the code it was
    tracing when it has one (strict export, Dynamo), else the traceback's user
    frames; the innermost exception of the chain that has any wins."""
    for e in reversed(_exception_chain(exc)):
        stack = user_stack(getattr(e, "real_stack", None))
        if not stack:
            stack = user_stack(traceback.extract_tb(e.__traceback__))
        if stack:
            return stack
    return []


"""What the user sees of interpreted code outside the capture: generators made
by interpreted code are real generator objects, and exceptions raised in
interpreted code carry a traceback entry for each interpreted frame.

Interpreted frames are not CPython frames. A traceback entry needs a real
frame, so each one is made by running a two-line stub compiled with the
user's file name, function name and line (the way template engines such as
Jinja2 map errors back to template lines); the stubs are cached per place.
"""

_STUBS = {}


def _stub(filename, lineno, name):
    key = (filename, lineno, name)
    code = _STUBS.get(key)
    if code is None:
        source = "\n" * max(lineno - 1, 0) + "raise __fxlint_exc__"
        code = compile(source, filename, "exec")
        code = code.replace(co_name=name)
        _STUBS[key] = code
    return code


class _Marker(Exception):
    pass


def prepend_frame(tb, filename, lineno, name):
    """A traceback entry at filename:lineno in `name`, followed by `tb`."""
    try:
        exec(_stub(filename, lineno, name), {"__fxlint_exc__": _Marker, "__name__": name})
    except _Marker as e:
        entry = e.__traceback__.tb_next  # the stub's frame (the first entry is this function's)
    if entry is None:
        return tb
    entry.tb_next = tb
    return entry


def _delegate(inner):
    return (yield from inner)


def as_generator(inner, name, qualname):
    """A real generator object (inspect.isgenerator) that runs `inner`, the
    interpreted generator: next(), send(), throw() and close() reach it."""
    gen = _delegate(inner)
    gen.__name__ = name
    gen.__qualname__ = qualname
    return gen

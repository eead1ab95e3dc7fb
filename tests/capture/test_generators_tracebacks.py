"""Generators made by captured code behave as CPython's, and exceptions raised
in captured code keep the user's frames in their tracebacks."""

import inspect
import traceback

import pytest
import torch

import fxlint_capture

HERE = __file__


def test_close_runs_finally_blocks():
    log = []

    def gen(x):
        try:
            yield x * 2
            yield x * 3
        finally:
            log.append("finally")

    def user(x):
        g = gen(x)
        first = next(g)
        g.close()
        return first + 1

    report = fxlint_capture.explain(user)(torch.ones(2))
    assert log == ["finally"]
    assert torch.equal(report.result, torch.full((2,), 3.0))
    assert report.replays[0]["ok"]


def test_close_of_an_escaped_generator_runs_its_with_exit():
    log = []

    class Ctx:
        def __enter__(self):
            log.append("enter")

        def __exit__(self, *exc):
            log.append(("exit", exc[0].__name__ if exc[0] else None))

    def gen(x):
        with Ctx():
            yield x
            yield x + 1

    def user(x):
        return gen(x)

    report = fxlint_capture.explain(user)(torch.zeros(1))
    g = report.result
    assert inspect.isgenerator(g)
    assert next(g).item() == 0.0
    g.close()
    assert log == ["enter", ("exit", "GeneratorExit")]
    with pytest.raises(StopIteration):
        next(g)


def test_generator_ignoring_generator_exit_is_an_error():
    def stubborn():
        while True:
            try:
                yield 1
            except GeneratorExit:
                pass

    def user(x):
        g = stubborn()
        next(g)
        try:
            g.close()
        except RuntimeError as e:
            return x, str(e)
        return x, ""

    report = fxlint_capture.explain(user)(torch.ones(1))
    assert report.result[1] == "generator ignored GeneratorExit"


def test_throw_reaches_the_handler_at_the_yield():
    def gen():
        try:
            yield 1
        except KeyError as e:
            yield f"caught {e.args[0]}"

    def user(x):
        g = gen()
        next(g)
        return x, g.throw(KeyError("k"))

    report = fxlint_capture.explain(user)(torch.ones(1))
    assert report.result[1] == "caught k"


def test_stop_iteration_inside_a_generator_becomes_runtime_error():
    def gen():
        yield 1
        raise StopIteration("early")

    def user(x):
        return x + len(list(gen()))

    with pytest.raises(RuntimeError, match="generator raised StopIteration") as captured:
        fxlint_capture.explain(user)(torch.ones(1))
    with pytest.raises(RuntimeError, match="generator raised StopIteration") as eager:
        user(torch.ones(1))
    assert type(captured.value.__cause__) is type(eager.value.__cause__) is StopIteration


def test_generators_are_generators():
    def gen(x):
        yield x

    def user(x):
        g = gen(x)
        return inspect.isgenerator(g), g

    report = fxlint_capture.explain(user)(torch.ones(1))
    is_gen, g = report.result
    assert is_gen is True and inspect.isgenerator(g)
    assert g.__name__ == "gen" and g.__qualname__ == "test_generators_are_generators.<locals>.gen"
    assert [t.item() for t in g] == [1.0]


def _user_frames(exc):
    return [(f.name, f.line) for f in traceback.extract_tb(exc.__traceback__) if f.filename == HERE]


def _raising_helper(t):
    if t.sum() > -100:
        raise ValueError("bad value")
    return t


def _raising_outer(x):
    y = x * 2
    return _raising_helper(y)


def _torch_error(x):
    return x @ x


def test_traceback_keeps_the_user_frames():
    with pytest.raises(ValueError) as eager:
        _raising_outer(torch.ones(3))
    with pytest.raises(ValueError) as captured:
        fxlint_capture.explain(_raising_outer)(torch.ones(3))
    expected = _user_frames(eager.value)
    got = _user_frames(captured.value)
    # The eager traceback: this test, _raising_outer, _raising_helper; under capture the
    # test calls explain() first, then the same user frames follow.
    assert got[-2:] == expected[-2:] == [("_raising_outer", "return _raising_helper(y)"),
                                        ("_raising_helper", 'raise ValueError("bad value")')]
    innermost = traceback.extract_tb(captured.value.__traceback__)[-1]
    assert innermost.filename == HERE and innermost.name == "_raising_helper"


def test_traceback_of_a_torch_error_goes_through_the_user_line():
    with pytest.raises(RuntimeError) as captured:
        fxlint_capture.explain(_torch_error)(torch.ones(2, 3))
    assert _user_frames(captured.value)[-1] == ("_torch_error", "return x @ x")


def test_exception_caught_inside_captured_code_is_unchanged():
    def catches(x):
        try:
            _raising_helper(x)
        except ValueError as e:
            return x + len(str(e))

    report = fxlint_capture.explain(catches)(torch.zeros(1))
    assert report.result.item() == len("bad value")

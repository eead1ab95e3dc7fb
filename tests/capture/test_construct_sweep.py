"""Python constructs run eagerly and under capture: the result, the exception
(type, message and the user's frames), the side effects on state passed in,
and the replay of every captured graph all match."""

import collections
import contextlib
import copy
import dataclasses
import functools
import inspect
import traceback
import typing

import pytest
import torch
import torch.nn as nn

import fxlint_capture

COUNTER = [0]


class Pair(typing.NamedTuple):
    a: torch.Tensor
    b: torch.Tensor


@dataclasses.dataclass
class Out:
    y: torch.Tensor
    extra: dict


class ModelOutputLike(collections.OrderedDict):
    """transformers.ModelOutput's shape: an OrderedDict whose items are also attributes."""

    def __init__(self, **kw):
        super().__init__(**kw)
        for k, v in kw.items():
            object.__setattr__(self, k, v)

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        object.__setattr__(self, key, value)


class Shape:
    def __init__(self, scale):
        self.scale = scale

    @property
    def double(self):
        return self.scale * 2

    @staticmethod
    def shift(t):
        return t + 1

    @classmethod
    def make(cls):
        return cls(3)

    def __call__(self, t):
        return t * self.scale


class Base(nn.Module):
    def forward(self, x):
        return x + 1


class Child(Base):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)

    def forward(self, x):
        return super().forward(self.lin(x)) * 2


def _gen(x):
    try:
        for i in range(3):
            yield x * i
    finally:
        COUNTER[0] += 1


def _fact(t, n):
    return t if n <= 1 else n * _fact(t, n - 1)


def _raise_inner(t):
    raise KeyError(f"missing {t.shape[0]}")


def _with_kwargs(t, *args, scale=1.0, **kw):
    kw.pop("unused", None)
    return t * scale + sum(args) + kw.get("bias", 0.0)


@contextlib.contextmanager
def _managed(state):
    state["entered"] = state.get("entered", 0) + 1
    try:
        yield 2
    finally:
        state["exited"] = state.get("exited", 0) + 1


def c_closure(x, state):
    k = 3

    def inner(t):
        return t * k

    return inner(x) + (lambda t: t - k)(x)


def c_nonlocal(x, state):
    total = x * 0

    def add(t):
        nonlocal total
        total = total + t

    add(x)
    add(x * 2)
    return total


def c_try_finally(x, state):
    try:
        y = x * 2
        return y
    finally:
        state["finally"] = True


def c_try_except_else(x, state):
    try:
        y = x + 1
    except ValueError:
        y = x
    else:
        y = y * 2
    return y


def c_raise_caught(x, state):
    try:
        _raise_inner(x)
    except KeyError as e:
        return x + len(e.args[0])


def c_raise_uncaught(x, state):
    y = x * 2
    return _raise_inner(y)


def c_raise_from(x, state):
    try:
        raise ValueError("first")
    except ValueError as e:
        raise RuntimeError("second") from e


def c_context_manager(x, state):
    with _managed(state) as k:
        y = x * k
    return y


def c_no_grad(x, state):
    with torch.no_grad():
        y = x * 2
    return y + 1


def c_dataclass(x, state):
    return Out(y=x.relu(), extra={"n": 1, "t": x + 1})


def c_namedtuple(x, state):
    p = Pair(x, x * 2)
    return Pair(p.b, p.a + p.b)


def c_model_output(x, state):
    out = ModelOutputLike(logits=x * 2)
    out["hidden"] = x.sin()
    return out


def c_return_types(x, state):
    return torch.sort(x, dim=-1)


def c_recursion(x, state):
    return _fact(x, 4)


def c_comprehensions(x, state):
    rows = [r * i for i, r in enumerate(x)]
    squares = {i: i * i for i in range(3)}
    evens = {i for i in range(6) if i % 2 == 0}
    return torch.stack(rows).sum(0) + sum(squares.values()) + len(evens)


def c_generator(x, state):
    return sum(_gen(x))


def c_generator_expression(x, state):
    return sum(t * 2 for t in (x, x + 1))


def c_kwargs(x, state):
    return _with_kwargs(x, 1.0, 2.0, scale=2.0, bias=0.5, unused=True)


def c_star_unpacking(x, state):
    first, *rest = [x, x * 2, x * 3]
    args = (x, 2.0)
    return torch.mul(*args) + first + rest[-1]


def c_match(x, state):
    match (x, 2):
        case (t, k):
            return t * k


def c_while_break_continue(x, state):
    i = 0
    while True:
        i += 1
        if i == 2:
            continue
        x = x + i
        if i > 4:
            break
    return x


def c_walrus_ternary_chained(x, state):
    n = x.shape[0]
    y = x * 2 if (m := n + 1) > 2 else x
    return y + m if 0 < n < 10 else y


def c_methods(x, state):
    s = Shape.make()
    return s(x) + Shape.shift(x) * s.double


def c_inheritance(x, state):
    torch.manual_seed(0)
    return Child()(x)


def c_hook(x, state):
    torch.manual_seed(0)
    lin = nn.Linear(3, 3)
    lin.register_forward_hook(lambda mod, args, out: out * 2)
    return lin(x)


def c_partial(x, state):
    f = functools.partial(torch.add, alpha=2)
    return f(x, x)


def c_global_mutation(x, state):
    COUNTER[0] += 1
    return x + 1


def c_state_mutation(x, state):
    state["calls"] = state.get("calls", 0) + 1
    state.setdefault("log", []).append("called")
    return x * 2


def c_fresh_containers(x, state):
    base = state.setdefault("sizes", [1, 2])
    local = base.copy()
    local.append(3)
    also = base[:]
    also.pop()
    return x * len(local) + len(also)


def c_sorted_key(x, state):
    parts = [x * 3, x, x * 2]
    return torch.stack(sorted(parts, key=lambda t: t.sum().item()))


def c_isinstance_type(x, state):
    if isinstance(x, torch.Tensor) and type(x) is torch.Tensor:
        return x + 1
    return x


def c_string_formatting(x, state):
    name = f"layer_{x.shape[0]}_{x.dtype}"
    return x * len(name)


def c_assert(x, state):
    assert x.shape[0] == 4, "bad shape"
    return x + 1


def c_slicing_indexing(x, state):
    return x[1:, ::2] + x[0, 0] + x[..., -1:].sum()


def c_inplace(x, state):
    y = x.clone()
    y.add_(1)
    y[0] = 0
    return y


def c_item_break(x, state):
    s = x.sum().item()
    return x * s


def c_data_dependent_branch(x, state):
    if x.sum() > 0:
        return x + 1
    return x - 1


def c_print(x, state):
    print("from the construct sweep")
    return x + 1


def c_deepcopy(x, state):
    return copy.deepcopy(x) + 1


def c_zip_enumerate_reversed(x, state):
    acc = x * 0
    for i, (a, b) in enumerate(zip(x, reversed(x))):
        acc = acc + a * b * i
    return acc


def c_dict_ops(x, state):
    d = {"a": x}
    d.update(b=x * 2)
    d.setdefault("c", x * 3)
    return sum(v for k, v in sorted(d.items()))


def c_nested_return(x, state):
    return {"pair": Pair(x, x + 1), "list": [x * 2, (x * 3, "s")], "n": 4}


def c_generator_close(x, state):
    g = _gen(x)
    first = next(g)
    g.close()
    return first + 1


def c_stop_iteration_in_generator(x, state):
    def bad():
        yield x
        raise StopIteration

    return list(bad())


def c_inspect_generator(x, state):
    return x * int(inspect.isgenerator(_gen(x)))


CONSTRUCTS = [v for k, v in sorted(globals().items()) if k.startswith("c_")]


def _state_copy(state):
    return copy.deepcopy(state)


def _equal(a, b):
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.shape == b.shape and a.dtype == b.dtype and torch.allclose(
            a, b, equal_nan=True)
    if type(a) is not type(b):
        return False
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_equal(a[k], b[k]) for k in a)
    if dataclasses.is_dataclass(a):
        return all(_equal(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    return a == b


def _user_frames(exc):
    return [(f.name, f.line) for f in traceback.extract_tb(exc.__traceback__) if f.filename == __file__
            and f.name != "_run"]


def _run(fn, x, state, capture):
    COUNTER[0] = 0
    torch.manual_seed(0)
    try:
        if capture:
            report = fxlint_capture.explain(fn)(x, state)
            return report.result, None, report
        return fn(x, state), None, None
    except Exception as e:  # every construct's own exception is compared, whatever it is
        return None, e, None
    finally:
        state["__counter"] = COUNTER[0]


@pytest.mark.parametrize("fn", CONSTRUCTS, ids=lambda f: f.__name__[2:])
def test_construct_matches_eager(fn, capsys):
    torch.manual_seed(1)
    x = torch.randn(4, 3)
    eager_state, capture_state = {}, {}
    eager, eager_exc, _ = _run(fn, x.clone(), eager_state, capture=False)
    got, got_exc, report = _run(fn, x.clone(), capture_state, capture=True)
    if eager_exc is not None:
        assert type(got_exc) is type(eager_exc) and str(got_exc) == str(eager_exc), (eager_exc, got_exc)
        assert _user_frames(got_exc) == _user_frames(eager_exc)
        cause, got_cause = eager_exc.__cause__, got_exc.__cause__
        assert type(cause) is type(got_cause)
    else:
        assert got_exc is None, "".join(traceback.format_exception(got_exc))
        assert _equal(got, eager), (got, eager)
        assert all(r["ok"] for r in report.replays), (str(report), report.replays)
        if report.graph_count == 1 and report.graph_break_count == 0:
            gm = report.graphs[0]
            assert _equal(report.rebuild_result(gm(*report.graph_inputs[0])), eager), gm.code
    assert _equal(capture_state, eager_state)


def test_sweep_covers_the_constructs():
    assert len(CONSTRUCTS) >= 45

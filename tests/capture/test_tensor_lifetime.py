"""The capture does not keep the model's tensors alive, and a tensor made at the
address of one that died is not taken for it."""

import weakref

import torch

import fxlint_capture

alive = []


def drops_its_temporary(x):
    y = x * 2
    r = weakref.ref(y)
    z = y + 1
    del y
    alive.append(r() is not None)
    return z


def reuses_addresses(x):
    # Each iteration's temporaries die before the next ones are made: their
    # addresses are reused, and every use must still map to its own node.
    for i in range(40):
        t = x + i
        x = t * 0.5
    return x


def test_an_intermediate_dies_when_the_code_drops_it():
    alive.clear()
    x = torch.ones(4)
    expect = drops_its_temporary(x)
    report = fxlint_capture.explain(drops_its_temporary, replay=False)(x)
    assert torch.equal(report.result, expect)
    assert alive == [False, False], alive  # eagerly, then under the capture


def test_reused_addresses_still_give_one_graph_that_replays():
    x = torch.randn(3)
    report = fxlint_capture.explain(reuses_addresses)(x)
    assert report.graph_count == 1 and not report.break_reasons, str(report)
    assert torch.allclose(report.result, reuses_addresses(x))
    assert report.replays and all(r["ok"] for r in report.replays), report.replays


def _step(x, i):
    t = x + i          # recorded, then dropped
    del t
    n = int(x.sum())   # a break: the next tensor is made by eager code
    u = torch.full((3,), float(n))
    return x + u       # u is not the dead t, whatever its address


def test_a_tensor_made_eagerly_at_a_dead_tensors_address_is_an_input():
    def f(x):
        x = _step(x, 1)
        x = _step(x, 2)
        x = _step(x, 3)
        return x

    x = torch.ones(3)
    report = fxlint_capture.explain(f)(x)
    assert torch.equal(report.result, f(x))
    assert report.graph_count >= 3 and report.replays, str(report)
    assert all(r["ok"] for r in report.replays), report.replays


def _bumps_then_breaks(x):
    x[0] = 5.0  # changes, in place, the value the caller's part made
    n = int(x.sum())
    return x * n


def test_a_break_below_an_in_place_change_keeps_the_graph_whole_and_replayable():
    # Cutting at the call would give the callee's graph an input whose value has
    # since changed in place: the graph is not cut, and every graph replays.
    def f(x):
        a = x * 2
        return _bumps_then_breaks(a) + 1

    x = torch.ones(3)
    report = fxlint_capture.explain(f)(x)
    assert torch.equal(report.result, f(x))
    assert report.graph_count == 3, str(report)  # one graph up to the break, then the two resumes
    assert report.replays and all(r["ok"] for r in report.replays), report.replays


def test_the_collector_is_left_as_it_was_and_frozen_objects_stay_frozen(monkeypatch):
    # Full collections are held off during a capture and put back after; objects the
    # process froze stay frozen. Counting them walks every one (45 ms per capture in a
    # process that froze transformers' import), so the capture never asks.
    import gc

    frozen_count = gc.get_freeze_count

    def walks_every_frozen_object():
        raise AssertionError("the capture counted the frozen objects")

    threshold = gc.get_threshold()
    kept = [[i] for i in range(1000)]
    gc.freeze()
    try:
        frozen = frozen_count()
        monkeypatch.setattr(gc, "get_freeze_count", walks_every_frozen_object)
        cycles = []

        def makes_cycles(x):
            for _ in range(50):
                a = []
                a.append(a)  # garbage a young collection frees
                cycles.append(weakref.ref(x))
            return x * 2

        report = fxlint_capture.explain(makes_cycles)(torch.ones(3))
        assert report.graph_count == 1
        assert gc.get_threshold() == threshold
        assert frozen_count() == frozen
    finally:
        gc.unfreeze()
    assert kept

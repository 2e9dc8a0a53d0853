"""The modelled speculation cap (engine/capmodel.py) and the step costs it reads
(engine/stepcost.py): goodput predicted from closed-loop step costs and live acceptance.

Synthetic costs stand for the two regimes: memory-bound (a step costs about the same whatever
its depth: a GPU at a few rows) and compute-bound (a step's cost grows with the tokens it
verifies: this CPU at 16 rows)."""

from __future__ import annotations

import json
import math

import pytest

from engine.capmodel import ModelledGamma, expected_tokens
from engine.stepcost import StepCosts, cached, measure

DEPTHS = (0, 1, 2, 4, 8)


def costs(per_row_token: float, fixed: float, sizes=(1, 4, 16)) -> StepCosts:
    """A step of b rows at depth g costs fixed + per_row_token * b * (g + 1) seconds."""
    return StepCosts({(b, g): fixed + per_row_token * b * (g + 1) for b in sizes
                      for g in DEPTHS})


def model(c: StepCosts | None, **kw) -> ModelledGamma:  # type: ignore[no-untyped-def]
    return ModelledGamma(c, **{"candidates": DEPTHS, **kw})


def feed(m: ModelledGamma, size: int, accepted: int, judged: int, steps: int = 10) -> None:
    for _ in range(steps):
        cap = m(size)
        m.observe(size, cap, size, 0.01, accepted=accepted, judged=judged)


def test_expected_tokens() -> None:
    assert expected_tokens(0.0, 4) == 1
    assert expected_tokens(1.0, 4) == 5
    assert math.isclose(expected_tokens(0.5, 2), 1.75)


def test_step_costs_interpolate_in_rows_and_round_depths_up() -> None:
    c = StepCosts({(1, 0): 1.0, (1, 4): 2.0, (5, 0): 3.0, (5, 4): 6.0})
    assert c.at(1, 0) == 1.0 and c.at(5, 4) == 6.0
    assert c.at(3, 0) == 2.0  # halfway between 1 and 5 rows
    assert c.at(10, 4) == 12.0  # beyond the largest size: proportional to rows
    assert c.at(1, 2) == 2.0  # depth 2 not measured: the next deeper depth's cost
    assert c.at(1, 9) == 2.0  # deeper than any measured: the deepest
    assert c.as_dict() == {"1": {"0": 1000.0, "4": 2000.0}, "5": {"0": 3000.0, "4": 6000.0}}
    assert StepCosts.from_dict(c.as_dict()) == c
    for bad in ({}, {"1": {"0": 0.0}}, {"1": {"0": float("nan")}}, {"1": {"0": -1.0}}):
        with pytest.raises(ValueError):
            StepCosts.from_dict(bad)


def test_memory_bound_steps_speculate_deep_compute_bound_steps_do_not() -> None:
    # A fixed cost dominating (5 ms) and a small per-token one: depth is nearly free.
    m = model(costs(1e-5, 5e-3), min_judged=8)
    feed(m, 1, accepted=7, judged=8)  # alpha 0.875
    assert m(1) == 8
    # Cost proportional to the tokens verified: each extra depth costs a whole step's worth,
    # and no acceptance rate below 1 pays for it.
    m = model(costs(1e-3, 0.0), min_judged=8)
    feed(m, 16, accepted=7, judged=8)
    assert m(16) == 0
    assert m.table() == {16: 0}


def test_the_choice_follows_the_measured_acceptance() -> None:
    # A step costs 10 ms + 2 ms per depth (one row): depth pays only with good acceptance.
    c = StepCosts({(1, g): 0.010 + 0.002 * g for g in DEPTHS})
    m = model(c, min_judged=8, memory=0.5)
    feed(m, 1, accepted=9, judged=10)
    high = m(1)
    feed(m, 1, accepted=1, judged=10, steps=30)  # the content changed: drafts now miss
    assert high >= 4 and m(1) == 0
    rates = m.goodput()[1]
    assert rates[0] == max(rates.values())
    assert m.describe()["acceptance_rate"] == pytest.approx(0.1, abs=1e-3)


def test_depth_must_beat_target_only_by_the_margin() -> None:
    # alpha 0.5 at depth 1 gives 1.5 tokens per step for a step 1.45x as long: a 3.4 % gain.
    c = StepCosts({(1, 0): 1.0, (1, 1): 1.45})
    m = model(c, candidates=(0, 1), min_judged=4, margin=0.05)
    feed(m, 1, accepted=2, judged=4)
    assert m(1) == 0
    m0 = model(c, candidates=(0, 1), min_judged=4, margin=0.0)
    feed(m0, 1, accepted=2, judged=4)
    assert m0(1) == 1


def test_before_acceptance_is_known_it_speculates_unless_it_cannot_pay_at_any_rate() -> None:
    m = model(costs(1e-5, 5e-3))
    assert m(1) == 8 and m.alpha() is None
    assert m.goodput()[1] == m._rates(1, 1.0)  # shown at the bound it was judged by
    feed(m, 1, accepted=1, judged=2, steps=1)  # some evidence: shown, not yet trusted
    assert m.alpha() is None and set(m.goodput()[1]) == set(DEPTHS)
    # Compute-bound and a draft that costs as much as a target step: even alpha = 1 loses.
    hopeless = StepCosts({(16, g): 0.01 * (1 + 2 * g) for g in DEPTHS})
    never = model(hopeless)
    assert never(16) == 0 and never.goodput()[16][0] == max(never.goodput()[16].values())
    # No costs measured at all: the route's own depth, and nothing to show.
    unmeasured = model(None)
    assert unmeasured(16) == 8 and unmeasured.goodput() == {}


def test_off_because_of_a_low_acceptance_it_probes_now_and_then_and_recovers() -> None:
    c = StepCosts({(1, g): 0.010 + 0.002 * g for g in DEPTHS})
    m = model(c, min_judged=8, memory=0.5, probe_every=20, probe_steps=3)
    feed(m, 1, accepted=1, judged=10, steps=5)  # a bad stretch: alpha 0.1, speculation off

    def serve(steps: int, accepted: int) -> list[int]:
        served = []
        for _ in range(steps):
            cap = m(1)
            served.append(cap)
            m.observe(1, cap, 1, 0.01, accepted=accepted * (cap > 0), judged=10 * (cap > 0))
        return served

    # The 20th step off (4 of them in the stretch above) starts 3 steps at the shallowest
    # depth; the drafts are still bad, so it is off again until the next probe.
    assert serve(40, accepted=1) == [0] * 15 + [1, 1, 1] + [0] * 19 + [1, 1, 1]
    # The drafts are good again: the first probe step measures it and speculation resumes.
    later = serve(25, accepted=9)
    assert later[:19] == [0] * 19 and later[19] == 1 and min(later[20:]) >= 2
    # Where even alpha = 1 could not pay, it never probes.
    hopeless = StepCosts({(16, g): 0.01 * (1 + 2 * g) for g in DEPTHS})
    h = model(hopeless, min_judged=1, probe_every=2)
    feed(h, 16, accepted=0, judged=1, steps=1)
    assert [h(16) for _ in range(10)] == [0] * 10


def test_the_band_is_the_sustained_batch_size() -> None:
    m = model(costs(1e-3, 0.0), window=4, min_judged=1)
    feed(m, 16, accepted=1, judged=1, steps=1)
    # The batch drains to 9 rows for a step: still the 16-row band.
    m(9)
    assert set(m.table()) == {16}


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        ModelledGamma(candidates=(-1, 2))
    with pytest.raises(ValueError):
        ModelledGamma(memory=0.0)
    with pytest.raises(ValueError):
        measure(None, [], [0])  # type: ignore[arg-type]


def test_measure_runs_a_closed_loop_on_a_tiny_pair(llama_pair) -> None:  # type: ignore[no-untyped-def]
    c = measure(llama_pair, [1, 3], [0, 2], prompt=4, new_tokens=4, waves=1)
    assert c.sizes == [1, 3] and c.depths == [0, 2]
    assert all(0 < s < 5 for s in c.seconds.values())
    # More rows or a deeper cap never cost less (a cell measured dearer than one doing more
    # work takes that one's cost: noise only adds time) ...
    assert c.at(3, 0) >= c.at(1, 0) and c.at(1, 2) >= c.at(1, 0) and c.at(3, 2) >= c.at(3, 0)
    # ... and what was measured is kept as it was, for the comparison with serving
    assert c.raw is not None and set(c.raw) == set(c.seconds)
    assert all(c.seconds[k] <= c.raw[k] for k in c.seconds)


def test_each_cell_keeps_its_cheapest_sweep(llama_pair, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A stall in one sweep (a device's first use of a shape, another process) only adds time:
    with two sweeps the cell keeps the clean one, with one it keeps the stall."""
    import time

    import engine.stepcost as stepcost

    real_step = stepcost.ContinuousEngine.step
    stalled = {"left": 0}

    def step(self):  # type: ignore[no-untyped-def]
        if stalled["left"] > 0:
            stalled["left"] -= 1
            time.sleep(0.05)
        return real_step(self)

    monkeypatch.setattr(stepcost.ContinuousEngine, "step", step)
    small = {"prompt": 4, "new_tokens": 4, "waves": 1}
    stalled["left"] = 10**6  # every step of the first sweep stalls ...
    one = measure(llama_pair, [1], [0], repeats=1, **small)
    assert one.seconds[(1, 0)] >= 0.05
    steps_per_sweep = 10**6 - stalled["left"]
    stalled["left"] = steps_per_sweep  # ... and only the first of two
    two = measure(llama_pair, [1], [0], repeats=2, **small)
    assert two.seconds[(1, 0)] < 0.05 and stalled["left"] == 0
    with pytest.raises(ValueError):
        measure(llama_pair, [1], [0], repeats=0)


def test_a_cell_dearer_than_a_larger_one_is_measured_again(llama_pair, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The H100 failure: one cell measured too dear (a stall in its closed loop) and the
    monotone pass spread it to every larger batch. A cell dearer than one with more rows is
    measured again and keeps its cheaper cost; without rechecks the stall stays and spreads."""
    import time

    import engine.stepcost as stepcost

    real_step, real_init = stepcost.ContinuousEngine.step, stepcost.ContinuousEngine.__init__
    made = {"engines": 0}

    def init(self, *a, **kw):  # type: ignore[no-untyped-def]
        real_init(self, *a, **kw)
        made["engines"] += 1
        self._test_stall = made["engines"] == 1  # the first cell's engine of each measure

    def step(self):  # type: ignore[no-untyped-def]
        if self._test_stall:
            time.sleep(0.05)
        return real_step(self)

    monkeypatch.setattr(stepcost.ContinuousEngine, "__init__", init)
    monkeypatch.setattr(stepcost.ContinuousEngine, "step", step)
    small = {"prompt": 4, "new_tokens": 4, "waves": 1}
    kept = measure(llama_pair, [1, 3], [0], rechecks=0, raw=True, **small)
    assert kept.seconds[(1, 0)] >= 0.05 > kept.seconds[(3, 0)]
    made["engines"] = 0
    again = measure(llama_pair, [1, 3], [0], **small)
    assert again.raw is not None and again.raw[(1, 0)] < 0.05
    assert again.at(3, 0) < 0.05  # nothing spread


def test_the_model_shows_what_serving_measured_beside_what_it_assumes() -> None:
    """A model wrong on some device (an H100: spec at 0.54 of target-only at 16 rows while it
    predicted 1.3x) must be visible: describe() lists, per band and cap, the steps serving
    ran — ms and tokens per step — next to the cost the model assumes, and the calibration's
    costs as measured (a cell measured too dear takes a larger one's cost)."""
    raw = {(1, 0): 0.010, (4, 0): 0.030, (16, 0): 0.015, (1, 4): 0.020, (4, 4): 0.025,
           (16, 4): 0.040}
    from engine.stepcost import _envelope
    c = StepCosts(_envelope(raw, [1, 4, 16], [0, 4]), raw)
    assert c.at(4, 0) == 0.015 and c.at(16, 0) == 0.015  # the noisy (4, 0) cell lowered
    m = ModelledGamma(c, candidates=(0, 4), min_judged=1)
    for _ in range(3):
        m.observe(16, 4, 32.0, 0.080, accepted=10, judged=64)
    # a target-only step (no drafts judged, still shown), where the engine turned speculation
    # off (it says so: ContinuousEngine.last_step["switched"])
    m.observe(16, 0, 16.0, 0.016, switched=True)
    d = m.describe()
    assert d["measured_step_ms_by_batch_size_and_depth"]["16"] == {"0": 15.0, "4": 40.0}
    assert d["step_ms_by_batch_size_and_depth"]["4"]["0"] == 15.0
    assert d["measured_step_ms_by_batch_size_and_depth"]["4"]["0"] == 30.0
    live = d["live_by_batch_size_and_depth"]["16"]
    assert live["4"] == {"steps": 3, "mean_rows": 16.0, "ms_per_step": 80.0,
                         "tokens_per_step": 32.0, "model_ms_per_step": 40.0}
    assert live["0"]["steps"] == 1 and live["0"]["ms_per_step"] == 16.0
    # the target-only step came right after speculative ones: speculation turned off there
    assert live["0"]["after_switch_steps"] == 1 and live["0"]["after_switch_ms_per_step"] == 16.0
    assert "after_switch_steps" not in live["4"] and d["on_off_switches"] == 1
    m.observe(16, 0, 16.0, 0.016)
    m.observe(16, 2, 20.0, 0.050, switched=True)  # on again, at another depth
    m.observe(16, 4, 32.0, 0.080)  # a deeper cap is no on/off switch
    d = m.describe()
    assert d["on_off_switches"] == 2
    assert d["live_by_batch_size_and_depth"]["16"]["2"]["after_switch_ms_per_step"] == 50.0
    assert d["live_by_batch_size_and_depth"]["16"]["0"]["after_switch_steps"] == 1
    assert d["draft_positions_judged"] == 192  # the target-only step judged nothing
    json.dumps(d)  # /admin/speculation serves it as JSON


def test_step_costs_are_kept_per_pair_device_and_setting(llama_pair, tmp_path,  # type: ignore[no-untyped-def]
                                                         monkeypatch) -> None:
    import engine.stepcost as stepcost

    calls = []
    real = stepcost.measure

    def counting(*a, **kw):  # type: ignore[no-untyped-def]
        calls.append(a[1:])
        return real(*a, **kw)

    monkeypatch.setattr(stepcost, "measure", counting)
    small = {"prompt": 4, "new_tokens": 2, "waves": 1}
    first = cached(llama_pair, [1, 2], [0, 1], tmp_path, **small)
    again = cached(llama_pair, [2, 1], [1, 0], tmp_path, **small)  # same key, any order
    assert again.as_dict() == first.as_dict() and len(calls) == 1
    assert again.raw_as_dict() == first.raw_as_dict() is not None  # kept in the cache too
    cached(llama_pair, [1, 2], [0, 2], tmp_path, **small)  # other depths: measured
    assert len(calls) == 2
    (path,) = [p for p in tmp_path.iterdir() if json.loads(p.read_text())["ms"] ==
               first.as_dict()]
    path.write_text("{not json")  # a damaged file is measured afresh and rewritten
    assert cached(llama_pair, [1, 2], [0, 1], tmp_path, **small).sizes == [1, 2]
    assert len(calls) == 3 and json.loads(path.read_text())["ms"]
    data = json.loads(path.read_text())
    data["ms"].pop("2")  # a cell missing (at(2, 1) would raise): measured afresh
    path.write_text(json.dumps(data))
    assert cached(llama_pair, [1, 2], [0, 1], tmp_path, **small).at(2, 1) > 0
    assert len(calls) == 4 and "2" in json.loads(path.read_text())["ms"]
    calls.pop()
    data = json.loads(path.read_text())
    data["ms"] = {"1": {"0": -5}}
    path.write_text(json.dumps(data))  # nonsense costs: measured afresh too
    cached(llama_pair, [1, 2], [0, 1], tmp_path, **small)
    assert len(calls) == 4
    cached(llama_pair, [1, 2], [0, 1], None, **small)  # no cache: always measures
    assert len(calls) == 5
    # the same pair with its logits in another dtype (a bf16 pair with and without its
    # float32 head, engine/head.py): measured afresh
    import torch
    monkeypatch.setattr(stepcost, "logits_dtype", lambda _model: torch.bfloat16)
    cached(llama_pair, [1, 2], [0, 1], tmp_path, **small)
    assert len(calls) == 6
    # ... and with its linears on the other kernels (engine/packed.py): measured afresh
    monkeypatch.setattr(llama_pair, "kernels", "plain" if llama_pair.kernels == "packed"
                        else "packed")
    cached(llama_pair, [1, 2], [0, 1], tmp_path, **small)
    assert len(calls) == 7


def test_a_scheduler_calibrates_its_modelled_cap(llama_pair) -> None:  # type: ignore[no-untyped-def]
    from engine.batching import BatchScheduler

    sched = BatchScheduler(llama_pair, max_batch=3, gamma=ModelledGamma(candidates=(0, 2)))
    try:
        model = sched.snapshot()["cap_model"]
        assert set(model["step_ms_by_batch_size_and_depth"]) == {"1", "2", "3"}
        assert model["acceptance_rate"] is None
    finally:
        sched.shutdown()


# What calibration measured on the large demo pair on an NVIDIA H200 in bf16 (2026-11-27,
# `bash .ci/gpu serving`, ms, cells after their rechecks): the 8-row depth-0 cell stayed at
# 22.9 ms through three measurements where 16 rows cost 12.3.
H200_RAW_MS = {
    1: {0: 11.553, 1: 14.314, 2: 16.079, 4: 29.607, 6: 33.805},
    2: {0: 11.409, 1: 17.386, 2: 17.307, 4: 23.513, 6: 26.676},
    4: {0: 11.249, 1: 19.26, 2: 20.694, 4: 25.88, 6: 29.398},
    8: {0: 22.881, 1: 22.584, 2: 40.375, 4: 30.088, 6: 38.883},
    16: {0: 12.252, 1: 28.083, 2: 33.103, 4: 47.883, 6: 68.858},
}


def test_a_cell_measured_too_dear_does_not_make_speculation_pay_at_larger_batches() -> None:
    """The H200 failure: the old pass raised every larger cell to a smaller one's cost, so the
    8-row depth-0 cell (22.9 ms) became the 16-row one (measured 12.3): at the acceptance
    serving measured (0.55) the model chose depth 1 at 16 and 8 rows (predicted 882 against
    699 tokens/s at 16) and the route served at 0.77 of target-only. The envelope bounds a
    cell by every cell doing more work, so 16 rows keep their measured cost and 8 rows take
    it: depth 0 at both, speculation only at 1-2 rows, where the raw costs say it pays."""
    from engine.stepcost import _envelope

    raw = {(b, g): ms / 1e3 for b, row in H200_RAW_MS.items() for g, ms in row.items()}
    sizes, depths = sorted(H200_RAW_MS), sorted(H200_RAW_MS[1])
    env = _envelope(raw, sizes, depths)
    assert env[(16, 0)] == raw[(16, 0)] and env[(8, 0)] == raw[(16, 0)]
    assert env[(8, 2)] == raw[(8, 4)]  # 40.4 ms at depth 2, 30.1 at depth 4: bounded by 4
    assert all(env[k] <= raw[k] for k in raw)
    for b in sizes:  # more rows or a deeper cap never cost less
        assert [env[(b, g)] for g in depths] == sorted(env[(b, g)] for g in depths)
    for g in depths:
        assert [env[(b, g)] for b in sizes] == sorted(env[(b, g)] for b in sizes)
    m = model(StepCosts(env, raw), candidates=tuple(depths), min_judged=8, window=1)
    feed(m, 1, accepted=547, judged=1000, steps=1)  # alpha 0.547, as served
    caps = {b: m(b) for b in sizes}
    assert caps[16] == 0 and caps[8] == 0 and caps[4] == 0
    assert caps[1] > 0 and caps[2] > 0


def test_the_engine_says_when_speculation_turned_on_or_off(llama_pair) -> None:  # type: ignore[no-untyped-def]
    """The switch the model counts is the engine's: the first speculative step (rows joined
    with no draft prefill catch up), cap 0 after speculating (the target cache compacts), cap
    0 again (none), on again; a batch with no speculative row is never asked for a cap and
    switches nothing."""
    from engine.continuous import ContinuousEngine, Sequence, SequenceRequest
    from engine.controllers import ConstantGamma
    from engine.sampling import SamplingParams

    caps = iter([2, 2, 0, 0, 2, 0])
    engine = ContinuousEngine(llama_pair, gamma_cap=lambda _size: next(caps))

    def row(spec: bool) -> Sequence:
        return Sequence(llama_pair, SequenceRequest(
            prompt=[5, 6, 7, 8], params=SamplingParams(), max_new_tokens=40, speculative=spec,
            controller=ConstantGamma(2) if spec else None))

    engine.join([row(True), row(False)])
    seen = []
    for _ in range(6):
        engine.step()
        seen.append((engine.last_step["gamma_cap"], engine.last_step["switched"]))
    assert seen == [(2, 1), (2, 0), (0, 1), (0, 0), (2, 1), (0, 1)]
    plain = ContinuousEngine(llama_pair, gamma_cap=lambda _size: 0)
    plain.join([row(False)])
    plain.step()  # no speculative row: the cap is not asked, nothing switched
    assert plain.last_step["gamma_cap"] == -1 and plain.last_step["switched"] == 0


def test_peek_tells_the_next_cap_and_changes_nothing() -> None:
    """`peek(size)` is what `m(size)` would answer now (a joiner's first step: the engine
    asks before the step that will call it), and asking it leaves the model as it was -
    through warm-up, low acceptance, probes and recovery, over changing sizes."""
    import copy
    import random

    c = StepCosts({(b, g): 0.010 + 0.002 * g * b for b in (1, 4, 16) for g in DEPTHS})
    m = model(c, min_judged=8, memory=0.5, probe_every=6, probe_steps=2, window=4)
    rng = random.Random(3)
    seen = set()
    for step in range(400):
        size = rng.choice([1, 1, 2, 4, 9, 16])
        before = copy.deepcopy({k: v for k, v in vars(m).items() if k != "_lock"})
        peeked = m.peek(size)
        assert {k: v for k, v in vars(m).items() if k != "_lock"} == before
        cap = m(size)
        assert peeked == cap, step
        seen.add(cap)
        good = step // 100 % 2 == 1  # stretches of good and bad drafts
        m.observe(size, cap, size, 0.01, accepted=(9 if good else 1) * (cap > 0),
                  judged=10 * (cap > 0))
    assert 0 in seen and len(seen) > 2  # off, probing and speculating were all peeked

"""Load-aware speculation (engine/loadaware.py): per batch-size band, the depth cap with the
best measured goodput wins after warm-up, neighbours are re-checked, a cap is held for a run
of steps and judged by the run's tokens over its wall time, the band is the sustained batch
size, a pinned table is obeyed, and a table exports as vLLM speculative-config keys.

The choice rules are checked one step per run (run_steps=1, window=1)."""

from __future__ import annotations

import pytest

from engine.loadaware import LoadAwareGamma, band_of, vllm_speculative_config


def test_bands() -> None:
    assert [band_of(n) for n in (0, 1, 2, 3, 4, 7, 8, 15, 16, 63, 64, 500)] == \
        [1, 1, 2, 2, 4, 4, 8, 8, 16, 32, 64, 128]


def _drive(g: LoadAwareGamma, size: int, rate_of, steps: int) -> list[int]:
    picked = []
    for _ in range(steps):
        cap = g(size)
        picked.append(cap)
        g.observe(size, cap, rate_of(cap), 1.0)
    return picked


def test_each_band_settles_on_its_own_best_cap_and_keeps_exploring() -> None:
    g = LoadAwareGamma(candidates=(0, 2, 4), warmup=2, explore_every=8, run_steps=1,
                       window=1)
    # Small batches: deeper is better; big batches: speculation costs (0 is best).
    small = _drive(g, 1, lambda c: 10 + c, 60)
    big = _drive(g, 32, lambda c: 10 - c, 60)
    assert g.table() == {1: 4, 32: 0}
    assert small[0] == 4  # a new band's first run: the deepest cap, not judged
    assert small[1:7] == [4, 4, 2, 2, 0, 0]  # warm-up tries every cap, deepest first
    assert small[-40:].count(4) >= 30 and {0, 2} & set(small[-40:])  # exploits, re-checks
    assert big[-40:].count(0) >= 30
    assert set(g.goodput()) == {1, 32}


def test_a_shift_in_goodput_moves_the_choice() -> None:
    g = LoadAwareGamma(candidates=(0, 2, 4), warmup=1, explore_every=4, smoothing=0.5,
                       run_steps=1, window=1)
    _drive(g, 4, lambda c: 10 + c, 30)
    assert g.table()[4] == 4
    _drive(g, 4, lambda c: 10 - c, 200)
    assert g.table()[4] == 0


def test_speculation_must_beat_target_only_by_the_margin() -> None:
    near = LoadAwareGamma(candidates=(0, 4), warmup=2, explore_every=8, margin=0.05,
                          run_steps=1)
    _drive(near, 16, lambda c: 100 + 0.75 * c, 40)  # depth 4: +3 %, within the margin
    clear = LoadAwareGamma(candidates=(0, 4), warmup=2, explore_every=8, margin=0.05,
                           run_steps=1)
    _drive(clear, 16, lambda c: 100 + 2.5 * c, 40)  # depth 4: +10 %
    assert near.table() == {16: 0} and clear.table() == {16: 4}


def test_a_cap_is_held_for_a_run_and_judged_by_its_totals() -> None:
    """Depth 4 commits many tokens in most steps but a run of it also pays one slow step (a
    prefill landing in it): per step its mean rate looks best, over the run it is not."""
    g = LoadAwareGamma(candidates=(0, 4), warmup=1, explore_every=100, run_steps=4)
    caps = []
    for i in range(40):
        cap = g(16)
        caps.append(cap)
        if cap == 4:  # rates 30, 30, 30 and one step of 40 tokens in 4 s
            tokens, seconds = (40.0, 4.0) if i % 4 == 3 else (30.0, 1.0)
        else:
            tokens, seconds = 20.0, 1.0
        g.observe(16, cap, tokens, seconds)
    # a new band's first run (the deepest cap, not judged), then warm-up: one whole run of
    # each cap, deepest first
    assert caps[:12] == [4] * 8 + [0] * 4
    assert g.goodput()[16] == {0: 20.0, 4: 130 / 7}  # (30 * 3 + 40) / (3 + 4) tokens/s
    assert g.table() == {16: 0} and caps[-8:] == [0] * 8


def test_the_band_is_the_sustained_batch_size() -> None:
    """At a steady load the batch size dips as rows finish: the band stays the largest size of
    the recent window, so one run (and one estimate) covers the load."""
    g = LoadAwareGamma(candidates=(0, 2), warmup=1, run_steps=2, window=8)
    for size in [16, 12, 9, 16, 15, 8, 16, 11] * 4:
        g.observe(size, g(size), 10.0, 1.0)
    assert set(g.goodput()) == {16}


def test_a_pinned_table_is_obeyed_and_learns_nothing() -> None:
    g = LoadAwareGamma(fixed={1: 4, 16: 2, 32: 0})
    assert [g(n) for n in (1, 5, 16, 31, 32, 100)] == [4, 4, 2, 2, 0, 0]
    g.observe(1, 4, 100, 1)
    assert g.goodput() == {} and g.table() == {1: 4, 16: 2, 32: 0}


def test_bad_candidates_are_refused() -> None:
    with pytest.raises(ValueError):
        LoadAwareGamma(candidates=(-1, 2))
    with pytest.raises(ValueError):
        LoadAwareGamma(run_steps=0)


def test_vllm_export() -> None:
    cfg = vllm_speculative_config({1: 4, 2: 4, 4: 3, 8: 2, 16: 0, 32: 0}, base={"model": "d"})
    assert cfg == {"model": "d", "num_speculative_tokens": 4,
                   "num_speculative_tokens_per_batch_size": [[1, 3, 4], [4, 7, 3], [8, 15, 2],
                                                             [16, None, 0]],
                   "disable_by_batch_size": 16}
    assert "disable_by_batch_size" not in vllm_speculative_config({1: 4, 8: 0, 16: 2})
    assert vllm_speculative_config({}) == {}


def test_peek_tells_the_cap_within_a_run_and_changes_nothing() -> None:
    """Within a run `peek` is the run's cap; where a new run would start it says None (its
    cap is chosen, and counted, by asking); a pinned table peeks as it answers."""
    import copy

    g = LoadAwareGamma(candidates=(0, 2, 4), warmup=1, explore_every=4, run_steps=3, window=2)
    answers = []
    for step in range(60):
        size = 1 if step % 20 < 12 else 8
        state = copy.deepcopy({k: v for k, v in vars(g).items() if k != "_lock"})
        peeked = g.peek(size)
        assert {k: v for k, v in vars(g).items() if k != "_lock"} == state
        cap = g(size)
        assert peeked in (None, cap)
        answers.append(peeked)
        g.observe(size, cap, 10.0 * (1 + cap), 1.0)
    assert answers.count(None) >= 10 and sum(a is not None for a in answers) >= 30
    pinned = LoadAwareGamma(fixed={1: 4, 8: 0})
    assert [pinned.peek(n) for n in (1, 3, 8, 20)] == [pinned(n) for n in (1, 3, 8, 20)]

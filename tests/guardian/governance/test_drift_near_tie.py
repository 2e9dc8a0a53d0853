"""Issue 11 triggers: the per-request chi-square drift statistic (quiet on exchangeable
traffic, fires on a real shift, names itself) and the near-tie rate trigger."""

from __future__ import annotations

import random
from collections import Counter

from guardian.governance.triggers.drift import bin_of, evaluate_tokens, request_drift
from guardian.governance.triggers.near_tie import evaluate as near_tie_evaluate
from guardian.governance.windows import RouteWindow
from guardian.policy import DriftTrigger, NearTieTrigger

STATS = {"drafted_per_position": [10, 8], "accepted_per_position": [8, 5]}


def _zipf(vocab: range, seed: int) -> tuple[list[int], list[float]]:
    """A Zipfian token distribution over `vocab` (which ids are frequent depends on seed)."""
    ids = list(vocab)
    random.Random(seed).shuffle(ids)
    return ids, [1.0 / (r + 1) ** 1.5 for r in range(len(ids))]


def _request(rng: random.Random, vocab: range, n: int = 40, traffic: int = 0) -> list[int]:
    # strongly correlated tokens within a request: a "topic" token repeats
    ids, weights = _ZIPF.setdefault((vocab, traffic), _zipf(vocab, traffic))
    topic = rng.choice(ids)
    return [topic if rng.random() < 0.2 else rng.choices(ids, weights)[0] for _ in range(n)]


_ZIPF: dict = {}


def test_bins_are_fixed_in_advance() -> None:
    assert [bin_of(k, 4, "value") for k in (0, 1, 3, 9)] == [0, 1, 3, 3]
    spread = Counter(bin_of(k, 8, "hash") for k in range(800))
    assert set(spread) == set(range(8)) and max(spread.values()) < 150


def test_request_drift_is_quiet_on_exchangeable_traffic() -> None:
    rng = random.Random(0)
    fails = 0
    pool = [Counter(_request(rng, range(2000))) for _ in range(400)]
    for _trial in range(200):
        sample = rng.sample(pool, 100)
        m = request_drift("token_drift_p", sample[:50], sample[50:], bins=8, alpha=0.05,
                          reference_requests=50, min_requests=50)
        fails += m.outcome == "fail"
    # nominal 5 % per evaluation: about 10 of 200 (binomial sd ~3)
    assert fails <= 20


def test_request_drift_catches_a_shift_and_names_itself() -> None:
    rng = random.Random(1)
    # a different traffic type: other tokens are the frequent ones
    ref = [Counter(_request(rng, range(500))) for _ in range(50)]
    cur = [Counter(_request(rng, range(500), traffic=1)) for _ in range(50)]
    m = request_drift("token_drift_p", ref, cur, bins=8, alpha=1e-4, reference_requests=50,
                   min_requests=50)
    assert m.outcome == "fail" and m.name == "token_drift_p" and m.value < 1e-4
    assert m.details["statistic"] == "max_welch_z_bonferroni" and m.details["unit"] == "request"
    few = request_drift("token_drift_p", ref[:10], cur, bins=8, alpha=1e-4, reference_requests=50,
                     min_requests=50)
    assert few.outcome == "inconclusive"


def test_window_drift_uses_frozen_reference_requests_and_excludes_them(clock) -> None:
    w = RouteWindow("r", clock=clock)
    rng = random.Random(2)
    section = DriftTrigger(reference_requests=20, min_requests=20)
    for _ in range(20):
        w.add_spec(STATS, _request(rng, range(100)))
    assert evaluate_tokens(w, section).outcome == "inconclusive"  # no current requests yet
    for _ in range(20):
        w.add_spec(STATS, _request(rng, range(100)))
    m = evaluate_tokens(w, section)
    assert m.outcome == "pass" and m.details["current_requests"] == 20
    for _ in range(40):
        w.add_spec(STATS, _request(rng, range(100), traffic=1))
    assert evaluate_tokens(w, section).outcome == "fail"


def test_near_tie_rate_trigger(clock) -> None:
    w = RouteWindow("r", clock=clock)
    section = NearTieTrigger(max_rate=0.1, min_samples=10)
    for i in range(9):
        w.add_verdict("match", f"r{i}")
    assert near_tie_evaluate(w, section).outcome == "inconclusive"
    w.add_verdict("near_tie", "t")
    w.add_verdict("distribution_ok", "s")  # sampled verdicts do not count
    m = near_tie_evaluate(w, section)
    assert (m.outcome, m.value, m.samples) == ("pass", 0.1, 10)
    w.add_verdict("near_tie", "t2")
    m = near_tie_evaluate(w, section)
    assert m.outcome == "fail" and m.name == "near_tie_rate"

"""Pure statistics: divergences, percentiles and pass/fail/inconclusive outcomes."""

from __future__ import annotations

import math

import pytest

from engine.metrics import SpecCounters
from guardian.governance.stats import (
    FailureCounter,
    acceptance_measurement,
    count_measurement,
    drift_measurement,
    js_divergence,
    latency_measurement,
    percentile,
    psi,
)


def _counters(accepted: int, proposed: int) -> SpecCounters:
    return SpecCounters(proposed=proposed, judged=proposed, accepted=accepted, steps=proposed // 4)


def test_js_divergence_bounds_and_symmetry() -> None:
    assert js_divergence([0.5, 0.5], [0.5, 0.5]) == pytest.approx(0.0)
    assert js_divergence([1.0, 0.0], [0.0, 1.0]) == pytest.approx(1.0)  # disjoint: 1 bit
    p, q = [0.7, 0.2, 0.1], [0.1, 0.3, 0.6]
    assert js_divergence(p, q) == pytest.approx(js_divergence(q, p))
    assert 0 < js_divergence(p, q) < 1


def test_psi_matches_hand_computed_value() -> None:
    e, a = [0.5, 0.5], [0.25, 0.75]
    expected = (0.25 - 0.5) * math.log(0.25 / 0.5) + (0.75 - 0.5) * math.log(0.75 / 0.5)
    assert psi(e, a) == pytest.approx(expected)
    assert psi(e, e) == 0.0


def test_percentile_interpolates() -> None:
    assert percentile(list(range(101)), 95) == pytest.approx(95.0)
    assert percentile([1.0, 2.0], 50) == pytest.approx(1.5)


def test_acceptance_is_inconclusive_below_the_minimum_sample_size() -> None:
    # 0 of 10 accepted would be alarming, but 10 drafted tokens are not evidence.
    m = acceptance_measurement(_counters(0, 10), min_alpha=0.3, min_samples=64)
    assert m.outcome == "inconclusive"
    assert acceptance_measurement(_counters(0, 64), 0.3, 64).outcome == "fail"
    assert acceptance_measurement(_counters(40, 64), 0.3, 64).outcome == "pass"


def test_acceptance_measures_alpha_so_a_deeper_gamma_does_not_trip_it() -> None:
    # The same pair (alpha 0.7) at gamma 4 and at gamma 8: acceptance_rate (accepted /
    # proposed) falls from ~0.44 to ~0.28 as gamma grows, alpha stays 0.7. A 0.3 floor must
    # not roll the pair back because a goodput controller chose the deeper gamma.
    gamma4 = SpecCounters(proposed=400, judged=252, accepted=176, steps=100)
    gamma8 = SpecCounters(proposed=800, judged=316, accepted=221, steps=100)
    assert gamma8.acceptance_rate < 0.3 < gamma4.acceptance_rate
    for c in (gamma4, gamma8):
        m = acceptance_measurement(c, 0.3, 64)
        assert (m.name, m.outcome) == ("alpha", "pass") and m.value == pytest.approx(c.alpha)
        assert m.details["acceptance_rate"] == pytest.approx(c.acceptance_rate)
    bad = SpecCounters(proposed=400, judged=200, accepted=40, steps=100)  # alpha 0.2
    assert acceptance_measurement(bad, 0.3, 64).outcome == "fail"


def test_latency_needs_samples_on_both_sides() -> None:
    fast, slow = [0.01] * 30, [0.02] * 30
    assert latency_measurement(slow, fast[:5], 1.1, 20).outcome == "inconclusive"
    m = latency_measurement(slow, fast, 1.1, 20)
    assert m.outcome == "fail" and m.value == pytest.approx(2.0)
    assert latency_measurement(fast, slow, 1.1, 20).outcome == "pass"


def test_drift_detects_a_shifted_distribution_and_not_a_resample() -> None:
    ref = {0: 50, 1: 100, 2: 50}
    same = {0: 52, 1: 98, 2: 50}
    shifted = {0: 150, 1: 40, 2: 10}
    assert drift_measurement("d", ref, same, 0.1, 0.25, 100, 100).outcome == "pass"
    m = drift_measurement("d", ref, shifted, 0.1, 0.25, 100, 100)
    assert m.outcome == "fail" and m.details["psi"] > 0.25
    assert drift_measurement("d", {0: 5}, shifted, 0.1, 0.25, 100, 100).outcome == "inconclusive"


def test_any_bad_event_fails_regardless_of_sample_size() -> None:
    assert count_measurement("divergences", 1, 0, samples=1).outcome == "fail"
    assert count_measurement("divergences", 0, 0, samples=0).outcome == "inconclusive"


def test_failure_counter_needs_consecutive_failures() -> None:
    c = FailureCounter()
    fail = acceptance_measurement(_counters(0, 100), 0.3, 10)
    ok = acceptance_measurement(_counters(90, 100), 0.3, 10)
    unsure = acceptance_measurement(_counters(0, 1), 0.3, 10)
    assert not c.update(fail, 3)
    assert not c.update(unsure, 3)  # inconclusive neither counts nor resets
    assert not c.update(fail, 3)
    assert c.update(fail, 3)
    c.update(ok, 3)
    assert c.consecutive == 0

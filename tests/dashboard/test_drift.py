"""Drift scores: accepted-length histograms from the engine's counters, JS and PSI."""

from __future__ import annotations

import math

import pytest

from dashboard.drift import DriftThresholds, accepted_lengths, scores


def test_accepted_lengths_from_per_position_counters() -> None:
    # 10 steps with γ = 3: 8 accepted position 0, 5 position 1, 2 position 2.
    # -> 2 steps accepted 0, 3 accepted 1, 3 accepted 2, 2 accepted all 3.
    assert accepted_lengths([10, 10, 10], [8, 5, 2]) == {0: 2, 1: 3, 2: 3, 3: 2}
    assert accepted_lengths([], []) == {}


def test_identical_histograms_do_not_drift() -> None:
    h = {0: 5, 1: 10, 2: 20, 3: 40, 4: 25}
    js, psi = scores(h, h)
    assert js == pytest.approx(0.0, abs=1e-12) and psi == pytest.approx(0.0, abs=1e-12)
    js, psi = scores(h, {k: 10 * v for k, v in h.items()})
    assert js < 0.01 and psi < 0.01  # proportions matter, not totals


def test_known_values_with_smoothing() -> None:
    # reference (90, 10), current (50, 50), + 0.5 pseudo-count per bin.
    r, a = [90.5 / 101, 10.5 / 101], [50.5 / 101, 50.5 / 101]
    m = [(x + y) / 2 for x, y in zip(r, a, strict=True)]
    kl = lambda p, q: sum(x * math.log2(x / y) for x, y in zip(p, q, strict=True))  # noqa: E731
    js, psi = scores({0: 90, 1: 10}, {0: 50, 1: 50})
    assert js == pytest.approx(0.5 * kl(r, m) + 0.5 * kl(a, m))
    assert psi == pytest.approx(sum((y - x) * math.log(y / x) for x, y in zip(r, a, strict=True)))
    assert psi > DriftThresholds().psi  # a shift this big must trigger


def test_new_bins_and_symmetry() -> None:
    js, psi = scores({0: 10}, {3: 10})  # disjoint support: near-maximal, still finite
    assert js > 0.5 and psi > 1.0 and math.isfinite(psi)
    a, b = {0: 1, 1: 2, 2: 3}, {0: 3, 1: 2, 2: 1}
    assert scores(a, b)[0] == pytest.approx(scores(b, a)[0])


def test_empty_histogram_is_explained() -> None:
    with pytest.raises(ValueError, match="empty histogram"):
        scores({}, {0: 1})


def test_thresholds_from_the_trigger_policy() -> None:
    t = DriftThresholds.from_trigger({"max_js": 0.2, "max_psi": 0.5, "reference_size": 100,
                                      "enabled": True})
    assert (t.js_divergence, t.psi, t.reference_size, t.min_samples) == (0.2, 0.5, 100, 200)
    assert DriftThresholds.from_trigger(None) == DriftThresholds()

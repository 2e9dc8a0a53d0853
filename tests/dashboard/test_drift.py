"""Drift scores: JS divergence and PSI on hand-built histograms."""

from __future__ import annotations

import math

import pytest

from dashboard.drift import DriftThresholds, bin_index, js_divergence, psi


def test_identical_histograms_do_not_drift() -> None:
    h = [5, 10, 20, 40, 25]
    assert js_divergence(h, h) == pytest.approx(0.0, abs=1e-12)
    assert psi(h, h) == pytest.approx(0.0, abs=1e-12)
    assert psi(h, [2 * x for x in h]) < 0.01  # proportions matter, not counts


def test_disjoint_histograms_are_maximal_for_js() -> None:
    assert js_divergence([10, 0], [0, 10]) == pytest.approx(1.0)


def test_known_values() -> None:
    # p = (.5, .5), q = (.9, .1): JS by hand, base 2.
    p, q = [0.5, 0.5], [0.9, 0.1]
    m = [0.7, 0.3]
    kl = lambda a, b: sum(x * math.log2(x / y) for x, y in zip(a, b, strict=True))  # noqa: E731
    assert js_divergence([50, 50], [90, 10]) == pytest.approx(0.5 * kl(p, m) + 0.5 * kl(q, m))
    a, r = [50.5 / 101, 50.5 / 101], [90.5 / 101, 10.5 / 101]  # + 0.5 pseudo-count per bin
    expected_psi = sum((x - y) * math.log(x / y) for x, y in zip(a, r, strict=True))
    assert psi([50, 50], [90, 10]) == pytest.approx(expected_psi)
    assert psi([50, 50], [90, 10]) > DriftThresholds().psi  # a shift this big must trigger


def test_psi_is_finite_with_empty_bins_and_js_symmetric() -> None:
    assert math.isfinite(psi([10, 0, 0], [0, 5, 5]))
    a, b = [1, 2, 3, 4], [4, 3, 2, 1]
    assert js_divergence(a, b) == pytest.approx(js_divergence(b, a))


def test_bad_input_is_explained() -> None:
    with pytest.raises(ValueError, match="same bins"):
        js_divergence([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="empty histogram"):
        psi([0, 0], [1, 1])


def test_bins_cover_the_unit_interval() -> None:
    assert [bin_index(x) for x in (0.0, 0.199, 0.2, 0.55, 0.999, 1.0)] == [0, 0, 1, 2, 4, 4]

"""Gamma controllers and the speedup formula they optimise."""

from __future__ import annotations

import pytest

from engine.controllers import ConstantGamma, GoodputGamma, HeuristicGamma, make_controller
from engine.metrics import (
    acceptance_rate,
    expected_speedup,
    mean_acceptance_length,
    optimal_gamma,
)


def test_expected_speedup_limits():
    assert expected_speedup(0.0, 4, 0.1) == pytest.approx(1 / 1.4)  # only the fallback token
    assert expected_speedup(1.0, 4, 0.1) == pytest.approx(5 / 1.4)  # every token accepted
    assert expected_speedup(0.8, 0, 0.3) == pytest.approx(1.0)
    # Leviathan et al. 2023, Table/Fig.: alpha 0.8, gamma 4, c 0.05 -> ~ 2.8x
    assert expected_speedup(0.8, 4, 0.05) == pytest.approx((1 - 0.8**5) / (0.2 * 1.2))
    with pytest.raises(ValueError):
        expected_speedup(1.5, 2, 0.1)


def test_expected_speedup_with_a_costlier_verify_forward():
    assert expected_speedup(0.8, 4, 0.05, verify_cost=1.0) == expected_speedup(0.8, 4, 0.05)
    assert expected_speedup(0.8, 4, 0.05, verify_cost=1.4) == pytest.approx(
        (1 - 0.8**5) / (0.2 * (4 * 0.05 + 1.4)))
    assert expected_speedup(0.8, 0, 0.05, verify_cost=1.4) == pytest.approx(1.0)


@pytest.mark.parametrize("alpha,c", [(0.3, 0.05), (0.6, 0.1), (0.8, 0.05), (0.9, 0.2),
                                     (0.95, 0.02), (0.5, 0.6)])
def test_optimal_gamma_is_the_brute_force_argmax(alpha, c):
    best = max(range(1, 9), key=lambda g: expected_speedup(alpha, g, c))
    assert optimal_gamma(alpha, c, 8) == best


def test_optimal_gamma_grows_with_acceptance():
    gammas = [optimal_gamma(a, 0.05, 16) for a in (0.3, 0.6, 0.8, 0.9, 0.97)]
    assert gammas == sorted(gammas) and gammas[0] < gammas[-1]


def test_vllm_style_counters():
    assert acceptance_rate(30, 40) == 0.75
    assert acceptance_rate(0, 0) == 0.0
    assert mean_acceptance_length(30, 10) == 4.0  # 3 accepted + 1 resampled/bonus per step
    assert mean_acceptance_length(0, 0) == 0.0


def test_heuristic_moves_up_on_full_and_down_on_partial():
    ctl = HeuristicGamma(3, gamma_max=5)
    ctl.update(3, 3, 3, 0.01, 0.01)
    assert ctl.gamma() == 4
    ctl.update(4, 4, 4, 0.01, 0.01)
    ctl.update(5, 5, 5, 0.01, 0.01)
    assert ctl.gamma() == 5  # clamped at gamma_max
    ctl.update(5, 3, 2, 0.01, 0.01)
    assert ctl.gamma() == 4
    for _ in range(10):
        ctl.update(ctl.gamma(), 1, 0, 0.01, 0.01)
    assert ctl.gamma() == 1  # never below 1


def test_heuristic_counts_a_short_proposal_taken_whole_as_full():
    """Prompt lookup may propose fewer than gamma tokens; all of them accepted is no
    rejection, so gamma must not walk down (it used to: accepted < gamma read as partial)."""
    ctl = HeuristicGamma(4, gamma_max=6)
    ctl.update(4, 2, 2, 0.0, 0.01)  # 2 proposed and judged, 2 accepted
    assert ctl.gamma() == 5
    ctl.update(5, 0, 0, 0.0, 0.01)  # nothing proposed: no evidence either way
    assert ctl.gamma() == 5
    ctl.update(5, 3, 2, 0.0, 0.01)  # rejected at the third position
    assert ctl.gamma() == 4


def test_constant_ignores_feedback():
    ctl = ConstantGamma(4)
    ctl.update(4, 1, 0, 0.01, 0.01)
    assert ctl.gamma() == 4


@pytest.mark.parametrize("alpha,c", [(0.5, 0.1), (0.85, 0.05), (0.95, 0.1), (0.2, 0.3)])
def test_goodput_picks_the_formula_argmax_from_measurements(alpha, c):
    """Feed steps whose geometric acceptance is alpha and cost ratio c: the controller must
    choose the brute-force argmax of the expected speedup."""
    ctl = GoodputGamma(4, gamma_max=8)
    gamma, target_s = 4, 0.010
    for _ in range(200):
        # Expected verified positions / accepted for a gamma-step with acceptance alpha:
        accepted = sum(alpha ** i for i in range(1, gamma + 1))
        drafted = sum(alpha ** i for i in range(gamma))
        ctl.update(gamma, drafted, accepted, gamma * c * target_s, target_s)
    assert ctl.alpha == pytest.approx(alpha, abs=0.01)
    assert ctl.cost_ratio_ema == pytest.approx(c)
    best = max(range(1, 9), key=lambda g: expected_speedup(min(alpha, 0.999), g, c))
    assert ctl.gamma() == best


def test_make_controller_rejects_bad_input():
    with pytest.raises(ValueError, match="gamma_strategy"):
        make_controller("fastest", 4, 8)
    with pytest.raises(ValueError, match=">= 1"):
        make_controller("constant", 0, 8)

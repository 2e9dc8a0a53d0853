"""Verdict logic on hand-made token lists and distributions."""

from __future__ import annotations

import math

import pytest
import torch

from guardian.equivalence.verdicts import (
    MIN_WINDOW_FOR_ACCEPTANCE_TEST,
    AcceptanceWindow,
    drafted_observations,
    expected_acceptance,
    greedy_verdict,
    sampled_verdict,
    total_variation,
)


def test_identical_greedy_outputs_match() -> None:
    v = greedy_verdict([5, 6, 7], [5, 6, 7], [3.0, 3.0, 3.0], tolerance=0.5)
    assert v.verdict == "match"
    assert v.first_divergence_position is None


def test_flip_at_small_margin_is_near_tie_with_position_and_margin() -> None:
    v = greedy_verdict([5, 6, 7, 8], [5, 9, 1, 1], [3.0, 0.1, 3.0, 3.0], tolerance=0.5)
    assert (v.verdict, v.first_divergence_position, v.margin_at_divergence) == ("near_tie", 1, 0.1)
    # only the prefix up to the tie is compared: later differences don't matter
    assert v.details["compared_tokens"] == 1


def test_flip_at_large_margin_is_divergence() -> None:
    v = greedy_verdict([5, 6, 7], [5, 6, 9], [3.0, 3.0, 2.0], tolerance=0.5)
    assert (v.verdict, v.first_divergence_position, v.margin_at_divergence) == ("divergence", 2, 2.0)


def test_margin_equal_to_tolerance_is_not_a_tie() -> None:
    assert greedy_verdict([1], [2], [0.5], tolerance=0.5).verdict == "divergence"


def test_one_path_stopping_early_is_a_divergence_at_its_length() -> None:
    # same tokens, different length: a stopping bug, never excused as a tie (issue 11)
    v = greedy_verdict([5, 6], [5, 6, 7], [3.0, 3.0, 0.01], tolerance=0.5)
    assert (v.verdict, v.first_divergence_position) == ("divergence", 2)
    assert v.details["length_mismatch"] is True
    # no margin known at that position -> cannot be excused as a tie
    assert greedy_verdict([5], [5, 6], [3.0], 0.5).verdict == "divergence"


def test_total_variation_and_expected_acceptance_by_hand() -> None:
    p = torch.tensor([[0.5, 0.5, 0.0], [1.0, 0.0, 0.0]])
    q = torch.tensor([[0.25, 0.25, 0.5], [1.0, 0.0, 0.0]])
    assert torch.allclose(total_variation(p, q), torch.tensor([0.5, 0.0]))
    assert torch.allclose(expected_acceptance(p, q), torch.tensor([0.5, 1.0]))


def test_equal_distributions_are_ok_and_a_skew_is_a_mismatch_at_its_position() -> None:
    p = torch.softmax(torch.randn(6, 10, generator=torch.Generator().manual_seed(0)), -1)
    assert sampled_verdict(p, p.clone(), tolerance=0.02).verdict == "distribution_ok"
    skewed = p.clone()
    skewed[4] = torch.full((10,), 0.1)
    v = sampled_verdict(p, skewed, tolerance=0.02)
    assert v.verdict == "distribution_mismatch"
    assert v.first_divergence_position == 4
    assert v.details["tv_at_divergence"] > 0.02


def test_drafted_observations_use_accepted_and_resampled_positions_only() -> None:
    p = torch.tensor([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0], [0.3, 0.7]])
    q = torch.tensor([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.3, 0.7]])
    obs = drafted_observations(["accepted", "resampled", "bonus", "target"], p, q)
    assert obs == [(1, 1.0), (0, 0.5)]


def _window(n: int, accept_every: int, e: float) -> AcceptanceWindow:
    w = AcceptanceWindow(size=10_000)
    w.extend([(1 if i % accept_every == 0 else 0, e) for i in range(n)])
    return w


def test_acceptance_matching_its_expectation_is_ok() -> None:
    p = torch.full((3, 4), 0.25)
    w = _window(400, accept_every=2, e=0.5)  # observed 200 of expected 200
    v = sampled_verdict(p, p, 0.02, w, z_threshold=4.0)
    assert v.verdict == "distribution_ok"
    assert v.details["acceptance_z"] == pytest.approx(0.0)


def test_acceptance_far_below_expectation_is_a_mismatch() -> None:
    p = torch.full((3, 4), 0.25)
    w = _window(400, accept_every=10, e=0.5)  # 40 accepted where 200 were expected
    v = sampled_verdict(p, p, 0.02, w, z_threshold=4.0)
    assert v.verdict == "distribution_mismatch"
    assert v.details["acceptance_z"] == pytest.approx((40 - 200) / math.sqrt(100))


def test_small_window_never_calls_a_mismatch() -> None:
    p = torch.full((3, 4), 0.25)
    w = _window(MIN_WINDOW_FOR_ACCEPTANCE_TEST - 1, accept_every=1000, e=0.9)
    v = sampled_verdict(p, p, 0.02, w)
    assert v.verdict == "distribution_ok"
    assert v.details["acceptance_test"] == "window_too_small"


def test_window_forgets_old_observations() -> None:
    w = AcceptanceWindow(size=3)
    w.extend([(0, 0.5)] * 5 + [(1, 0.5)] * 3)
    assert len(w) == 3
    assert w.summary()["observed_accepted"] == 3


def _tok(position: int, origin: str, p: float, q: float | None = None):
    from guardian.backends import TraceToken

    return TraceToken(position, 7, origin, q, p, 1.0, position, 4)  # type: ignore[arg-type]


def test_trace_verdict_checks_support_and_the_residual_of_resampled_tokens() -> None:
    from guardian.equivalence.verdicts import trace_verdict

    ok = [_tok(0, "accepted", 0.4, 0.5), _tok(1, "resampled", 0.3, 0.1), _tok(2, "bonus", 0.2)]
    assert trace_verdict(ok).verdict == "distribution_ok"
    # a resampled token comes from norm(max(p - q, 0)): p(x) <= q(x) there is impossible
    bad = trace_verdict([*ok[:1], _tok(1, "resampled", 0.1, 0.3)])
    assert (bad.verdict, bad.first_divergence_position) == ("distribution_mismatch", 1)
    assert bad.details["failed_check"] == "resampled_residual"
    zero = trace_verdict([*ok[:2], _tok(2, "bonus", 0.0)])
    assert (zero.verdict, zero.first_divergence_position) == ("distribution_mismatch", 2)
    assert zero.details["failed_check"] == "support"


def test_support_verdict_names_the_first_impossible_token() -> None:
    from guardian.equivalence.verdicts import support_verdict

    assert support_verdict([0.5, 0.1]).verdict == "distribution_ok"
    v = support_verdict([0.5, 0.0, 0.0])
    assert (v.verdict, v.first_divergence_position) == ("distribution_mismatch", 1)

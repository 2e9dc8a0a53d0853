"""The rejection sampler on hand-built distributions.

Statistical checks: 200k vectorised samples per case, a G-test of the emitted token
against p at alpha = 1e-4 per check (so the chance that a correct sampler fails any of
the checks below is < 1e-3). Seeded, so CI is deterministic anyway.
"""

from __future__ import annotations

import pytest
import torch
from scipy import stats

from engine.rejection import greedy_accept, leading_true, rejection_sample

N = 200_000
ALPHA = 1e-4


def g_test_pvalue(samples: torch.Tensor, p: torch.Tensor) -> float:
    observed = torch.bincount(samples, minlength=p.numel()).double()
    support = p > 0
    # Any sample outside p's support is an outright failure, not a statistical question.
    assert observed[~support].sum() == 0, "emitted a token the target gives probability 0"
    expected = p[support].double()
    expected = expected / expected.sum() * samples.numel()
    return float(stats.power_divergence(observed[support].numpy(), expected.numpy(),
                                        lambda_="log-likelihood").pvalue)


def first_output(q: torch.Tensor, p: torch.Tensor, gamma: int, seed: int) -> tuple:
    """N independent one-row steps with draft q_i and target p_i at every position."""
    gen = torch.Generator().manual_seed(seed)
    vocab = q.numel()
    q_b = q.expand(N, gamma, vocab)
    p_b = p.expand(N, gamma + 1, vocab)
    draft = torch.multinomial(q.expand(N * gamma, vocab), 1, replacement=True,
                              generator=gen).view(N, gamma)
    n, next_token = rejection_sample(draft, q_b, p_b, gen)
    # The token emitted at position 0 of the step: the first draft token if accepted,
    # else the resampled one. It must be distributed exactly as p.
    first = torch.where(n > 0, draft[:, 0], next_token)
    return n, next_token, draft, first


def _dist(values: list[float]) -> torch.Tensor:
    t = torch.tensor(values, dtype=torch.float32)
    return t / t.sum()


CASES = {
    "generic": (_dist([5, 1, 3, 0.5, 2, 0.5]), _dist([1, 4, 1, 2, 0.5, 1.5])),
    "q has zeros where p has mass": (_dist([1, 0, 3, 0, 2, 1]), _dist([2, 3, 1, 1, 1, 2])),
    "draft equals target": (_dist([1, 2, 3, 4, 5, 6]), _dist([1, 2, 3, 4, 5, 6])),
    "disjoint supports": (_dist([1, 1, 1, 0, 0, 0]), _dist([0, 0, 0, 1, 2, 3])),
}


@pytest.mark.parametrize("case", list(CASES))
def test_emitted_tokens_follow_target(case):
    q, p = CASES[case]
    gamma = 3
    n, next_token, _, first = first_output(q, p, gamma, seed=hash(case) % 1000)
    assert g_test_pvalue(first, p) > ALPHA
    # Acceptance of the first draft token happens with probability sum_x min(p, q).
    expected = torch.minimum(p, q).sum().item()
    # 6 sigma of a binomial proportion: a correct sampler fails with prob ~ 1e-9.
    tolerance = 6 * (expected * (1 - expected) / N) ** 0.5 + 1e-9
    assert (n > 0).double().mean().item() == pytest.approx(expected, abs=tolerance)
    # Bonus tokens (all accepted) are distributed as p at the last position.
    bonus = next_token[n == gamma]
    if bonus.numel() > 1000:
        assert g_test_pvalue(bonus, p) > ALPHA
    # Resampled tokens at position 0 follow norm(max(0, p - q)).
    resampled = next_token[n == 0]
    if resampled.numel() > 1000:
        residual = (p - q).clamp_min(0)
        assert g_test_pvalue(resampled, residual / residual.sum()) > ALPHA


def test_identical_distributions_accept_everything():
    q, p = CASES["draft equals target"]
    n, *_ = first_output(q, p, gamma=4, seed=1)
    assert bool((n == 4).all())


def test_disjoint_supports_reject_everything():
    q, p = CASES["disjoint supports"]
    n, *_ = first_output(q, p, gamma=4, seed=2)
    assert bool((n == 0).all())


def test_greedy_accept_by_hand():
    draft = torch.tensor([[5, 7, 9], [5, 7, 9], [1, 2, 3], [4, 4, 4]])
    target = torch.tensor([[5, 7, 9, 11], [5, 8, 9, 11], [0, 2, 3, 6], [4, 4, 4, 4]])
    n, next_token = greedy_accept(draft, target)
    assert n.tolist() == [3, 1, 0, 3]
    assert next_token.tolist() == [11, 8, 0, 4]


def test_greedy_accept_with_no_draft_is_a_target_step():
    n, next_token = greedy_accept(torch.empty(2, 0, dtype=torch.long), torch.tensor([[3], [4]]))
    assert n.tolist() == [0, 0] and next_token.tolist() == [3, 4]


def test_leading_true_counts_only_the_prefix():
    accept = torch.tensor([[True, False, True], [True, True, True], [False, True, True]])
    assert leading_true(accept).tolist() == [1, 3, 0]


def test_sampled_step_with_no_draft_samples_from_p():
    """gamma = 0 (one token left to emit) degenerates to plain target sampling."""
    p = _dist([1, 2, 3, 4]).expand(N, 1, 4)
    q = torch.empty(N, 0, 4)
    n, next_token = rejection_sample(torch.empty(N, 0, dtype=torch.long), q, p,
                                     torch.Generator().manual_seed(5))
    assert bool((n == 0).all())
    assert g_test_pvalue(next_token, _dist([1, 2, 3, 4])) > ALPHA


# --- deterministic proposals (n-gram prompt lookup): q = δ_x --------------------------------

P_POINT = _dist([5, 1, 3, 0, 2, 0.5])


@pytest.mark.parametrize("x", [0, 1, 3], ids=["likely x", "unlikely x", "x outside p"])
def test_point_mass_proposal_emits_tokens_that_follow_target(x):
    """q = δ_x: x accepted with probability p(x); a rejection resamples from p without x;
    when every position is accepted the bonus token follows p."""
    gamma, p = 3, P_POINT
    draft = torch.full((N, gamma), x)
    n, next_token = rejection_sample(draft, None, p.expand(N, gamma + 1, p.numel()),
                                     torch.Generator().manual_seed(11 + x))
    first = torch.where(n > 0, draft[:, 0], next_token)
    assert g_test_pvalue(first, p) > ALPHA
    expected = p[x].item()
    tolerance = 6 * (expected * (1 - expected) / N) ** 0.5 + 1e-9
    assert (n > 0).double().mean().item() == pytest.approx(expected, abs=tolerance)
    resampled = next_token[n == 0]
    residual = p.clone()
    residual[x] = 0.0
    assert g_test_pvalue(resampled, residual / residual.sum()) > ALPHA
    assert not bool((resampled == x).any())  # p - δ_x leaves no mass on x
    bonus = next_token[n == gamma]
    if expected > 0:
        assert g_test_pvalue(bonus, p) > ALPHA
    else:
        assert bonus.numel() == 0


def test_point_mass_on_a_certain_token_is_always_accepted():
    p = _dist([0, 0, 1, 0])
    draft = torch.full((1000, 4), 2)
    n, next_token = rejection_sample(draft, None, p.expand(1000, 5, 4),
                                     torch.Generator().manual_seed(3))
    assert bool((n == 4).all()) and bool((next_token == 2).all())


def test_rows_propose_different_lengths():
    """Positions past a row's length are never judged: the token at n == length is that
    row's bonus token, drawn from p there (here p differs per position to tell them apart)."""
    vocab, gamma = 4, 3
    p = torch.stack([_dist([1, 0, 0, 0]), _dist([0, 1, 0, 0]), _dist([0, 0, 1, 0]),
                     _dist([0, 0, 0, 1])])  # position j always emits token j
    draft = torch.tensor([[0, 1, 2]] * 3)  # each draft token has p = 1: accepted when judged
    lengths = torch.tensor([0, 2, 3])
    for q in (None, torch.full((3, gamma, vocab), 0.25)):
        n, next_token = rejection_sample(draft, q, p.expand(3, gamma + 1, vocab),
                                         torch.Generator().manual_seed(4), lengths)
        assert n.tolist() == [0, 2, 3]
        assert next_token.tolist() == [0, 2, 3]


def test_point_mass_with_short_rows_keeps_the_target_distribution():
    """Rows with no proposal (length 0) sample p itself; rows with one get the usual rule."""
    gamma, p = 2, P_POINT
    draft = torch.full((N, gamma), 2)
    lengths = torch.tensor([0, 1]).repeat(N // 2)
    n, next_token = rejection_sample(draft, None, p.expand(N, gamma + 1, p.numel()),
                                     torch.Generator().manual_seed(8), lengths)
    assert bool((n <= lengths).all())
    none = lengths == 0
    assert g_test_pvalue(next_token[none], p) > ALPHA
    first = torch.where(n > 0, draft[:, 0], next_token)[~none]
    assert g_test_pvalue(first, p) > ALPHA
    assert g_test_pvalue(next_token[~none & (n == 1)], p) > ALPHA  # bonus after length 1

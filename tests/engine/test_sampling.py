"""Sampled speculative decoding end to end: it must sample from the target's distribution.

False-failure budget: each statistical check below uses a threshold with a false-failure
probability of at most 1e-4 for a correct engine (G-test p-value > 1e-4; z-scores < 4,
two-sided 6e-5). Seeds are fixed, so CI is deterministic anyway.
"""

from __future__ import annotations

import pytest
import torch
from scipy import stats

from engine import generate, score_target
from engine.sampling import SamplingParams, process_logits
from tests.support.tiny_models import PROMPTS

ALPHA = 1e-4


def _draft_distributions(pair, prompt_ids, completion_ids, params) -> torch.Tensor:
    """Teacher-forced processed draft distributions q at each completion position."""
    ids = torch.tensor([prompt_ids + completion_ids[:-1]])
    with torch.inference_mode():
        logits = pair.draft(input_ids=ids).logits[0, len(prompt_ids) - 1:]
    return process_logits(logits, params)


def test_first_token_follows_the_target_distribution_in_a_batch(close_pair):
    """4000 rows of one prompt decoded as a single batch (so the min-over-rows commit rule
    is exercised on nearly every row): the first token's histogram matches p."""
    params = dict(temperature=0.9, top_k=20)
    prompt = PROMPTS[0]
    results = generate(close_pair, [prompt] * 4000, speculative=True, max_new_tokens=2,
                       gamma=3, seed=1234, **params)
    first = torch.tensor([r.token_ids[0] for r in results])
    origins = {r.trace[0].origin for r in results}
    assert {"accepted", "resampled"} <= origins  # both paths produced first tokens
    prompt_ids = results[0].prompt_token_ids
    p = score_target(close_pair, prompt_ids, [0], **params).distributions[0].double()
    # Every row shares the prefix, so first-position acceptance is one Bernoulli(beta).
    q = _draft_distributions(close_pair, prompt_ids, [0], SamplingParams(**params))[0].double()
    beta = torch.minimum(p, q).sum().item()
    accepted = sum(r.trace[0].origin == "accepted" for r in results)
    z = (accepted - beta * len(results)) / (beta * (1 - beta) * len(results)) ** 0.5
    assert abs(z) < 4.0, (accepted / len(results), beta)
    observed = torch.bincount(first, minlength=p.numel()).double()
    assert observed[p == 0].sum() == 0, "sampled a token outside top-k"
    expected = p * first.numel()
    # Pool sparse categories so the G-test's asymptotics hold (expected counts >= 5).
    keep = expected >= 5
    obs = torch.cat([observed[keep], observed[~keep].sum().view(1)])
    exp = torch.cat([expected[keep], expected[~keep].sum().view(1)])
    if exp[-1] < 5:
        obs, exp = obs[:-1], exp[:-1]
    exp = exp / exp.sum() * obs.sum()
    pvalue = stats.power_divergence(obs.numpy(), exp.numpy(), lambda_="log-likelihood").pvalue
    assert pvalue > ALPHA


@pytest.mark.parametrize("generations", [
    12, pytest.param(60, marks=pytest.mark.slow, id="60-generations")])
def test_acceptance_matches_its_expectation_per_position(close_pair, generations):
    """Empirical acceptance at each draft position vs sum_x min(p(x), q(x)) computed from
    the recorded target distributions and the draft's distributions at the same prefix.
    """
    gamma = 3
    params = SamplingParams(temperature=1.0)
    accepted = torch.zeros(gamma, dtype=torch.float64)
    expected = torch.zeros(gamma, dtype=torch.float64)
    variance = torch.zeros(gamma, dtype=torch.float64)
    for seed in range(generations):
        res = generate(close_pair, PROMPTS[seed % len(PROMPTS)], speculative=True,
                       max_new_tokens=48, gamma=gamma, temperature=1.0, seed=seed,
                       record_distributions=True)
        q = _draft_distributions(close_pair, res.prompt_token_ids, res.token_ids, params)
        beta = torch.minimum(res.target_distributions, q).sum(dim=-1).double()  # (T,)
        step_start: dict[int, int] = {}
        for t in res.trace:
            j = t.position - step_start.setdefault(t.step, t.position)  # draft position
            if t.origin in ("accepted", "resampled"):  # bonus tokens were never drafted
                accepted[j] += t.origin == "accepted"
                expected[j] += beta[t.position]
                variance[j] += beta[t.position] * (1 - beta[t.position])
    assert (variance > 5.0).all(), f"too few draft tokens verified per position: {variance}"
    z = (accepted - expected) / variance.sqrt()
    assert (z.abs() < 4.0).all(), (accepted.tolist(), expected.tolist())
    total = (accepted.sum() - expected.sum()) / variance.sum().sqrt()
    assert abs(total) < 4.0


def test_recorded_distributions_equal_the_targets_own(close_pair):
    """The distribution the verifier used at each emitted position is the target's
    distribution at that prefix (the shadow evaluator's sampled-mode check)."""
    kwargs = dict(temperature=0.8, top_p=0.9, top_k=50)
    for seed, prompt in enumerate(PROMPTS[:4]):
        res = generate(close_pair, prompt, speculative=True, max_new_tokens=20, gamma=4,
                       seed=seed, record_distributions=True, **kwargs)
        reference = score_target(close_pair, res.prompt_token_ids, res.token_ids, **kwargs)
        assert torch.allclose(res.target_distributions, reference.distributions, atol=1e-5)
        for t in res.trace:
            assert t.target_prob == pytest.approx(reference.token_probs[t.position], abs=1e-5)
            assert t.target_prob > 0.0


def test_seed_makes_sampling_reproducible(close_pair):
    runs = [generate(close_pair, PROMPTS[1], speculative=spec, max_new_tokens=20,
                     temperature=1.0, seed=7).token_ids
            for spec in (True, True, False, False)]
    assert runs[0] == runs[1] and runs[2] == runs[3]
    other = generate(close_pair, PROMPTS[1], speculative=True, max_new_tokens=20,
                     temperature=1.0, seed=8).token_ids
    assert other != runs[0]


def test_process_logits_filters():
    logits = torch.tensor([[2.0, 1.0, 0.5, 0.0, -1.0]])
    top2 = process_logits(logits, SamplingParams(temperature=1.0, top_k=2))
    assert (top2[0, 2:] == 0).all() and top2.sum().item() == pytest.approx(1.0)
    nucleus = process_logits(logits, SamplingParams(temperature=1.0, top_p=0.5))
    assert nucleus[0].tolist() == [1.0, 0.0, 0.0, 0.0, 0.0]  # top-1 holds > 50% of mass
    cold = process_logits(logits, SamplingParams(temperature=0.1))
    assert cold[0, 0] > 0.99
    with pytest.raises(ValueError, match="top_p"):
        SamplingParams(top_p=0.0)

"""N-gram prompt lookup: the lookup itself by hand, greedy output identical to target-only,
sampled output distributed as the target's, and the trace a deterministic proposal leaves."""

from __future__ import annotations

from typing import get_args

import pytest
import torch
from scipy import stats

from engine import generate, score_target
from engine.proposers import ProposerKind, prompt_lookup
from tests.support.tiny_models import PROMPTS

ALPHA = 1e-4
# Repetitive prompts: their continuation is likely to repeat what they already contain.
REPEATS = [PROMPTS[0] * 3, "for i in range(10):\n    print(i)\n" * 2 + "for i in",
           PROMPTS[3] * 2 + PROMPTS[3][:8]]


def test_lookup_takes_the_longest_suffix_and_its_latest_occurrence():
    #        0  1  2  3  4  5  6  7  8  9
    tokens = [1, 2, 3, 9, 1, 2, 3, 7, 1, 2]
    # suffix (1, 2) last occurred at 4..5 (not 0..1): propose what followed it there.
    assert prompt_lookup(tokens, 3, 1, 4) == [3, 7, 1]
    assert prompt_lookup(tokens, 1, 1, 4) == [3]
    # suffix (3, 1, 2) occurs at 2..4 only when n may be 3; (7, 1, 2) never: 3-gram wins.
    assert prompt_lookup([5, 3, 1, 2, 8, 3, 1, 2], 2, 1, 3) == [8, 3]
    # periodic text: the most recent occurrence's continuation runs into the suffix, so the
    # earliest occurrence (the longest continuation) is taken instead
    assert prompt_lookup([4, 4, 4], 5, 1, 2) == [4]
    assert prompt_lookup([4, 5, 4, 5], 5, 1, 2) == [4, 5]
    #        0  1  2  3  4  5  6  7  8
    loop = [1, 2, 3, 1, 2, 3, 1, 2, 3]
    # (2, 3) last occurred at 4..5: only 3 tokens follow it; at 1..2 a whole 4 do.
    assert prompt_lookup(loop, 4, 1, 2) == [1, 2, 3, 1]
    assert prompt_lookup(loop, 3, 1, 2) == [1, 2, 3]  # the most recent has 3: it wins


def test_lookup_without_a_match_proposes_nothing():
    assert prompt_lookup([1, 2, 3, 4], 3, 1, 4) == []
    assert prompt_lookup([7], 3, 1, 4) == []
    # n_min = 2: a single repeated token is not enough
    assert prompt_lookup([1, 2, 5, 3, 2], 3, 2, 4) == []
    assert prompt_lookup([1, 2, 5, 3, 2], 3, 1, 4) == [5, 3, 2]


def test_proposer_kinds_match_the_guardian_vocabulary():
    from engine.controllers import GammaStrategy
    from engine.proposers import BUILDERS
    from guardian.core import enums

    assert get_args(ProposerKind) == get_args(enums.ProposerKind)
    assert get_args(GammaStrategy) == get_args(enums.GammaStrategy)
    assert sorted(BUILDERS) == sorted(get_args(ProposerKind))  # every kind can be built


@pytest.mark.parametrize("which", ["llama_pair", "close_pair"])
def test_greedy_ngram_is_token_identical_to_target_only(which, request):
    pair = request.getfixturevalue(which)
    for i, prompt in enumerate(PROMPTS + REPEATS):
        baseline = generate(pair, prompt, speculative=False, max_new_tokens=32)
        for gamma in (1 + i % 8, 1 + (i + 3) % 8):
            spec = generate(pair, prompt, speculative=True, max_new_tokens=32, gamma=gamma,
                            proposer="ngram")
            assert (spec.token_ids, spec.text, spec.finish_reason) == (
                baseline.token_ids, baseline.text, baseline.finish_reason), (prompt, gamma)


@pytest.mark.parametrize("arch", ["gpt2", "qwen2"])
def test_greedy_ngram_other_architectures_and_padded_batches(arch, load):
    pair = load(f"{arch}-draft", f"{arch}-target")
    prompts = PROMPTS + REPEATS
    singles = [generate(pair, p, speculative=False, max_new_tokens=20) for p in prompts]
    for gamma in (2, 5):
        batch = generate(pair, prompts, speculative=True, max_new_tokens=20, gamma=gamma,
                         proposer="ngram", prompt_lookup_min=2, prompt_lookup_max=3)
        assert [r.token_ids for r in batch] == [s.token_ids for s in singles], gamma
        for prompt, single in zip(prompts[:3], singles, strict=False):
            one = generate(pair, prompt, speculative=True, max_new_tokens=20, gamma=gamma,
                           proposer="ngram")
            assert one.token_ids == single.token_ids


def test_ngram_trace_and_counters(close_pair):
    """Lookup runs no draft forward, accepts tokens on repetitive text, and its trace says
    q(x) = 1 for accepted tokens (a point mass) and 0 for the resampled one."""
    accepted = 0
    for prompt in REPEATS:
        res = generate(close_pair, prompt, speculative=True, max_new_tokens=40, gamma=4,
                       proposer="ngram", record_distributions=True)
        st = res.stats
        assert st.draft_forwards == 0
        assert st.proposed_tokens >= st.judged_tokens >= st.accepted
        assert st.counters.alpha == st.alpha
        assert st.target_forwards == st.steps + 1
        assert sum(st.drafted_per_position) == st.judged_tokens
        assert sum(st.accepted_per_position) == st.accepted
        for t in res.trace:
            assert 0 <= t.gamma <= 4
            expected_q = {"accepted": 1.0, "resampled": 0.0, "bonus": None}[t.origin]
            assert t.draft_prob == expected_q, t
        assert res.target_distributions.argmax(dim=-1).tolist() == res.token_ids
        accepted += st.accepted
    assert accepted > 0, "prompt lookup never hit on repetitive prompts"


def test_bad_proposer_options_say_what_is_wrong(close_pair):
    with pytest.raises(ValueError, match="proposer"):
        generate(close_pair, "x", speculative=True, max_new_tokens=4, proposer="eagle")
    with pytest.raises(ValueError, match="prompt_lookup_min"):
        generate(close_pair, "x", speculative=True, max_new_tokens=4, proposer="ngram",
                 prompt_lookup_min=3, prompt_lookup_max=2)


def _prompt_whose_lookup_proposes_a_likely_token(pair) -> list[int]:
    """Token ids `base + [t, y, t]`, whose 1-gram lookup proposes y, with the y the target
    finds most likely there (a random tiny target gives a random earlier continuation
    almost no mass, so y is searched over the vocabulary)."""
    base, t = pair.tokenizer(PROMPTS[0])["input_ids"], 7
    candidates = [[*base, t, y, t] for y in range(len(pair.tokenizer)) if y != t]
    with torch.inference_mode():
        logits = pair.target(input_ids=torch.tensor(candidates)).logits[:, -1]  # (C, V)
    p_y = torch.softmax(logits.float(), dim=-1)[torch.arange(len(candidates)),
                                                 [c[-2] for c in candidates]]
    return candidates[int(p_y.argmax())]


def test_sampled_ngram_first_token_follows_the_target(close_pair):
    """4000 rows of a prompt whose lookup proposes a likely token, in one batch: the first
    token is accepted with probability p(x), and distributed as p either way."""
    params = dict(temperature=1.0)
    prompt_ids = _prompt_whose_lookup_proposes_a_likely_token(close_pair)
    results = generate(close_pair, [prompt_ids] * 4000, speculative=True, max_new_tokens=2,
                       gamma=3, seed=99, proposer="ngram", prompt_lookup_max=1, **params)
    first = torch.tensor([r.token_ids[0] for r in results])
    assert {r.trace[0].origin for r in results} >= {"accepted", "resampled"}
    p = score_target(close_pair, prompt_ids, [0], **params).distributions[0].double()
    proposed = prompt_lookup(prompt_ids, 1, 1, 1)[0]
    beta = p[proposed].item()  # sum_x min(p(x), δ(x)) = p(proposed)
    assert 0.05 < beta < 0.95
    accepted = sum(r.trace[0].origin == "accepted" for r in results)
    z = (accepted - beta * len(results)) / (beta * (1 - beta) * len(results)) ** 0.5
    assert abs(z) < 4.0, (accepted / len(results), beta)
    observed = torch.bincount(first, minlength=p.numel()).double()
    assert observed[p == 0].sum() == 0
    expected = p * first.numel()
    keep = expected >= 5  # pool sparse categories so the G-test's asymptotics hold
    obs = torch.cat([observed[keep], observed[~keep].sum().view(1)])
    exp = torch.cat([expected[keep], expected[~keep].sum().view(1)])
    exp = exp / exp.sum() * obs.sum()
    pvalue = stats.power_divergence(obs.numpy(), exp.numpy(), lambda_="log-likelihood").pvalue
    assert pvalue > ALPHA


def test_sampled_ngram_uses_the_targets_distributions(close_pair):
    """The distribution the verifier used at each emitted position is the target's own at
    that prefix, and every resampled token had p(x) > q(x) = 0."""
    kwargs = dict(temperature=0.8, top_k=50)
    for seed, prompt in enumerate(REPEATS):
        res = generate(close_pair, prompt, speculative=True, max_new_tokens=24, gamma=4,
                       seed=seed, record_distributions=True, proposer="ngram", **kwargs)
        reference = score_target(close_pair, res.prompt_token_ids, res.token_ids, **kwargs)
        assert torch.allclose(res.target_distributions, reference.distributions, atol=1e-5)
        assert all(t.target_prob > 0.0 for t in res.trace)
        assert all(t.target_prob > t.draft_prob for t in res.trace if t.origin == "resampled")
        again = generate(close_pair, prompt, speculative=True, max_new_tokens=24, gamma=4,
                         seed=seed, proposer="ngram", **kwargs)
        assert again.token_ids == res.token_ids  # seeded sampling is reproducible


def test_lookup_agrees_with_a_plain_scan():
    """The byte search against the definition, on random short alphabets (many matches,
    many byte-level false matches across token boundaries: ids 1 and 256 share bytes)."""
    def plain(tokens: list[int], k: int, n_min: int, n_max: int) -> list[int]:
        for n in range(min(n_max, len(tokens) - 1), n_min - 1, -1):
            starts = [s + n for s in range(len(tokens) - n)
                      if tokens[s:s + n] == tokens[len(tokens) - n:]]
            if starts:
                whole = [s for s in starts if s + k <= len(tokens)]
                start = whole[-1] if whole else starts[0]
                return tokens[start:start + k]
        return []

    gen = torch.Generator().manual_seed(0)
    alphabet = torch.tensor([0, 1, 256, 65536, 257])
    for _ in range(300):
        size = int(torch.randint(1, 30, (1,), generator=gen))
        tokens = alphabet[torch.randint(0, 5, (size,), generator=gen)].tolist()
        for n_min, n_max in ((1, 1), (1, 4), (2, 3)):
            assert prompt_lookup(tokens, 3, n_min, n_max) == plain(tokens, 3, n_min, n_max)


def test_sampled_ngram_acceptance_matches_its_expectation(close_pair):
    """Each judged proposal x is accepted with probability p(x) (sum_x min(p, δ_x)), with p
    the recorded target distribution at that position and x recomputed by the lookup."""
    accepted = expected = variance = 0.0
    # Random tiny models give most lookups almost no mass; this prompt's first one has some.
    prompt = _prompt_whose_lookup_proposes_a_likely_token(close_pair)
    for seed in range(40):
        res = generate(close_pair, prompt, speculative=True, max_new_tokens=24, gamma=4,
                       temperature=1.0, seed=seed, record_distributions=True, proposer="ngram")
        history = list(res.prompt_token_ids)
        step_start: dict[int, int] = {}
        for t in res.trace:
            start = step_start.setdefault(t.step, t.position)
            if t.origin in ("accepted", "resampled"):
                proposal = prompt_lookup(history[:len(res.prompt_token_ids) + start], t.gamma, 1, 4)
                beta = float(res.target_distributions[t.position, proposal[t.position - start]])
                accepted += t.origin == "accepted"
                expected += beta
                variance += beta * (1 - beta)
            history.append(t.token_id)
    assert variance > 3.0, "too few proposals judged"
    assert abs(accepted - expected) / variance ** 0.5 < 4.0, (accepted, expected)


@pytest.mark.integration
@pytest.mark.slow
def test_demo_pair_greedy_ngram_is_token_identical_on_both_bench_workloads(demo_pair_paths):
    """The prompts `guardian bench engine` decodes (held-out and code-edit), greedy: prompt
    lookup changes how many target forwards it takes, never the tokens. On the code-edit
    workload, whose output copies the prompt, it accepts tokens."""
    from engine import SpecCounters, load_pair
    from engine.demo_pair.corpus import code_edit_prompts, heldout_prompts

    pair = load_pair(demo_pair_paths.draft_dir, demo_pair_paths.target_dir)
    def count(text: str) -> int:
        return len(pair.tokenizer(text)["input_ids"])

    for prompts in (heldout_prompts(4), code_edit_prompts(4, count_tokens=count)):
        baseline = generate(pair, prompts, speculative=False, max_new_tokens=64)
        spec = generate(pair, prompts, speculative=True, max_new_tokens=64, gamma=4,
                        proposer="ngram")
        assert [r.token_ids for r in spec] == [r.token_ids for r in baseline]
        for prompt, base in zip(prompts, baseline, strict=True):
            one = generate(pair, prompt, speculative=True, max_new_tokens=64, gamma=4,
                           proposer="ngram")
            assert one.token_ids == base.token_ids
    assert SpecCounters.total(r.stats.counters for r in spec).accepted > 0

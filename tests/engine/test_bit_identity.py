"""The refactored speculative loop against the frozen pre-refactor one (reference_decode.py).

With the draft-model proposer the refactor must change nothing a caller can see: the same
token ids, the same trace (origins, p(x), q(x), margins, steps, gamma), the same recorded
distributions and the same counters — bit for bit, greedy and sampled with a seed (so the
order of random draws is kept too), single prompts and padded batches, every gamma in 1..8
and every gamma strategy. The demo-pair case decodes the prompts `guardian bench engine` uses.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
import torch

from engine import Pair, generate
from engine.api import _encode
from engine.controllers import make_controller
from engine.sampling import SamplingParams
from engine.trace import GenerationResult
from tests.support.tiny_models import PROMPTS

from . import reference_decode as ref

# Counters the reference kept (it predates proposed_tokens) and that must match exactly;
# times are wall-clock and differ run to run.
_COUNTERS = ("prompt_tokens", "completion_tokens", "steps", "judged_tokens", "accepted",
             "drafted_per_position", "accepted_per_position", "draft_forwards",
             "target_forwards")


def reference_generate(pair: Pair, prompts: list[str], *, max_new_tokens: int,
                       temperature: float = 0.0, top_p: float = 1.0, top_k: int = 0,
                       gamma: int = 4, gamma_strategy: str = "constant", gamma_max: int = 8,
                       seed: int | None = None, stop: list[str] | None = None,
                       record_distributions: bool = False,
                       controller: Any = None) -> list[ref.RowResult]:
    """What `engine.generate(..., speculative=True)` did before the refactor."""
    generator = None
    if seed is not None:
        generator = torch.Generator(device=pair.device).manual_seed(seed)
    req = ref.DecodeRequest(prompts=[_encode(pair, p) for p in prompts],
                            params=SamplingParams(temperature=temperature, top_p=top_p,
                                                  top_k=top_k),
                            max_new_tokens=max_new_tokens, stop=list(stop or []),
                            record_distributions=record_distributions, generator=generator)
    controller = controller or make_controller(gamma_strategy, gamma, gamma_max)
    return ref.decode_speculative(pair, req, controller)


_CORE_FIELDS = ("position", "token_id", "origin", "draft_prob", "target_prob", "target_margin",
                "step", "gamma")


def _core(t: Any) -> tuple:
    return tuple(getattr(t, f) for f in _CORE_FIELDS)


def assert_identical(new: list[GenerationResult], old: list[ref.RowResult]) -> None:
    assert len(new) == len(old)
    for i, (res, row) in enumerate(zip(new, old, strict=True)):
        assert res.token_ids == row.completion.token_ids, i
        assert res.finish_reason == (row.completion.finish_reason or "length"), i
        # The fields the reference produced, floats exactly (the evidence fields added
        # since — engine/trace.py — are read-only extras and default to None there).
        assert [_core(t) for t in res.trace] == [_core(t) for t in row.completion.trace], i
        for name in _COUNTERS:
            assert getattr(res.stats, name) == getattr(row.stats, name), (i, name)
        # The reference proposed gamma tokens at every step; the trace says which gamma.
        per_step = {t.step: t.gamma for t in res.trace}
        assert res.stats.proposed_tokens >= sum(per_step.values()), i
        old_dists = row.completion.target_distributions()
        if old_dists is None:
            assert res.target_distributions is None
        else:
            assert torch.equal(res.target_distributions, old_dists), i


def _both(pair: Pair, prompts: list[str], **kwargs: Any) -> None:
    new = generate(pair, prompts, speculative=True, **kwargs)
    assert_identical(new, reference_generate(pair, prompts, **kwargs))


class _Recording:
    """Wraps the controller the new engine builds and records every gamma it chose."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.chosen = inner, []

    def gamma(self) -> int:
        self.chosen.append(self.inner.gamma())
        return self.chosen[-1]

    def update(self, *args: Any) -> None:
        self.inner.update(*args)


class _Replay:
    def __init__(self, chosen: list[int]) -> None:
        self.chosen = iter(chosen)

    def gamma(self) -> int:
        return next(self.chosen)

    def update(self, *args: Any) -> None:
        pass


def _both_replayed(pair: Pair, prompts: list[str], monkeypatch: pytest.MonkeyPatch,
                   **kwargs: Any) -> None:
    """The goodput controller reads wall-clock times, so two runs choose different gammas
    on a loaded machine: replay the new run's choices into the reference instead."""
    import engine.api

    made: list[_Recording] = []

    def recording(*args: Any) -> _Recording:
        made.append(_Recording(make_controller(*args)))
        return made[-1]

    monkeypatch.setattr(engine.api, "make_controller", recording)
    new = generate(pair, prompts, speculative=True, **kwargs)
    monkeypatch.undo()
    (rec,) = made
    assert_identical(new, reference_generate(pair, prompts, controller=_Replay(rec.chosen),
                                             **kwargs))


@pytest.mark.parametrize("which", ["close_pair", "llama_pair", "self_pair"])
@pytest.mark.parametrize("gamma", range(1, 9))
def test_greedy_single_prompts_are_bit_identical(which, gamma, request):
    pair = request.getfixturevalue(which)
    for prompt in PROMPTS[gamma % 4::4]:
        _both(pair, [prompt], max_new_tokens=24, gamma=gamma, record_distributions=True)


@pytest.mark.parametrize("gamma", range(1, 9))
def test_sampled_single_prompts_are_bit_identical(close_pair, gamma):
    for seed, prompt in enumerate(PROMPTS[gamma % 4::4]):
        _both(close_pair, [prompt], max_new_tokens=24, gamma=gamma, temperature=0.9,
              top_k=40, top_p=0.95, seed=seed, record_distributions=True)


@pytest.mark.parametrize("temperature", [0.0, 1.0])
@pytest.mark.parametrize("gamma", [1, 3, 8])
def test_padded_batches_are_bit_identical(close_pair, temperature, gamma):
    _both(close_pair, PROMPTS, max_new_tokens=16, gamma=gamma, temperature=temperature,
          seed=7, record_distributions=True)


@pytest.mark.parametrize("strategy", ["heuristic", "goodput"])
@pytest.mark.parametrize("temperature", [0.0, 0.8])
def test_gamma_strategies_are_bit_identical(close_pair, strategy, temperature, monkeypatch):
    both = _both if strategy == "heuristic" else (
        lambda *a, **k: _both_replayed(*a, monkeypatch=monkeypatch, **k))
    for seed, prompt in enumerate(PROMPTS[:3]):
        both(close_pair, [prompt], max_new_tokens=40, gamma=2, gamma_strategy=strategy,
             gamma_max=6, temperature=temperature, seed=seed)
    both(close_pair, PROMPTS, max_new_tokens=20, gamma=2, gamma_strategy=strategy,
         gamma_max=6, temperature=temperature, seed=3)


@pytest.mark.parametrize("arch", ["gpt2", "qwen2"])
@pytest.mark.parametrize("temperature", [0.0, 1.0])
def test_other_architectures_are_bit_identical(arch, temperature, load):
    pair = load(f"{arch}-close", f"{arch}-target")
    for gamma in (1, 4, 7):
        _both(pair, PROMPTS[:2], max_new_tokens=16, gamma=gamma, temperature=temperature,
              seed=gamma)
        _both(pair, [PROMPTS[gamma]], max_new_tokens=16, gamma=gamma,
              temperature=temperature, seed=gamma)


def test_stops_and_context_limit_are_bit_identical(close_pair):
    free = generate(close_pair, PROMPTS[0], speculative=False, max_new_tokens=30)
    _both(close_pair, [PROMPTS[0]], max_new_tokens=30, gamma=5, stop=[free.text[7:10]])
    eos_pair = dataclasses.replace(close_pair, eos_token_ids={free.token_ids[6]})
    _both(eos_pair, PROMPTS[:4], max_new_tokens=30, gamma=4)
    short = dataclasses.replace(close_pair, max_context=20)
    _both(short, [PROMPTS[0]], max_new_tokens=100, gamma=6, temperature=1.0, seed=1)


@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.parametrize("temperature", [0.0, 1.0])
def test_demo_pair_bench_prompts_are_bit_identical(demo_pair_paths, temperature):
    """The held-out prompts `guardian bench engine` decodes, at its default gamma."""
    from engine import load_pair
    from engine.demo_pair import heldout_prompts

    pair = load_pair(demo_pair_paths.draft_dir, demo_pair_paths.target_dir)
    prompts = heldout_prompts(4)
    for prompt in prompts:
        _both(pair, [prompt], max_new_tokens=64, gamma=4, temperature=temperature, seed=0)
    _both(pair, prompts, max_new_tokens=32, gamma=4, temperature=temperature, seed=0)


@pytest.mark.parametrize("temperature", [0.0, 0.9])
def test_target_only_is_bit_identical(close_pair, temperature):
    """The target-only loop was rewritten onto the shared batch/forward modules too."""
    for prompts in ([PROMPTS[0]], PROMPTS):
        new = generate(close_pair, prompts, speculative=False, max_new_tokens=20,
                       temperature=temperature, top_k=40, seed=5, record_distributions=True)
        generator = torch.Generator(device=close_pair.device).manual_seed(5)
        req = ref.DecodeRequest(prompts=[_encode(close_pair, p) for p in prompts],
                                params=SamplingParams(temperature=temperature, top_k=40),
                                max_new_tokens=20, stop=[], record_distributions=True,
                                generator=generator)
        assert_identical(new, ref.decode_target_only(close_pair, req))

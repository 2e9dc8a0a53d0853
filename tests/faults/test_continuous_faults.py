"""The fault suite on the continuous batching engine (the engine `guardian serve` runs by
default): tests/faults/continuous_faults.py.

- every fault restores the engine on exit;
- every fault is live on a tiny random pair (built in seconds), driven through
  `engine.continuous.ContinuousEngine` directly: it changes speculative output — decoded alone
  for a per-row fault, in a shared batch for a cross-row one (`min_rows = 2`, which alone
  must show nothing) — and never target-only output, alone or as a batch of target-only rows;
  the speed-only fault keeps greedy output exact;
- every fault is caught through the real app (serving + shadow) over a *continuous batching*
  LocalEngineBackend on that pair, with requests sent in concurrent bursts so rows share the
  batch, within a bounded number of requests; clean traffic through the same backend raises
  no alarm;
- `-m faults` (integration, the demo pair): a subset through the continuous backend and clean
  traffic. The whole suite: `python -m tests.faults --full --batching continuous`.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
from pathlib import Path

import pytest
import torch

import engine.continuous
import engine.proposers.batched
import engine.ragged
import engine.rows
import engine.stopping
import engine.verify
from tests.faults.continuous_faults import CB_BY_NAME, CB_FAULTS
from tests.faults.faults import Fault

CLASSES = (engine.continuous.ContinuousEngine, engine.ragged.RaggedCache, engine.rows.Sequence,
           engine.proposers.batched.DraftRows)
PROMPTS = ("def add(a, b):\n    return", "the quick brown fox", "for i in range(10):\n    ",
           "import os\nimport sys\n", "class Point:\n    def __init__(self", "x = [1, 2, 3]\nprint(")
CORRECTNESS = [f for f in CB_FAULTS if f.category == "correctness"]
# Requests of its kind within which each fault must be caught on the tiny pair (bursts of 4).
TINY_LIMIT = 24


def _snapshot() -> dict:
    modules = (engine.continuous, engine.rows, engine.verify, engine.proposers.batched)
    out = {(m.__name__, k): v for m in modules for k, v in vars(m).items()}
    out.update({(c.__name__, k): v for c in CLASSES for k, v in vars(c).items()})
    out[("Completion", "extend")] = engine.stopping.Completion.extend
    out[("Completion", "text")] = engine.stopping.Completion.text
    return out


def test_continuous_suite_has_the_faults_the_issue_asks_for() -> None:
    areas = " ".join(f.area for f in CORRECTNESS)
    for area in ("cache crop (per row)", "another row's count", "positions (per row)",
                 "attention mask", "acceptance rule (greedy, per row)", "bonus token (greedy",
                 "EOS handling (per row)", "stop strings (per row)", "acceptance rule (sampled",
                 "residual", "top-k", "temperature", "draft sampling", "penalties one side",
                 "penalty counts inside a block", "grammar state inside a block",
                 "reported logprobs"):
        assert area in areas, area
    assert any(f.min_rows > 1 for f in CB_FAULTS)
    assert any(f.category == "speed" for f in CB_FAULTS)
    assert all(f.engine == "continuous" for f in CB_FAULTS)


@pytest.mark.parametrize("fault", CB_FAULTS, ids=lambda f: f.name)
def test_every_continuous_fault_restores_the_engine(fault: Fault) -> None:
    before = _snapshot()
    with fault.inject():
        assert _snapshot() != before  # it patched something
    assert _snapshot() == before


# --- the tiny pair ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tiny_pair(tmp_path_factory):
    """A random 3-layer llama target and a close draft (5 % noise: whole blocks accepted
    often enough for bonus tokens), plus as an extra EOS id the token the target emits most
    after its first few (a random model almost never emits its real EOS), so EOS inside an
    accepted block happens on five prompts."""
    from engine import load_pair
    from tests.support.tiny_models import build_tokenizer, make_model, perturb, save

    root = tmp_path_factory.mktemp("cbpair")
    tok = build_tokenizer()
    target = make_model("llama", len(tok), 3, seed=1, eos_id=tok.eos_token_id)
    draft = perturb(target, 0.05, seed=3)
    pair = load_pair(save(draft, tok, root / "d"), save(target, tok, root / "t"), device="cpu")
    counts: collections.Counter[int] = collections.Counter()
    for ids, *_ in _decode(pair, _reqs(pair, speculative=False, sampled=False), "alone"):
        counts.update(ids[3:])
    extra = counts.most_common(1)[0][0]
    return dataclasses.replace(pair, eos_token_ids={*pair.eos_token_ids, extra})


def _reqs(pair, *, speculative: bool, sampled: bool, stop: tuple[str, ...] = (),
          temperature: float = 0.9, needs: tuple[str, ...] = ()) -> list:
    from engine.continuous import SequenceRequest
    from engine.controllers import make_controller
    from engine.grammar import GrammarConstraint, GrammarSpec
    from engine.proposers import ProposerConfig
    from engine.sampling import SamplingParams
    from tests.faults.traffic import PENALTIES, SCHEMA

    controls: dict = {}
    if "penalties" in needs:
        controls = {**PENALTIES, "logit_bias": tuple(
            (int(t), b) for t, b in PENALTIES["logit_bias"].items())}
    out = []
    for k, prompt in enumerate(PROMPTS):
        if "grammar" in needs:  # one constraint per request, as the backend builds them
            controls = {"grammar": GrammarConstraint(
                GrammarSpec.json_schema(SCHEMA), pair.tokenizer,
                pair.target.config.vocab_size, sorted(pair.eos_token_ids))}
        params = (SamplingParams(temperature=temperature, top_k=20, **controls) if sampled
                  else SamplingParams(**controls))
        out.append(SequenceRequest(
            prompt=list(pair.tokenizer(prompt)["input_ids"]), params=params,
            max_new_tokens=20 + 3 * k, stop=list(stop), speculative=speculative,
            proposer=ProposerConfig("draft_model"),
            controller=make_controller("constant", 4, 8) if speculative else None,
            generator=torch.Generator().manual_seed(k) if sampled else None))
    return out


def _decode(pair, reqs: list, mode: str,
            ) -> list[tuple[list[int], str | None, list[float | None], str]]:
    """'alone': each request in an engine of its own; 'batch': all join at once (one
    shared prefill); 'stagger': one joins per step."""
    from engine.continuous import ContinuousEngine, Sequence

    if mode == "alone":
        return [r for req in reqs for r in _decode(pair, [req], "batch")]
    eng = ContinuousEngine(pair)
    if mode == "batch":
        seqs = eng.join([Sequence(pair, r) for r in reqs])
    else:
        seqs, pending = [], list(reqs)
        while pending or eng.size:
            if pending:
                seqs.append(eng.add(pending.pop(0)))
            eng.step()
    while eng.size:
        eng.step()
    # the tokens, where they stopped, the log-probabilities they report, and the text
    return [(s.completion.token_ids, s.completion.finish_reason,
             [t.target_logprob for t in s.completion.trace], s.completion.text) for s in seqs]


def _outputs(pair, fault: Fault, mode: str, *, speculative: bool, inject: bool = True) -> list:
    """Outputs of the requests `fault` is measured on, with it injected (or not)."""
    sampled = fault.kind == "sampled"
    stop = ("e",) if "stop" in fault.needs else ()
    # EOS faults: cooler sampling, so the (greedy-chosen) extra EOS id is sampled mid-block.
    temperature = 0.05 if "eos" in fault.needs else 0.9
    with fault.inject() if inject else contextlib.nullcontext():
        return _decode(pair, _reqs(pair, speculative=speculative, sampled=sampled, stop=stop,
                                   temperature=temperature, needs=fault.needs), mode)


@pytest.mark.slow
@pytest.mark.parametrize("fault", CB_FAULTS, ids=lambda f: f.name)
def test_every_continuous_fault_is_live_on_speculative_rows_only(tiny_pair, fault: Fault) -> None:
    clean = lambda mode, spec: _outputs(tiny_pair, fault, mode, speculative=spec,  # noqa: E731
                                        inject=False)
    faulty = lambda mode, spec: _outputs(tiny_pair, fault, mode, speculative=spec)  # noqa: E731
    # Target-only rows: unchanged alone and as a batch (joined together: the shared prefill
    # leaves the shorter prompts' filler columns as holes, the hardest case for a hole bug).
    for mode in ("alone", "batch"):
        assert faulty(mode, False) == clean(mode, False), f"changed target-only output ({mode})"
    if fault.category == "speed":
        for mode in ("alone", "stagger"):
            assert [o[0] for o in faulty(mode, True)] == [o[0] for o in clean(mode, True)]
        return
    if fault.min_rows > 1:
        assert faulty("alone", True) == clean("alone", True), "a cross-row fault showed alone"
        assert faulty("stagger", True) != clean("stagger", True), "changed nothing in a batch"
    else:
        assert faulty("alone", True) != clean("alone", True), "changed nothing alone"


# --- through the real app over a continuous batching backend (tiny pair) --------------------
@pytest.fixture(scope="module")
def tiny_continuous(tiny_pair):
    from guardian.backends.local import LocalEngineBackend
    from tests.faults.runner import CONTINUOUS_GAMMA_CAP
    from tests.faults.traffic import Traffic

    backend = LocalEngineBackend(tiny_pair, batching=True, max_batch=8,
                                 gamma_by_batch={1: CONTINUOUS_GAMMA_CAP})
    plain = [p + suffix for p in PROMPTS for suffix in ("", " x", "\n")]
    eos = [p for p, (_, reason, *_) in zip(plain, _decode(tiny_pair, [
        dataclasses.replace(r, max_new_tokens=40) for r in
        _reqs_for(tiny_pair, plain)], "alone"), strict=True) if reason == "stop"]
    assert len(eos) >= 4, eos
    from tests.faults.runner import CONTINUOUS_MAX_TOKENS_SPREAD

    yield backend, Traffic(plain, eos, max_tokens=24, eos_max_tokens=40,
                           max_tokens_spread=CONTINUOUS_MAX_TOKENS_SPREAD)
    backend.shutdown()


def _reqs_for(pair, prompts: list[str]) -> list:
    from engine.continuous import SequenceRequest
    from engine.sampling import SamplingParams

    return [SequenceRequest(prompt=list(pair.tokenizer(p)["input_ids"]), params=SamplingParams(),
                            max_new_tokens=40) for p in prompts]


@pytest.fixture(autouse=True)
def _suite_env():
    from tests.faults.runner import env_for_suite

    with env_for_suite():
        yield


@pytest.mark.slow
@pytest.mark.parametrize("fault", CORRECTNESS, ids=lambda f: f.name)
def test_every_continuous_fault_is_caught_through_the_app(tiny_continuous, fault: Fault) -> None:
    from tests.faults.runner import run_fault

    backend, traffic = tiny_continuous
    # A cross-row fault shows only while rows overlap in one batch: bursts as wide as the
    # batch (8) keep them overlapping on a loaded machine, where threads of a burst of 4
    # could reach the engine one after another (CI missed cb_bonus_at_batch_depth once).
    result, obs = run_fault(backend, traffic, fault, limit=TINY_LIMIT,
                            concurrency=8 if fault.min_rows > 1 else 4, log=lambda *_: None)
    assert result.first_catch is not None, (result.verdicts, [o.details for o in obs][:4])


@pytest.mark.slow
def test_continuous_speed_fault_and_clean_traffic_raise_no_alarm(tiny_continuous) -> None:
    from tests.faults.runner import run_clean, run_fault

    backend, traffic = tiny_continuous
    result, obs = run_fault(backend, traffic, CB_BY_NAME["cb_draft_cache_never_dropped"],
                            limit=8, concurrency=4, log=lambda *_: None)
    assert result.alarms == 0, [o for o in obs if o.alarm]
    summary, _ = run_clean(backend, traffic, 32, concurrency=4, log=lambda *_: None)
    assert summary["false_alarms"] == 0, summary["alarm_requests"]
    assert summary["greedy"] and summary["sampled"]
    assert {"stop", "eos", "top_p", "top_k"} <= set(summary["with_feature"])


# --- the demo pair through a continuous batching backend (integration) ------------------------
DEMO_SUBSET = ("cb_target_drop_keeps_first_rejected", "cb_target_drop_uses_first_rows_count",
               "cb_mask_assumes_contiguous_rows", "cb_verifier_ignores_top_k",
               "cb_draft_cache_never_dropped")


@pytest.fixture(scope="module")
def demo_continuous(demo_pair_paths):
    from guardian.backends.local import LocalEngineBackend
    from tests.faults.runner import backend_options, build_traffic

    backend = LocalEngineBackend.load(demo_pair_paths.draft_dir, demo_pair_paths.target_dir,
                                      device="cpu", **backend_options("continuous"))
    yield backend, build_traffic(backend, n_eos=8)
    backend.shutdown()


@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.faults
@pytest.mark.parametrize("name", DEMO_SUBSET)
def test_demo_continuous_fault_through_serving_and_shadow(demo_continuous, name: str) -> None:
    from tests.faults.runner import assert_fault_outcome, run_fault

    backend, traffic = demo_continuous
    fault = CB_BY_NAME[name]
    limit = 40 if fault.category == "correctness" else 8
    result, obs = run_fault(backend, traffic, fault, limit=limit, concurrency=4,
                            log=lambda *_: None)
    assert_fault_outcome(result, obs)


@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.faults
def test_demo_continuous_clean_traffic_raises_no_alarm(demo_continuous) -> None:
    from tests.faults.runner import run_clean

    backend, traffic = demo_continuous
    summary, _ = run_clean(backend, traffic, 24, concurrency=4, log=lambda *_: None)
    assert summary["false_alarms"] == 0, summary["alarm_requests"]


def test_the_continuous_suite_command_is_documented() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "guides" / "compliance.md").read_text()
    assert "python -m tests.faults --full --batching continuous" in doc

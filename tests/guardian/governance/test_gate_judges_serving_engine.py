"""The gate judges the engine that serves: a continuous batching backend, golden prompts
alone and in shared mixed batches; a fault that shows only in a shared batch fails it (the
one-at-a-time gate passed it), and the report names the engine, batch rows and depths."""

from __future__ import annotations

import pytest
import torch

from guardian.governance.gatebatch import mixed_batches
from guardian.governance.gates import run_gate
from guardian.governance.golden import GoldenPrompt
from guardian.policy import GatePolicy
from tests.faults.continuous_faults import CB_BY_NAME

PROMPTS = [
    GoldenPrompt("add", "def add(a, b):\n    return", max_tokens=20),
    GoldenPrompt("fox", "the quick brown fox", max_tokens=26),
    GoldenPrompt("loop", "for i in range(10):\n    ", max_tokens=23),
    GoldenPrompt("imports", "import os\nimport sys\n", max_tokens=29),
    GoldenPrompt("point", "class Point:\n    def __init__(self", max_tokens=17, stop=("e",)),
    GoldenPrompt("list", "x = [1, 2, 3]\nprint(", max_tokens=31),
    GoldenPrompt("sampled", "def parse(argv):", max_tokens=18, temperature=0.9, seed=3,
                 top_k=20),
    GoldenPrompt("sampled-stop", "while True:\n", max_tokens=22, temperature=0.8, seed=5,
                 stop=("\n",)),
]
GATE = GatePolicy(min_speedup=0.0, min_alpha=0.0, stopping_quota=0, batch_sizes=[4])


@pytest.fixture(scope="module")
def tiny_pair(tmp_path_factory):
    """A random llama target and a close draft (whole blocks accepted often)."""
    from engine import load_pair
    from tests.support.tiny_models import build_tokenizer, make_model, perturb, save

    torch.set_num_threads(1)
    root = tmp_path_factory.mktemp("gatepair")
    tok = build_tokenizer()
    target = make_model("llama", len(tok), 3, seed=1, eos_id=tok.eos_token_id)
    draft = perturb(target, 0.05, seed=3)
    return load_pair(save(draft, tok, root / "d"), save(target, tok, root / "t"), device="cpu")


@pytest.fixture
def serving(tiny_pair):
    from guardian.backends.local import LocalEngineBackend

    backend = LocalEngineBackend(tiny_pair, batching=True, max_batch=8,
                                 gamma_by_batch={1: 4})
    yield backend
    backend.shutdown()


def _gate(backend):
    return run_gate(backend, PROMPTS, GATE, policy_hash="p" * 64, route="default")


def _check(report, name):
    return next(c for c in report.checks if c.name == name)


def test_batches_mix_kinds_and_judge_every_prompt_once_per_size() -> None:
    groups = mixed_batches(PROMPTS, 4)
    assert sorted(gp.id for g in groups for gp in g) == sorted(gp.id for gp in PROMPTS)
    for g in groups:  # each batch has a sampled and a greedy row
        assert {gp.temperature > 0 for gp in g} == {True, False}
    assert mixed_batches(PROMPTS, 1) == []


@pytest.mark.slow
def test_clean_serving_engine_passes_and_the_report_names_engine_rows_and_depths(serving):
    report = _gate(serving)
    assert _check(report, "greedy_equivalence").outcome == "pass", report.to_markdown()
    assert _check(report, "sampled_distribution").outcome == "pass", report.to_markdown()
    assert _check(report, "batched_speculation").outcome == "pass", report.to_markdown()
    engine = report.engine
    assert engine["engine"] == "continuous" and engine["max_batch"] == 8
    assert engine["phases"]["b4"]["batch_rows_max"] >= 2
    assert 4 in engine["phases"]["b4"]["depths"]
    assert engine["phases"]["b4"]["speculated_in_batch"] > 0
    assert {p.phase for p in report.prompts} == {"alone", "b4"}
    md = report.to_markdown()
    assert "## Engine judged" in md and "## Stopping judged" in md
    assert report.stopping["greedy"]["max_tokens"] >= 1


@pytest.mark.slow
def test_a_fault_only_in_a_shared_batch_fails_the_gate(serving, tiny_pair):
    from guardian.backends.local import LocalEngineBackend

    fault = CB_BY_NAME["cb_rows_commit_batch_max_count"]  # invisible to a row alone
    with fault.inject():
        report = _gate(serving)
    assert not report.passed
    assert _check(report, "greedy_equivalence").outcome == "fail"
    failing = report.failing_prompts
    assert failing and all(p.phase == "b4" for p in failing), [p.id for p in failing]
    # The gate as it was (one request at a time, the request-level engine) passes it.
    old = LocalEngineBackend(tiny_pair)
    with fault.inject():
        before = _gate(old)
    assert _check(before, "greedy_equivalence").outcome == "pass"
    assert _check(before, "batched_speculation").outcome == "skipped"


@pytest.mark.slow
def test_a_serving_cap_at_depth_0_is_judged_again_at_the_gates_depth(tiny_pair):
    from guardian.backends.local import LocalEngineBackend

    # Batches of 2+ run at depth 0 under this serving cap: the gate pins depth 4 for them.
    backend = LocalEngineBackend(tiny_pair, batching=True, max_batch=8,
                                 gamma_by_batch={1: 4, 2: 0})
    try:
        with CB_BY_NAME["cb_rows_commit_batch_max_count"].inject():
            report = _gate(backend)
    finally:
        backend.shutdown()
    phases = report.engine["phases"]
    # Under the cap only the seeded sampled rows speculate in b4 (their depth is pinned);
    # no greedy row did, so the gate judges the batches again at its own depth.
    b4 = [p for p in report.prompts if p.phase == "b4" and p.shared_spec_steps > 0]
    assert all(p.temperature > 0 for p in b4), [p.id for p in b4]
    assert "b4-pinned" in phases
    assert phases["b4-pinned"]["speculated_in_batch"] > 0
    assert 4 in phases["b4-pinned"]["depths"]
    assert any(p.phase == "b4-pinned" for p in report.failing_prompts)

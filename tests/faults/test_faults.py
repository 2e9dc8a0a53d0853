"""The fault-injection suite's own tests, and its fast subset (run in CI).

- every fault restores the engine on exit (no fault leaks into the next one or the clean run);
- every deterministic fault is live: on a tiny random pair (built in seconds) it changes
  what the speculative path emits and never what target-only emits, and each speed-only fault
  keeps speculative output exact;
- `-m faults` (integration, needs the demo pair): a few faults through the real app + shadow
  path, caught within 40 requests, and clean traffic with no false alarm. The whole suite:
  `python -m tests.faults --full` (see docs/guides/compliance.md, "Evidence").
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine.api
import engine.batch
import engine.decode
import engine.proposers.draft_model
import engine.stopping
import engine.verify
from tests.faults.faults import BY_NAME, FAULTS, Fault

MODULES = (engine.api, engine.decode, engine.verify, engine.batch, engine.proposers.draft_model)


def _snapshot() -> dict:
    out = {(m.__name__, k): v for m in MODULES for k, v in vars(m).items()}
    out[("Completion", "extend")] = engine.stopping.Completion.extend
    out[("Completion", "text")] = engine.stopping.Completion.text
    return out


def test_suite_has_the_faults_the_issue_asks_for() -> None:
    correctness = [f for f in FAULTS if f.category == "correctness"]
    speed = [f for f in FAULTS if f.category == "speed"]
    assert len(correctness) >= 12 and len(speed) >= 2
    areas = " ".join(f.area for f in correctness)
    for area in ("cache crop", "positions", "acceptance rule", "residual", "bonus token",
                 "temperature", "top-p", "top-k", "stop strings", "EOS", "draft sampling"):
        assert area in areas, area


@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f.name)
def test_every_fault_restores_the_engine(fault: Fault) -> None:
    before = _snapshot()
    with fault.inject():
        assert _snapshot() != before  # it patched something
    assert _snapshot() == before


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):  # a random llama pair whose draft disagrees often enough
    from guardian.backends.local import LocalEngineBackend
    from tests.support.tiny_models import build_tokenizer, make_model, perturb, save

    root = tmp_path_factory.mktemp("pair")
    tok = build_tokenizer()
    target = make_model("llama", len(tok), 3, seed=1, eos_id=tok.eos_token_id)
    draft = perturb(target, 0.3, seed=3)
    return LocalEngineBackend.load(save(draft, tok, root / "d"), save(target, tok, root / "t"),
                                   device="cpu")


PROMPTS = ("def add(a, b):\n    return", "the quick brown fox", "for i in range(10):\n    ",
           "import os\nimport sys\n", "class Point:\n    def __init__(self")


def _outputs(backend, fault: Fault | None, *, speculative: bool, sampled: bool,
             stop: tuple[str, ...] = ()) -> list:
    import contextlib

    from guardian.backends import BackendRequest, Sampling

    out = []
    with fault.inject() if fault else contextlib.nullcontext():
        for i, prompt in enumerate(PROMPTS):
            sampling = Sampling(temperature=0.9, top_p=0.9, top_k=20) if sampled else Sampling()
            req = BackendRequest(prompt_ids=backend.encode(prompt), max_new_tokens=24,
                                 speculative=speculative, sampling=sampling,
                                 seed=i if sampled else None, stop=stop)
            res, dist = backend.generate_with_evidence(req)
            out.append((res.token_ids, res.finish_reason, dist.probs.sum().item(), res.text))
    return out


# Faults whose effect needs EOS-ending prompts, a stop string completed mid-block or fully
# accepted blocks (rare with this noisy
# draft) or that only shift a distribution (no token-level change is guaranteed on five
# prompts); the full suite measures them on the demo pair.
STATISTICAL = {"bonus_token_off_by_one", "stop_string_one_block_late", "stop_string_one_block_late_sampled",
               "eos_ignored_inside_block", "eos_ignored_inside_block_sampled",
               "draft_samples_sharpened_q", "draft_reports_q_without_top_k",
               "bonus_from_previous_position", "residual_is_p", "accept_ignores_q"}


@pytest.mark.slow
@pytest.mark.parametrize("fault", [f for f in FAULTS if f.name not in STATISTICAL],
                         ids=lambda f: f.name)
def test_every_fault_is_live_on_the_speculative_path_only(tiny, fault: Fault) -> None:
    kw = {"sampled": fault.kind == "sampled", "stop": ("e",) if "stop" in fault.needs else ()}
    sampled = kw["sampled"]
    clean_ref = _outputs(tiny, None, speculative=False, **kw)
    assert _outputs(tiny, fault, speculative=False, **kw) == clean_ref
    faulty = _outputs(tiny, fault, speculative=True, **kw)
    clean = _outputs(tiny, None, speculative=True, **kw)
    if fault.category == "speed":
        # outputs exact in greedy (sampled outputs may take other random draws)
        if not sampled:
            assert [o[0] for o in faulty] == [o[0] for o in clean]
    else:
        assert faulty != clean, "the fault changed nothing on the speculative path"


# --- the fast subset through the real app + shadow path (demo pair) ------------------------
SUBSET = ("target_cache_crop_off_by_one", "greedy_accept_counts_all_matches",
          "verifier_ignores_top_k", "draft_cache_never_cropped")


@pytest.fixture(scope="module")
def demo(demo_pair_paths):
    from guardian.backends.local import LocalEngineBackend
    from tests.faults.runner import build_traffic

    backend = LocalEngineBackend.load(demo_pair_paths.draft_dir, demo_pair_paths.target_dir,
                                      device="cpu")
    return backend, build_traffic(backend, n_eos=8)


@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.faults
@pytest.mark.parametrize("name", SUBSET)
def test_fast_subset_fault_through_serving_and_shadow(demo, name: str) -> None:
    from tests.faults.runner import assert_fault_outcome, run_fault

    backend, traffic = demo
    fault = BY_NAME[name]
    limit = 40 if fault.category == "correctness" else 10
    result, obs = run_fault(backend, traffic, fault, limit=limit, log=lambda *_: None)
    assert_fault_outcome(result, obs)


@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.faults
def test_fast_subset_clean_traffic_raises_no_alarm(demo) -> None:
    from tests.faults.runner import run_clean

    backend, traffic = demo
    summary, _ = run_clean(backend, traffic, 24, log=lambda *_: None)
    assert summary["false_alarms"] == 0, summary["alarm_requests"]
    assert summary["greedy"] and summary["sampled"]
    assert {"stop", "eos", "top_p", "top_k"} <= set(summary["with_feature"])


def test_the_full_suite_command_is_documented() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "guides" / "compliance.md").read_text()
    assert "python -m tests.faults --full" in doc

"""Triggers on real engine runs (tiny random pairs): a deliberately bad draft collapses
acceptance, an injected engine fault makes the speculative path diverge; either way the
route falls back to target-only from the next request on.

Serving goes through the sidecar's real `ServingCore` and shadow evaluator; the controller
sees their audit events through an `ObservingSink`, exactly as in the app.
"""

from __future__ import annotations

import asyncio
import time

import pytest
import torch

import engine.verify
from guardian.app import build_services, close_services
from guardian.audit.events import ShadowEvent
from guardian.backends import BackendRequest
from guardian.backends.local import LocalEngineBackend
from guardian.governance.observing import ObservingSink
from guardian.governance.rollback import RollbackController
from guardian.governance.routestate import ModeResolver
from guardian.policy import (
    AcceptanceTrigger,
    DivergenceTrigger,
    DriftTrigger,
    GatePolicy,
    LatencyTrigger,
    TriggerPolicy,
)
from guardian.serving.core import GenerationRequest, Served
from tests.support.governance import governed_policy as _governed_policy


def governed_policy(**kw):
    # Triggers on a route already serving speculatively, not the file-mode gate (that has its
    # own tests, test_gate_serving.py): no gate report is recorded for these tiny pairs.
    return _governed_policy(gate=GatePolicy(require_report=False), **kw)


PROMPTS = ["def add(a, b):", "the quick", "for i in", "class Point:\n", "x = ", "speculative dec",
           "return a + b\nprint(", "the lazy dog"]


class Harness:
    """A sidecar (serving core + shadow) over a real pair, governed by a controller."""

    def __init__(self, pair_dirs, store, sink, policy) -> None:
        self.backend = LocalEngineBackend.load(*pair_dirs, device="cpu")
        self.policy = policy
        self.resolver = ModeResolver(store, ttl_s=60, pair_hash=self.backend.pair_hash)
        self.controller = RollbackController(store, sink, lambda: policy, resolver=self.resolver,
                                             pair_hash=self.backend.pair_hash)
        self.services = build_services(self.backend, ObservingSink(sink, self.controller),
                                       policy=policy)
        self.core = self.services.core
        self.core.resolver = self.resolver  # as guardian.governance.runtime.attach does

    def serve(self, prompt: str, max_tokens: int = 16) -> Served:
        req = GenerationRequest(endpoint="completions", route="default", model=self.backend.model_name,
                                prompt_text=prompt, prompt_ids=self.backend.encode(prompt),
                                max_tokens=max_tokens)
        return asyncio.run(self.core.serve(req))

    def close(self) -> None:
        close_services(self.services)


def acceptance_only(min_alpha: float) -> TriggerPolicy:
    return TriggerPolicy(acceptance=AcceptanceTrigger(min_alpha=min_alpha, min_samples=48, failure_limit=1),
                         divergence=DivergenceTrigger(enabled=False), latency=LatencyTrigger(enabled=False),
                         drift=DriftTrigger(enabled=False))


def run_until_rollback(h: Harness, n: int) -> tuple[list[str], int | None]:
    """Serve n requests, evaluating after each; -> served paths, index of the firing request."""
    paths, fired_at = [], None
    for i in range(n):
        paths.append(h.serve(PROMPTS[i % len(PROMPTS)]).served_path)
        if h.controller.evaluate("default").action == "rolled_back" and fired_at is None:
            fired_at = i
    return paths, fired_at


@pytest.mark.parametrize("kind,expect_rollback", [("bad", True), ("good", False)])
def test_bad_draft_collapses_acceptance_and_serving_falls_back_within_one_request(
        pair_dirs, store, sink, kind, expect_rollback) -> None:
    h = Harness(pair_dirs(kind), store, sink, governed_policy(triggers=acceptance_only(0.3)))
    try:
        paths, fired_at = run_until_rollback(h, 6)
    finally:
        h.close()
    if not expect_rollback:  # the control: a decent draft keeps serving speculatively
        assert fired_at is None and paths == ["speculative"] * 6, h.controller.last
        return
    assert fired_at is not None, h.controller.last["default"].measurements
    # Every request up to the firing one was speculative, every one after it target-only.
    assert paths[: fired_at + 1] == ["speculative"] * (fired_at + 1)
    assert paths[fired_at + 1:] == ["target_only"] * (5 - fired_at)
    [rollback] = [e for e in sink.governance if e.kind == "rollback"]
    evidence = rollback.details["evidence"]["acceptance"]
    assert evidence["outcome"] == "fail" and evidence["value"] < 0.3
    assert store.get("default").mode == "target_only"
    assert store.get("default").pair_hash == h.backend.pair_hash


def _off_by_one_accept(real):
    """An engine bug: greedy verification accepts one draft token more than it should, so the
    step emits a token conditioned on a rejected draft token."""
    def faulty(draft_tokens: torch.Tensor, target_argmax: torch.Tensor):
        n, nxt = real(draft_tokens, target_argmax)
        return torch.clamp(n + 1, max=draft_tokens.shape[1]), nxt
    return faulty


def test_injected_engine_fault_diverges_and_rolls_back(pair_dirs, store, sink, monkeypatch) -> None:
    triggers = TriggerPolicy(acceptance=AcceptanceTrigger(enabled=False),
                             latency=LatencyTrigger(enabled=False), drift=DriftTrigger(enabled=False))
    policy = governed_policy(triggers=triggers, sample_rate=1.0, near_tie_tolerance=0.01)
    h = Harness(pair_dirs("good"), store, sink, policy)
    try:
        reference = h.backend.generate(BackendRequest(prompt_ids=h.backend.encode(PROMPTS[0]),
                                                      max_new_tokens=16, speculative=False))
        monkeypatch.setattr(engine.verify, "greedy_accept", _off_by_one_accept(engine.verify.greedy_accept))
        bad = h.serve(PROMPTS[0])
        assert bad.served_path == "speculative"
        assert bad.result.token_ids != reference.token_ids  # the fault is real
        deadline = time.monotonic() + 30
        while not [e for e in sink.shadows if e.request_id == bad.request.request_id]:
            assert time.monotonic() < deadline, "no shadow verdict"
            time.sleep(0.02)
        [verdict] = [e for e in sink.shadows if e.request_id == bad.request.request_id]
        assert isinstance(verdict, ShadowEvent) and verdict.verdict == "divergence"
        ev = h.controller.evaluate("default")
        assert ev.fired == ["divergence"] and ev.action == "rolled_back"
        # The very next request is served target-only, so the fault can no longer reach users.
        after = h.serve(PROMPTS[0])
        assert after.served_path == "target_only"
        assert after.result.token_ids == reference.token_ids
        rollback = next(e for e in sink.governance if e.kind == "rollback")
        example = rollback.details["evidence"]["divergence"]["details"]["examples"][0]
        assert example["request_id"] == bad.request.request_id
        assert example["position"] == verdict.first_divergence_position
    finally:
        h.close()

"""Factories of realistic audit events, shared by tests, `guardian bench audit` and demos."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime

from engine.trace import TokenTrace
from guardian.audit.events import GovernanceEvent, Redaction, RequestEvent, ShadowEvent


def trace(n_tokens: int, *, gamma: int = 4, seed: int = 0,
          token_ids: list[int] | None = None) -> list[TokenTrace]:
    """A speculative-looking trace: runs of accepted tokens ended by a resampled/bonus one."""
    rng = random.Random(seed)
    out: list[TokenTrace] = []
    step = 0
    run = 0
    for pos in range(n_tokens):
        tid = token_ids[pos] if token_ids is not None else rng.randrange(32_000)
        if run < gamma and rng.random() < 0.7:
            origin, dp = "accepted", rng.random()
            run += 1
        else:
            origin = "bonus" if run == gamma else "resampled"
            dp = None if origin == "bonus" else rng.random()
            run = 0
        out.append(TokenTrace(position=pos, token_id=tid, origin=origin, draft_prob=dp,
                              target_prob=rng.random(), target_margin=rng.random() * 5,
                              step=step, gamma=gamma))
        if run == 0:
            step += 1
    return out


def request_event(n_tokens: int = 16, *, redaction: Redaction = "full", route: str = "default",
                  prompt: str = "Summarise the quarterly report.",
                  completion: str | None = None, created_at: datetime | None = None,
                  request_id: str | None = None, seed: int = 0) -> RequestEvent:
    completion = completion if completion is not None else " The report says revenue grew."
    ptoks = [1000 + ord(c) for c in prompt]
    ctoks = [2000 + (ord(completion[i % len(completion)]) if completion else i)
             for i in range(n_tokens)]
    return RequestEvent(
        request_id=request_id or f"req-{uuid.uuid4().hex}",
        created_at=created_at or datetime.now(UTC), route=route, mode="speculative",
        served_path="speculative", pair_hash="pair-" + "a" * 16, policy_hash="pol-" + "b" * 16,
        endpoint="completions", redaction=redaction, prompt_text=prompt,
        completion_text=completion, prompt_token_ids=ptoks, completion_token_ids=ctoks,
        finish_reason="length", params={"temperature": 0.0, "max_tokens": n_tokens,
                                        "stop": ["\n\n"]},
        queue_time_s=0.001, compute_time_s=0.05, time_to_first_token_s=0.01,
        time_per_output_token_s=0.002,
        stats={"steps": 5, "draft_tokens": 16, "accepted": 12, "prompt_tokens": len(ptoks)},
        trace=trace(n_tokens, seed=seed, token_ids=ctoks), replica_id="test-replica")


def shadow_event(request_id: str, *, verdict: str = "match", created_at: datetime | None = None,
                 n_tokens: int = 4) -> ShadowEvent:
    return ShadowEvent(
        request_id=request_id, created_at=created_at or datetime.now(UTC), route="default",
        pair_hash="pair-" + "a" * 16, policy_hash="pol-" + "b" * 16, shadow_path="target_only",
        verdict=verdict,  # type: ignore[arg-type]
        first_divergence_position=None if verdict == "match" else 3,
        margin_at_divergence=None if verdict == "match" else 0.01, tolerance=0.05,
        stats={"draft_tokens": 4, "accepted": 3, "steps": 2}, shadow_compute_time_s=0.04,
        shadow_trace=[TokenTrace(i, 7, "target", None, 0.9, 1.5, i, 0) for i in range(n_tokens)])


def governance_event(kind: str = "rollback", *, created_at: datetime | None = None,
                     actor: str = "trigger:divergence") -> GovernanceEvent:
    return GovernanceEvent(
        event_id=f"gov-{uuid.uuid4().hex}", created_at=created_at or datetime.now(UTC),
        kind=kind,  # type: ignore[arg-type]
        route="default", pair_hash="pair-" + "a" * 16, policy_hash="pol-" + "b" * 16,
        actor=actor, details={"from": "speculative", "to": "target_only"})

"""Helpers shared by the tests (from tests/guardian/governance/conftest.py, where its fixtures stay)."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import torch

from guardian.audit.events import RequestEvent, ShadowEvent
from guardian.policy import Policy, RoutePolicy, ShadowPolicy, TriggerPolicy

torch.set_num_threads(1)


def governed_policy(mode: str = "speculative", triggers: TriggerPolicy | None = None,
                    sample_rate: float = 0.0, **route: Any) -> Policy:
    return Policy(routes={"default": RoutePolicy(
        mode=mode, shadow=ShadowPolicy(sample_rate=sample_rate),
        triggers=triggers or TriggerPolicy(), **route)})


def request_event(*, drafted: int = 40, accepted: int = 30, tpot: float = 0.01,
                  path: str = "speculative", route: str = "default", pair: str = "pair-a",
                  tokens: list[int] | None = None, gamma: int = 4) -> RequestEvent:
    """A served-request audit event with consistent per-position counters (prefix acceptance)."""
    steps = drafted // gamma
    per_pos_acc, left = [], accepted
    for _ in range(gamma):  # fill positions front-first: acceptance is a prefix
        a = min(steps, left)
        per_pos_acc.append(a)
        left -= a
    stats = {"draft_tokens": drafted, "accepted": accepted, "steps": steps,
             "drafted_per_position": [steps] * gamma, "accepted_per_position": per_pos_acc,
             "completion_tokens": 16} if path == "speculative" else {"completion_tokens": 16}
    ids = tokens if tokens is not None else list(range(16))
    return RequestEvent(
        request_id="req-x", created_at=datetime.now(UTC), route=route, mode=path,  # type: ignore[arg-type]
        served_path=path, pair_hash=pair, policy_hash="p", endpoint="completions",  # type: ignore[arg-type]
        redaction="full", prompt_text="x", completion_text="y", prompt_token_ids=[1],
        completion_token_ids=ids, finish_reason="length", params={}, queue_time_s=0.0,
        compute_time_s=tpot * 16, time_to_first_token_s=0.0, time_per_output_token_s=tpot,
        stats=stats, trace=[])


def shadow_event(verdict: str, *, route: str = "default", pair: str = "pair-a",
                 margin: float | None = 3.0) -> ShadowEvent:
    return ShadowEvent(request_id=f"req-{verdict}", created_at=datetime.now(UTC), route=route,
                       pair_hash=pair, policy_hash="p", shadow_path="target_only",
                       verdict=verdict, first_divergence_position=2 if verdict != "match" else None,  # type: ignore[arg-type]
                       margin_at_divergence=margin, tolerance=0.5, stats={},
                       shadow_compute_time_s=0.1)


def record_report(db, pair_hash: str, policy_hash: str, spool: Path, *, passed: bool = True,
                  route: str = "default") -> None:
    """A gate result for `pair_hash` under `policy_hash` in the audit DB `db` (an Engine),
    through the real writer: what `guardian gate` records."""
    from guardian.audit.writer import AuditWriter
    from guardian.governance.checks import Check
    from guardian.governance.gatereport import GateReport
    from guardian.governance.promotion import record_gate_result

    report = GateReport(pair_hash, policy_hash, route, {}, "golden.jsonl", "", "now", [],
                        [Check("greedy_equivalence", "pass" if passed else "fail", 0, 0,
                               "" if passed else "2 of 8 prompts differ")], passed)
    writer = AuditWriter(db.url.render_as_string(hide_password=False), spool_dir=spool)
    try:
        record_gate_result(writer, None, report, actor="ci")
    finally:
        writer.close()


def write_keys(path: Path) -> dict[str, str]:
    """A keys file with one key per role (named `<role>-cli`); returns role -> plaintext key."""
    from guardian.security.auth import ROLES, add_key_to_file

    return {role: add_key_to_file(path, f"{role}-cli", role) for role in ROLES}  # type: ignore[arg-type]


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


# --- tiny real pairs -----------------------------------------------------------------------
def shuffled(model: torch.nn.Module, seed: int) -> torch.nn.Module:
    """Every weight tensor's entries permuted: same shapes and scale, no knowledge left."""
    bad = copy.deepcopy(model)
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in bad.parameters():
            flat = p.view(-1)
            flat.copy_(flat[torch.randperm(flat.numel(), generator=gen)])
    return bad


def golden_prompts(ids: tuple[str, ...], max_tokens: int = 24) -> list[Any]:
    """The shipped golden set's prompts `ids` (policies/golden/python-code.jsonl), each
    capped at `max_tokens`."""
    from dataclasses import replace

    from guardian.governance.golden import load_golden

    golden = Path(__file__).resolve().parents[2] / "policies" / "golden" / "python-code.jsonl"
    prompts = [replace(p, max_tokens=min(p.max_tokens, max_tokens))
               for p in load_golden(golden) if p.id in ids]
    assert len(prompts) == len(ids), [p.id for p in prompts]
    return prompts


def gate_on(pair: Any, prompts: list[Any], gate: Any, *, batching: bool = True) -> Any:
    """`run_gate` on a fresh local backend over `pair` (run_gate shuts its backend down):
    the continuous engine with up to 8 rows at depth 4, or the one-at-a-time engine."""
    from guardian.backends.local import LocalEngineBackend
    from guardian.governance.gates import run_gate

    backend = (LocalEngineBackend(pair, batching=True, max_batch=8, gamma_by_batch={1: 4})
               if batching else LocalEngineBackend(pair))
    try:
        return run_gate(backend, prompts, gate, policy_hash="p" * 64, route="code")
    finally:
        backend.shutdown()

"""Audit events: the contract between whoever produces audit data (serving path, shadow
evaluator, gates, rollback controller) and the audit store that persists it.

Producers build these plain dataclasses and hand them to an `AuditSink`; they never touch the
database. The store decides how each event maps to rows, redaction, hashing and batching.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol

from guardian.core.enums import DecodePath, Mode, Redaction, ServedPath, Verdict

if TYPE_CHECKING:  # a type only: readers of the trail (dashboard, CLI) must not load torch
    from engine.trace import TokenTrace


@dataclass(slots=True)
class RequestEvent:
    """One served request (or one mirrored request evaluated via /v1/shadow)."""

    request_id: str
    created_at: datetime  # timezone-aware UTC
    route: str
    mode: Mode  # mode the route was in when this request was served
    served_path: ServedPath  # what actually produced the response
    pair_hash: str
    policy_hash: str
    endpoint: str  # "completions" | "chat.completions" | "shadow"
    redaction: Redaction
    prompt_text: str | None
    completion_text: str | None
    prompt_token_ids: list[int]
    completion_token_ids: list[int]
    finish_reason: str
    params: dict[str, Any]  # temperature, top_p, top_k, max_tokens, gamma strategy, seed...
    queue_time_s: float
    compute_time_s: float
    time_to_first_token_s: float
    time_per_output_token_s: float
    stats: dict[str, Any]  # engine GenerationStats as a dict (+ derived rates)
    trace: list[TokenTrace]  # one per emitted token of the served path
    fallback_reason: str | None = None  # set when speculation failed/was shed and target-only served
    replica_id: str | None = None
    # Prompt tokens as counted where the prompt was tokenized: None = len(prompt_token_ids)
    # (the local engine); an upstream pool's own count (its usage), which has no local ids.
    prompt_tokens: int | None = None


@dataclass(slots=True)
class ShadowEvent:
    """Outcome of comparing the served path with the other path on the same request."""

    request_id: str
    created_at: datetime
    route: str
    pair_hash: str
    policy_hash: str
    shadow_path: DecodePath  # the path that ran in shadow
    verdict: Verdict
    first_divergence_position: int | None
    margin_at_divergence: float | None  # target top-2 logit margin at that position
    tolerance: float
    stats: dict[str, Any]  # acceptance stats, distribution distances, expected vs observed acceptance
    shadow_compute_time_s: float
    shadow_trace: list[TokenTrace] = field(default_factory=list)
    # The route's redaction; the default keeps only metadata of the shadow tokens.
    redaction: Redaction = "none"


@dataclass(slots=True)
class GovernanceEvent:
    """A policy decision, gate result, rollback, re-enable, promotion or pair registration."""

    event_id: str
    created_at: datetime
    kind: Literal["policy_decision", "gate_result", "rollback", "reenable", "promotion",
                  "pair_registered", "policy_loaded", "canary",
                  # written by the audit store itself: declared losses and retention (and
                  # the route-state versions a prune carries over, governance.statesig)
                  "audit_gap", "audit_prune", "audit_prune_aborted", "state_floor"]
    route: str | None
    pair_hash: str | None
    policy_hash: str | None
    actor: str  # who or what: "api-key:<name>", "trigger:<name>", "cli:<user>"
    details: dict[str, Any]  # evidence, report, previous/new state


class AuditSink(Protocol):
    """Where producers send events. Implementations must never block the request path."""

    def submit(self, event: RequestEvent | ShadowEvent | GovernanceEvent) -> None: ...

    def flush(self, timeout_s: float = 10.0) -> None: ...

    def close(self, timeout_s: float = 30.0) -> None: ...

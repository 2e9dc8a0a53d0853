"""The route policy model: what mode each traffic slice runs in and how it is checked.

Owns the pydantic schema of a policy file (`policies/default.yaml`) and the policy's content
hash (recorded with every audit event so a verdict can be tied to the exact policy in force).
Each route nests `triggers:` (checked continuously, `guardian.policy.triggers`) and `gate:`
(checked before promotion, `guardian.policy.gate`).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, field_validator, model_validator

from guardian.core.enums import GammaStrategy, Mode, ProposerKind, Redaction
from guardian.core.limits import MAX_GAMMA
from guardian.core.resources import data_path
from guardian.policy.base import (
    MAX_COUNT,
    MAX_INTERVAL_S,
    MAX_NEW_TOKENS,
    MAX_PERIOD_S,
    MAX_WINDOW,
    Strict,
    check_http_url,
    check_text,
)
from guardian.policy.gate import GatePolicy
from guardian.policy.tolerance import (
    DEFAULT_DISTRIBUTION_TOLERANCE,
    DEFAULT_DRAFTER_TOLERANCE,
    DEFAULT_NEAR_TIE_TOLERANCE,
)
from guardian.policy.triggers import TriggerPolicy

DEFAULT_POLICY_FILE = data_path("policies", "default.yaml")

# How much each redaction protects a prompt, lowest first (`guardian.audit.redaction`):
# full keeps text and ids; redacted keeps text with PII masked (the rest in clear); hashed
# keeps only a keyed hash (a guess can be confirmed only with the salt); none keeps nothing.
# The redaction floor: an X-Guardian-Route header may pick a route only if its protection is
# at least that of the route the request's model maps to. Storing less (e.g. `none`) is not
# a privacy risk but loses evidence, so it is bounded by the key's authorized routes instead.
REDACTION_PROTECTION: dict[str, int] = {"full": 0, "redacted": 1, "hashed": 2, "none": 3}


# A route name travels in headers (X-Guardian-Route), metric labels, audit rows, file names
# and terminal output: keep it to a short, plain token.
_ROUTE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")
MAX_ROUTES = 1000  # routes in a policy, models per route


def _route_name(name: str) -> str:
    if not _ROUTE_NAME.fullmatch(name):
        raise ValueError(f"route name {ascii(name)[:80]} is not 1-64 letters, digits, '.', '_' "
                         "or '-' starting with a letter or digit")
    return name


def _model_name(name: str) -> str:
    check_text(name)
    if not name.strip() or name != name.strip():
        raise ValueError("a model name is non-empty, without leading or trailing spaces")
    return name


RouteName = Annotated[str, AfterValidator(_route_name)]
ModelName = Annotated[str, Field(max_length=256), AfterValidator(_model_name)]


class ShadowPolicy(Strict):
    # Share of the route's requests re-run on the other path and judged (the shadow verdict).
    sample_rate: float = Field(0.1, ge=0.0, le=1.0)
    max_new_tokens: int = Field(64, ge=1, le=MAX_NEW_TOKENS)  # caps shadow cost per request
    # Speculative re-runs (a route serving target-only, probes after a rollback) are judged
    # in a shared batch of up to this many rows: the queued jobs, topped up with replays of
    # recently served requests (guardian.equivalence.batchshadow); 1: alone.
    batch_rows: int = Field(4, ge=1, le=MAX_COUNT)
    # Per route, judged completions of each stopping case (stop string, EOS inside an accepted
    # block, max_tokens) for greedy and sampled requests the shadow keeps sampling for among
    # its last `acceptance`-window verdicts, beyond sample_rate (guardian.equivalence.quota).
    stopping_quota: int = Field(2, ge=0, le=MAX_COUNT)
    # A judged sampled request with a seed is also replayed on the path that served it, with
    # its seed: the tokens must repeat (a seed ignored or drawn from shared state is a
    # divergence, `failed_check: seed_replay`). Costs one more generation per such job.
    seed_replay: bool = True


class GammaPolicy(Strict):
    strategy: GammaStrategy = "constant"
    initial: int = Field(4, ge=1, le=MAX_GAMMA)
    min: int = Field(1, ge=1, le=MAX_GAMMA)
    max: int = Field(8, ge=1, le=MAX_GAMMA)

    @model_validator(mode="after")
    def _bounds(self) -> GammaPolicy:
        if not self.min <= self.initial <= self.max:
            raise ValueError(f"gamma needs min <= initial <= max, got {self.min}/{self.initial}/{self.max}")
        return self


class AuditPolicy(Strict):
    """How a route's audit records are written (`guardian.audit.writer`).

    `sync`: the response (for a stream: its final chunk) is released only once the request's
    audit record is fsync'd to the local write-ahead log (group commit: concurrent requests
    share one fsync). `async`: recorded in the background; a crash of the process can lose the
    records of the last moments (the loss is declared on restart where it can be detected).
    """

    durability: Literal["sync", "async"] = "async"


class CanaryPolicy(Strict):
    """Canary steps (`guardian canary start`): the share of the route's traffic served
    speculatively, widened one step when the route's analysis has passed for a whole step."""

    steps: list[float] = Field(default_factory=lambda: [1.0, 5.0, 25.0, 50.0, 100.0], max_length=100)
    step_duration_s: float = Field(600.0, gt=0, le=MAX_PERIOD_S)
    auto_advance: bool = True  # false: only `guardian canary advance` widens

    @model_validator(mode="after")
    def _steps(self) -> CanaryPolicy:
        s = self.steps
        if not s or any(not 0 < x <= 100 for x in s) or any(a >= b for a, b in itertools.pairwise(s)):
            raise ValueError(f"canary steps must rise strictly within (0, 100], got {s}")
        if s[-1] != 100:
            raise ValueError(f"the last canary step must be 100 (all traffic), got {s[-1]}")
        return self


class UpstreamPool(Strict):
    """One OpenAI-compatible server (vLLM, SGLang, TGI, another guardian) serving a route."""

    url: str = Field(description="Base URL up to /v1, e.g. http://vllm-spec:8000/v1 (no "
                     "credentials: see api_key_env)")
    model: ModelName  # the name the upstream serves the model under
    # The name of the environment variable holding its API key (never the key itself: the
    # policy is hashed, shown and versioned).
    api_key_env: str | None = None
    connect_timeout_s: float = Field(2.0, gt=0, le=MAX_INTERVAL_S)
    read_timeout_s: float = Field(60.0, gt=0, le=MAX_INTERVAL_S)  # between two bytes (a stream's chunks)
    total_timeout_s: float = Field(300.0, gt=0, le=MAX_INTERVAL_S)  # one whole request
    max_connections: int = Field(256, ge=1, le=MAX_COUNT)
    max_keepalive: int = Field(64, ge=0, le=MAX_COUNT)
    # Ask for vLLM's `return_tokens_as_token_ids` so token rows carry ids (else id -1).
    token_ids: bool = False
    # Requests toward this pool's shadow traffic in flight at once; more are shed.
    shadow_concurrency: int = Field(4, ge=0, le=MAX_COUNT)

    @field_validator("url")
    @classmethod
    def _url(cls, v: str) -> str:
        return check_http_url(v, allow_query=False)

    @field_validator("api_key_env")
    @classmethod
    def _env_name(cls, v: str | None) -> str | None:
        if v is not None and not _ENV_NAME.fullmatch(v):
            raise ValueError("the NAME of the environment variable holding the key (letters, "
                             "digits, '_', e.g. VLLM_API_KEY), never the key itself: the policy "
                             "is stored and shown")
        return v


class UpstreamPools(Strict):
    """The route's pools: the mode in force picks one (speculative -> `speculative`)."""

    speculative: UpstreamPool
    target_only: UpstreamPool
    # A speculative-pool fault before any text was sent is re-served by the target-only pool
    # (audited with fallback_reason); off: the client gets the 502/504.
    failover: bool = False
    breaker_failures: int = Field(5, ge=1, le=MAX_COUNT)  # consecutive faults that open a pool's circuit
    breaker_reset_s: float = Field(10.0, gt=0, le=MAX_INTERVAL_S)  # open this long, then one probe request


class RoutePolicy(Strict):
    # The mode the file asks for: `target_only`, `speculative` (with `gate.require_report`,
    # served only with a passing gate report) or `off` (no speculation, no shadow checks, no
    # database state overrides it). A rollback or promotion in the database overrides the rest.
    mode: Mode = "target_only"
    # What proposes draft tokens when this route speculates: the pair's draft model, or
    # n-gram prompt lookup (no draft forward; shines when outputs copy the prompt).
    proposer: ProposerKind = "draft_model"
    # Request `model` names that pick this route (a model is listed by one route only).
    models: list[ModelName] = Field(default_factory=list, max_length=MAX_ROUTES)
    shadow: ShadowPolicy = ShadowPolicy()
    gamma: GammaPolicy = GammaPolicy()
    # Requests in flight at or above which speculation is skipped: served target-only with
    # `fallback_reason: load_shed`.
    load_shed_queue_depth: int = Field(8, ge=1, le=1_000_000)
    # Admission bound: requests of this route in flight at once (queued + running); one
    # more is refused with 429 and Retry-After rather than left to wait (guardian.serving.admission).
    max_queue: int = Field(32, ge=1, le=1_000_000)
    # At most this many of them from one caller (API key principal): beyond, 429
    # `key_queue_full`, so one key cannot hold the whole queue. None: no per-key bound. (In
    # open mode, without keys, every caller is one principal.)
    max_queue_per_key: int | None = Field(None, ge=1, le=1_000_000)
    # This route's share of the local engine's batch while other routes' requests wait to join
    # too (weighted fair joins, engine.fairqueue): a route of weight 2 gets two rows for every
    # one of a route of weight 1. Callers within the route take turns.
    weight: float = Field(1.0, gt=0.0, le=1000.0)
    # What the audit trail keeps of prompts and completions (guardian.audit.redaction): `full`
    # text, `redacted` (PII masked), `hashed` (a keyed hash) or `none`.
    redaction: Redaction = "full"
    # Logit agreement a flipped argmax must show to be a near tie (guardian/policy/tolerance.py: measured).
    near_tie_tolerance: float = Field(DEFAULT_NEAR_TIE_TOLERANCE, ge=0.0)
    # Total variation the verifier's and a re-scored target distribution may differ by, and
    # |Δq| a drafter's recorded q and a clean re-score may (the speed-only
    # `drafter_inconsistent`): fp32 defaults; on bf16 measure both (`guardian bench tolerance`).
    distribution_tolerance: float = Field(DEFAULT_DISTRIBUTION_TOLERANCE, gt=0.0, le=1.0)
    drafter_tolerance: float = Field(DEFAULT_DRAFTER_TOLERANCE, gt=0.0, le=1.0)
    # Judged sampled proposals kept per route and pair for acceptance vs its expectation.
    acceptance_window: int = Field(512, ge=1, le=MAX_WINDOW)
    # |z| beyond which acceptance off its expectation Σ min(p, q) is a distribution_mismatch.
    acceptance_z: float = Field(4.0, gt=0.0)
    triggers: TriggerPolicy = TriggerPolicy()  # when serving speculatively, what rolls it back
    gate: GatePolicy = GatePolicy()  # what a pair must show before promotion to this route
    audit: AuditPolicy = AuditPolicy()  # durability of this route's audit records
    canary: CanaryPolicy = CanaryPolicy()  # steps of `guardian canary start`
    # Served by upstream pools (GUARDIAN_BACKEND=upstream) instead of the local engine.
    upstream: UpstreamPools | None = None


# Route fields added after the first release: `content_hash` omits them at these values.
_LATER_ROUTE_SECTIONS: dict[str, object] = {
    "upstream": None,
    "audit": AuditPolicy().model_dump(mode="json"),
    "canary": CanaryPolicy().model_dump(mode="json"),
    "max_queue": 32,
    "max_queue_per_key": None,
    "weight": 1.0,
    "drafter_tolerance": DEFAULT_DRAFTER_TOLERANCE,
}


# Fields added to a route's sections after the first release: left out at these values too.
_LATER_ROUTE_FIELDS: dict[str, dict[str, object]] = {
    "gate": {"batch_sizes": [4], "stopping_quota": 0},
    "shadow": {"batch_rows": 4, "stopping_quota": 2},
    "triggers": {"silent_window": 20, "min_batched_evidence": 8},
}


class SloPolicy(Strict):
    """Service-level objectives the dashboard's Overview page and burn-rate alerts use."""

    latency_p50_s: float = Field(1.0, gt=0)
    latency_p95_s: float = Field(2.5, gt=0)
    latency_p99_s: float = Field(5.0, gt=0)
    ttft_p50_s: float = Field(0.2, gt=0)
    ttft_p95_s: float = Field(0.5, gt=0)
    ttft_p99_s: float = Field(1.0, gt=0)
    # A request is "good" for the error budget when both hold.
    good_latency_s: float = Field(2.5, gt=0)
    good_ttft_s: float = Field(0.5, gt=0)
    objective: float = Field(0.99, gt=0, lt=1)  # e.g. 0.99 = 1 % error budget
    period_days: int = Field(30, ge=1, le=366)

    @model_validator(mode="after")
    def _ordered(self) -> SloPolicy:
        for what in ("latency", "ttft"):
            p50, p95, p99 = (getattr(self, f"{what}_p{q}_s") for q in (50, 95, 99))
            if not p50 <= p95 <= p99:
                raise ValueError(f"{what} objectives need {what}_p50_s <= {what}_p95_s <= "
                                 f"{what}_p99_s, got {p50:g} / {p95:g} / {p99:g}")
        return self


class CostPolicy(Strict):
    """What serving costs, for the cost figures (SLIs M4 target forwards per request and M5
    cost per output token, `guardian.governance.cost`): the price of one hour of the serving
    pool (the accelerators the target and its draft run on), e.g. a cloud GPU's hourly rate."""

    pool_hour: float = Field(gt=0)
    currency: str = Field("USD", min_length=1, max_length=8, pattern=r"^[A-Za-z]+$")


class Policy(Strict):
    version: Literal[1] = 1  # the file format's version; the only one there is
    # The route of a request whose model no route lists (and that names none by header).
    default_route: str = "default"
    slo: SloPolicy = SloPolicy()
    # Optional: without it cost is shown in pool-seconds only. Left out of the content hash
    # while unset, so policies written before it keep their hash (and their gate reports).
    cost: CostPolicy | None = None
    routes: dict[RouteName, RoutePolicy] = Field(default_factory=lambda: {"default": RoutePolicy()},
                                                 max_length=MAX_ROUTES)

    @model_validator(mode="after")
    def _default_exists(self) -> Policy:
        if self.default_route not in self.routes:
            raise ValueError(f"default_route {self.default_route!r} is not one of routes "
                             f"{sorted(self.routes)}")
        owner: dict[str, str] = {}
        for name, route in self.routes.items():
            for model in route.models:
                if model in owner and owner[model] != name:
                    raise ValueError(f"model {model!r} is listed by routes {owner[model]!r} and "
                                     f"{name!r}; a request for it would always go to "
                                     f"{owner[model]!r}, so list it in one route only")
                owner.setdefault(model, name)
        return self

    @property
    def content_hash(self) -> str:
        """sha256 of the canonical JSON of the validated policy (comments/order don't count)."""
        # Sections added after policies were first hashed are left out while unset or at
        # their defaults, so an unchanged policy keeps its hash (and its gate reports).
        data = self.model_dump(mode="json")
        if data.get("cost") is None:
            data.pop("cost", None)
        for route in data["routes"].values():
            for name, default in _LATER_ROUTE_SECTIONS.items():
                if route.get(name) == default:
                    route.pop(name, None)
            for section, fields in _LATER_ROUTE_FIELDS.items():
                part = route.get(section)
                for name, default in fields.items():
                    if isinstance(part, dict) and part.get(name) == default:
                        part.pop(name, None)
        canonical = json.dumps(data, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()

    def route(self, name: str) -> RoutePolicy:
        return self.routes[name]

    def route_for_model(self, model: str) -> str | None:
        """The route whose `models` lists `model`, if any."""
        for name, route in self.routes.items():
            if model in route.models:
                return name
        return None

    def with_mode(self, route: str, mode: Mode) -> Policy:
        """A copy with one route's mode changed (rollback / re-enable / promotion)."""
        routes = dict(self.routes)
        routes[route] = routes[route].model_copy(update={"mode": mode})
        return self.model_copy(update={"routes": routes})

"""Fixtures: a migrated SQLite audit DB, route state store, tiny real pairs, event factories."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import torch

from guardian.audit import MemorySink, upgrade
from guardian.audit.events import RequestEvent, ShadowEvent
from guardian.core.db import make_engine
from guardian.governance.routestate import ModeResolver, RouteStateStore
from guardian.policy import Policy, RoutePolicy, ShadowPolicy, TriggerPolicy
from tests.engine.conftest import build_tokenizer, make_model, perturb, save

torch.set_num_threads(1)


@pytest.fixture(autouse=True)
def guardian_home(tmp_path, monkeypatch) -> Path:
    """Each test its own GUARDIAN_HOME: the last known route state file lives there."""
    from guardian.settings import get_settings

    home = tmp_path / "home"
    monkeypatch.setenv("GUARDIAN_HOME", str(home))
    get_settings.cache_clear()
    yield home
    get_settings.cache_clear()


@pytest.fixture
def db(fresh_db_url: str) -> Iterator[sa.Engine]:
    """A migrated database on each backend (`fresh_db_url`: SQLite and Postgres), as the
    database-writer reviews forge rows in."""
    upgrade(fresh_db_url)
    engine = make_engine(fresh_db_url)
    yield engine
    engine.dispose()


@pytest.fixture
def db_engine(tmp_path):
    url = f"sqlite:///{tmp_path / 'guardian.db'}"
    upgrade(url)
    engine = make_engine(url)
    yield engine
    engine.dispose()


@pytest.fixture
def store(db_engine) -> RouteStateStore:
    return RouteStateStore(db_engine)


@pytest.fixture
def sink() -> MemorySink:
    return MemorySink()


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
    from guardian.governance.gates import Check, GateReport
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


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def resolver(store) -> ModeResolver:
    return ModeResolver(store, ttl_s=0.05)


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


@pytest.fixture(scope="session")
def pair_dirs(tmp_path_factory) -> Callable[[str], tuple[Path, Path]]:
    """kind -> (draft_dir, target_dir). kinds: good (close draft), bad (shuffled draft),
    other_tokenizer (draft saved with a tokenizer that has extra tokens)."""
    root = tmp_path_factory.mktemp("gov-pairs")
    tok = build_tokenizer()
    target = make_model("llama", len(tok), 3, seed=1, eos_id=tok.eos_token_id)
    target_dir = save(target, tok, root / "target")
    made: dict[str, tuple[Path, Path]] = {}

    def get(kind: str) -> tuple[Path, Path]:
        if kind not in made:
            if kind == "good":
                draft_dir = save(perturb(target, 0.01, seed=3), tok, root / "good-draft")
            elif kind == "bad":
                draft_dir = save(shuffled(target, seed=5), tok, root / "bad-draft")
            elif kind == "other_tokenizer":
                other = build_tokenizer(extra_tokens=("<|tool|>",))
                draft = make_model("llama", len(other), 1, seed=2, eos_id=other.eos_token_id)
                draft_dir = save(draft, other, root / "other-tok-draft")
            else:
                raise ValueError(kind)
            made[kind] = (draft_dir, target_dir)
        return made[kind]

    return get
from tests.engine.conftest import demo_pair_paths  # noqa: E402,F401  (fixture: the gate's golden EOS prompts)

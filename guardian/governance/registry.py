"""Registry of draft/target pairs keyed by the pair identity hash.

The identity (engine.compat.PairIdentity, computed by the engine when a backend loads the
pair and read here from `ServingBackend.identity`; never recomputed here) hashes both models'
weights, the tokenizer and the chat template, so a pair whose weights or tokenizer change is a
*different* registry entry and inherits none of the old one's gate results. `describe_change`
names which component moved (for "your report is stale because ..." messages).

Lifecycle (`model_pairs.state`): registered -> gated (a passing gate report exists) ->
promoted (serving speculatively on some route) -> retired. Every change is a governance event.
"""

from __future__ import annotations

import logging
import re
import uuid
from dataclasses import asdict
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy import Engine

from guardian.audit.acts import record_act
from guardian.audit.events import AuditSink, GovernanceEvent
from guardian.audit.models import ModelPair

if TYPE_CHECKING:
    from engine.identity import PairIdentity

logger = logging.getLogger(__name__)

STATES = ("registered", "gated", "promoted", "retired")


class PairRefused(ValueError):
    """The pair cannot be registered or used; the message names the reason."""


def describe_change(old: dict[str, Any], new: PairIdentity | dict[str, Any]) -> str:
    """Which identity components differ between a registered pair and `new`, in words
    (the comparison itself is the engine's: engine.compat.identity_changes)."""
    from engine.identity import identity_changes

    return ", ".join(identity_changes(old, new)) or "nothing"


class PairRegistry:
    def __init__(self, db: Engine, sink: AuditSink | None = None) -> None:
        self.db, self.sink = db, sink

    def register(self, identity: PairIdentity, *, actor: str,
                 details: dict[str, Any] | None = None) -> dict[str, Any]:
        """Add the pair (idempotent: an existing entry is returned unchanged)."""
        existing = self.get(identity.pair_hash)
        if existing is not None:
            return existing
        now = datetime.now(UTC)
        info = {**asdict(identity), **(details or {})}
        with self.db.begin() as conn:
            conn.execute(sa.insert(ModelPair.__table__).values(
                pair_hash=identity.pair_hash, draft_name=identity.draft_name, draft_revision=None,
                target_name=identity.target_name, target_revision=None,
                tokenizer_hash=identity.tokenizer_hash,
                chat_template_hash=identity.chat_template_hash, state="registered",
                details=info, created_at=now, updated_at=now, updated_by=actor))
        self._audit("pair_registered", identity.pair_hash, actor, {"identity": info})
        logger.info("registered pair %s (%s -> %s)", identity.pair_hash[:12], identity.draft_name,
                    identity.target_name)
        return self.get(identity.pair_hash) or {}

    def get(self, pair_hash: str) -> dict[str, Any] | None:
        with self.db.connect() as conn:
            row = conn.execute(sa.select(ModelPair).where(
                ModelPair.pair_hash == pair_hash)).mappings().first()
        return dict(row) if row else None

    def find(self, prefix: str) -> dict[str, Any]:
        """The one pair whose hash starts with `prefix` (the CLI accepts short hashes): at
        least 4 of its characters (hex digits; `upstream-` pairs also the dash), matched
        literally: a LIKE wildcard in it is not a wildcard."""
        if not re.fullmatch(r"[0-9a-z-]{4,80}", prefix.lower()):
            raise PairRefused(f"a pair is named by its hash or a prefix of at least 4 of its "
                              f"characters, not {prefix!r} (see `guardian route status`)")
        with self.db.connect() as conn:
            rows = conn.execute(sa.select(ModelPair).where(
                ModelPair.pair_hash.startswith(prefix.lower(), autoescape=True))).mappings().all()
        if not rows:
            raise PairRefused(f"no registered pair with hash {prefix!r}; run `guardian gate` on the "
                              "pair first (it registers it) or check `guardian route status`")
        if len(rows) > 1:
            raise PairRefused(f"hash prefix {prefix!r} matches {len(rows)} pairs; give more characters")
        return dict(rows[0])

    def all(self) -> list[dict[str, Any]]:
        with self.db.connect() as conn:
            return [dict(r) for r in conn.execute(
                sa.select(ModelPair).order_by(ModelPair.created_at)).mappings().all()]

    def set_state(self, pair_hash: str, state: str, *, actor: str, reason: str = "") -> None:
        if state not in STATES:
            raise ValueError(f"unknown pair state {state!r}; one of {STATES}")
        with self.db.begin() as conn:
            conn.execute(sa.update(ModelPair.__table__).where(
                ModelPair.__table__.c.pair_hash == pair_hash).values(
                state=state, updated_at=datetime.now(UTC), updated_by=actor))

    def lineage_change(self, identity: PairIdentity) -> str | None:
        """When a pair with the same model names is registered under another hash, what changed."""
        for row in reversed(self.all()):
            if (row["draft_name"], row["target_name"]) == (identity.draft_name, identity.target_name) \
                    and row["pair_hash"] != identity.pair_hash:
                return describe_change(row.get("details") or {}, identity)
        return None

    def _audit(self, kind: str, pair_hash: str, actor: str, details: dict[str, Any]) -> None:
        if self.sink is not None:
            record_act(self.sink, GovernanceEvent(
                event_id=f"gov-{uuid.uuid4().hex}", created_at=datetime.now(UTC), kind=kind,  # type: ignore[arg-type]
                route=None, pair_hash=pair_hash, policy_hash=None, actor=actor, details=details))

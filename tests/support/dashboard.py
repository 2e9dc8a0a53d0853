"""Helpers shared by the tests (from tests/dashboard/conftest.py, where its fixtures stay)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

APP = str(Path(__file__).resolve().parents[2] / "dashboard" / "app.py")


_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


_SPAN = re.compile(r"(`+) (.*?) \1(?!`)")


def rendered(markdown: str) -> str:
    """Roughly the text a Markdown string shows, for comparing what a page says: backslash
    escapes undone and padded code spans (`dashboard.plain.code`) unwrapped."""
    out, pos = [], 0
    for m in _SPAN.finditer(markdown):
        out += [_ESCAPED.sub(r"\1", markdown[pos:m.start()]), m.group(2)]
        pos = m.end()
    return "".join([*out, _ESCAPED.sub(r"\1", markdown[pos:])])


@dataclass
class Seeded:
    url: str
    summary: object  # guardian.devtools.benchmarks.dashboard_bench.SeedSummary
    now: datetime


def seed(url: str, *, requests: int = 2400, incident: bool = True,
         divergences: bool = True) -> Seeded:
    from guardian.audit import upgrade
    from guardian.devtools.benchmarks.dashboard_bench import seed_traffic

    upgrade(url)
    now = datetime.now(UTC) - timedelta(seconds=5)
    summary = seed_traffic(url, requests=requests, now=now, span=timedelta(days=1),
                           tokens_per_request=24, incident=incident,
                           divergences=divergences, seed=7)
    return Seeded(url, summary, now)


# In one stored prompt (and its completion and stop string): what only compliance may read.
# A policy file naming the seeded routes (`seed`), all asking for speculation.
SEEDED_ROUTES_POLICY = """
default_route: chat
routes:
  chat: {mode: speculative}
  code: {mode: speculative}
  drifty: {mode: speculative}
"""


PII = ("jane.doe@example.com", "4111 1111 1111 1111", "078-05-1120")


def add_pii_request(url: str) -> str:
    """Write one request whose prompt holds an e-mail address, a card number and an SSN, with
    a (matching) shadow comparison, so the shadow page shows it too; returns its id. The
    completion holds a NUL, so it is stored in the escaped form `decode_text` reverses."""
    import dataclasses
    import uuid

    from guardian.audit.rows import Sealer
    from guardian.audit.store import BatchStore
    from guardian.audit.testing import request_event, shadow_event
    from guardian.core.db import make_engine, normalize_url

    email, card, ssn = PII
    rid = f"req-pii-{uuid.uuid4().hex[:8]}"
    ev = request_event(8, redaction="full", request_id=rid,
                       prompt=f"Refund {email}, card {card}, SSN {ssn}.",
                       completion=f"Refunded card {card}\x00 for {email}.")
    ev = dataclasses.replace(ev, params={**ev.params, "stop": [email]})
    engine = make_engine(normalize_url(url))
    store = BatchStore(engine)
    sealer = Sealer(f"pii/{uuid.uuid4().hex[:8]}", salt=b"dashboard-pii",
                    copy_lines=store.postgres)
    store.write(sealer.seal([ev, shadow_event(rid, verdict="match")]))
    engine.dispose()
    return rid


@dataclass
class KeysFile:
    path: Path
    keys: dict[str, str]  # role -> plaintext key


LOGIN_ROLES = ("compliance", "admin", "oncall", "release", "inference")


def login(at: object, key: str) -> object:
    """Type `key` into the login form of a run AppTest and submit it."""
    at.text_input(key="login_key").input(key)  # type: ignore[attr-defined]
    next(b for b in at.button if b.label == "Log in").click().run()  # type: ignore[attr-defined]
    return at

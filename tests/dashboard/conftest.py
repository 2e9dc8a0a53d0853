"""Dashboard fixtures: a database seeded through the audit store's own row builders and an
AppTest factory that opens a page of the real app against it.

`seeded` (module, SQLite and Postgres): a database with ~2,400 requests over the last day
(three routes, one that drifts and is rolled back, an incident in the last 30 minutes) and the
`SeedSummary` of what was written, so tests compare the pages' figures with the data, not with
the queries.

Every page needs a login (`dashboard.auth`): `dashboard_keys` is a keys file with one key per
role, and `open_page(..., role=...)` logs in through the real login form (admin by default).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

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


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres",
                                                                marks=pytest.mark.integration)])
def seeded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Seeded:
    """The same seeded traffic on SQLite and on Postgres (a fresh database per module)."""
    if request.param == "postgres":
        return seed(request.getfixturevalue("pg_url"))
    return seed(f"sqlite:///{tmp_path_factory.mktemp('dash') / 'guardian.db'}")


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


@pytest.fixture(scope="session")
def dashboard_keys(tmp_path_factory: pytest.TempPathFactory) -> KeysFile:
    """A sidecar keys file holding one key per role (`LOGIN_ROLES`)."""
    from guardian.security.auth import add_key_to_file

    path = tmp_path_factory.mktemp("keys") / "keys.yaml"
    return KeysFile(path, {role: add_key_to_file(path, f"{role}-1", role)  # type: ignore[arg-type]
                           for role in LOGIN_ROLES})


def login(at: object, key: str) -> object:
    """Type `key` into the login form of a run AppTest and submit it."""
    at.text_input(key="login_key").input(key)  # type: ignore[attr-defined]
    next(b for b in at.button if b.label == "Log in").click().run()  # type: ignore[attr-defined]
    return at


@pytest.fixture
def open_page(monkeypatch: pytest.MonkeyPatch,
              dashboard_keys: KeysFile) -> Iterator[Callable[..., object]]:
    """open_page(url, page, role="admin", **query_params) -> a run AppTest, logged in with
    the key of `role`, showing `page` ("overview"...)."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    def run(url: str, page: str, role: str = "admin", **query: str) -> AppTest:
        monkeypatch.setenv("GUARDIAN_DATABASE_URL", url)
        monkeypatch.setenv("GUARDIAN_API_KEYS_FILE", str(dashboard_keys.path))
        monkeypatch.delenv("GUARDIAN_DASHBOARD_DEV", raising=False)
        st.cache_data.clear()
        at = AppTest.from_file(APP, default_timeout=60)
        for k, v in query.items():
            at.query_params[k] = v
        at.run()
        login(at, dashboard_keys.keys[role])
        assert at.session_state["auth_access"].role == role
        if page != "overview":
            at.switch_page(f"views/{page}.py").run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    yield run
    st.cache_data.clear()

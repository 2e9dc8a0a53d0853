"""Dashboard fixtures: a database seeded through the audit store's own row builders and an
AppTest factory that opens a page of the real app against it.

`seeded` (module, SQLite and Postgres): a database with ~2,400 requests over the last day
(three routes, one that drifts and is rolled back, an incident in the last 30 minutes) and the
`SeedSummary` of what was written, so tests compare the pages' figures with the data, not with
the queries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

APP = str(Path(__file__).resolve().parents[2] / "dashboard" / "app.py")


@dataclass
class Seeded:
    url: str
    summary: object  # guardian.benchmarks.dashboard_bench.SeedSummary
    now: datetime


def seed(url: str, *, requests: int = 2400, incident: bool = True,
         divergences: bool = True) -> Seeded:
    from guardian.audit import upgrade
    from guardian.benchmarks.dashboard_bench import seed_traffic

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


@pytest.fixture
def open_page(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., object]]:
    """open_page(url, page, **query_params) -> a run AppTest showing `page` ("overview"...)."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    def run(url: str, page: str, **query: str) -> AppTest:
        monkeypatch.setenv("GUARDIAN_DATABASE_URL", url)
        st.cache_data.clear()
        at = AppTest.from_file(APP, default_timeout=60)
        for k, v in query.items():
            at.query_params[k] = v
        at.run()
        if page != "overview":
            at.switch_page(f"views/{page}.py").run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    yield run
    st.cache_data.clear()

"""A reader role must be shown the tables verify walked (Postgres): a schema named after the
role, holding a view `audit_requests` that hides a request, used to fool that reader while
`verify` (as postgres) reported OK."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url

from guardian.audit import upgrade
from guardian.audit.config import AuditSettings
from guardian.audit.heads import HeadsConfig, read_heads
from guardian.audit.queries import get_request
from guardian.audit.readers import parse_search_path
from guardian.audit.signing import generate, load_trust
from guardian.audit.testing import request_event
from guardian.audit.verify import verify_db
from guardian.audit.writer import AuditWriter
from guardian.core.db import make_engine


@pytest.fixture
def shadowed(fresh_pg_url: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(database URL, reader role): two requests written, then a login role that can read
    the audit tables and a schema named after it with a view hiding request r1."""
    upgrade(fresh_pg_url)
    signer = generate(tmp_path / "k", tmp_path / "trust.json", "ra")
    w = AuditWriter(fresh_pg_url, spool_dir=tmp_path / "spool", replica_id="ra",
                    config=AuditSettings(flush_interval_s=0.05),
                    heads=HeadsConfig(signer, tmp_path / "heads", 1, 3600))
    for i in range(2):
        w.submit(request_event(2, request_id=f"r{i}", seed=i))
    w.close()
    role = f"reader_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(fresh_pg_url)  # plain: the attacker's own session
    with admin.begin() as c:
        c.execute(sa.text(f"CREATE ROLE {role} LOGIN"))
        c.execute(sa.text(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}"))
    try:
        yield fresh_pg_url, role
    finally:
        with admin.begin() as c:
            c.execute(sa.text(f"DROP SCHEMA IF EXISTS {role} CASCADE"))
            c.execute(sa.text(f"DROP OWNED BY {role}"))
            c.execute(sa.text(f"DROP ROLE {role}"))
        admin.dispose()


def _hide_r1(url: str, role: str) -> None:
    admin = sa.create_engine(url)
    with admin.begin() as c:
        c.execute(sa.text(f"CREATE SCHEMA {role}"))
        c.execute(sa.text(f"CREATE VIEW {role}.audit_requests AS SELECT * FROM "
                          "public.audit_requests WHERE request_id <> 'r1'"))
        c.execute(sa.text(f"GRANT USAGE ON SCHEMA {role} TO {role}"))
        c.execute(sa.text(f"GRANT SELECT ON {role}.audit_requests TO {role}"))
    admin.dispose()


def _verify(url: str, tmp_path: Path) -> list[str]:
    db = make_engine(url)
    try:
        rep = verify_db(db, heads=read_heads(tmp_path / "heads",
                                             load_trust(tmp_path / "trust.json")))
        return rep.errors
    finally:
        db.dispose()


def test_verify_names_a_reader_role_shown_a_shadow_table(shadowed: tuple[str, str],
                                                         tmp_path: Path) -> None:
    url, role = shadowed
    assert _verify(url, tmp_path) == []
    _hide_r1(url, role)
    errors = _verify(url, tmp_path)
    assert errors and errors[0].startswith(
        f"storage: reader role '{role}' resolves audit_requests to {role}.audit_requests"), errors
    assert f"ALTER ROLE {role} SET search_path = public" in errors[0]


def test_the_projects_own_connections_read_the_real_table(shadowed: tuple[str, str]) -> None:
    url, role = shadowed
    _hide_r1(url, role)
    as_reader = make_url(url).set(username=role).render_as_string(hide_password=False)
    plain = sa.create_engine(as_reader)  # what psql or a BI tool as that role sees
    with plain.connect() as c:
        assert c.execute(sa.text("SELECT count(*) FROM audit_requests")).scalar_one() == 1
    plain.dispose()
    db = make_engine(as_reader)  # the dashboard's and `guardian audit show`'s engine
    try:
        assert get_request(db, "r1") is not None
        with db.connect() as c:
            assert c.execute(sa.text("SELECT count(*) FROM audit_requests")).scalar_one() == 2
    finally:
        db.dispose()


def test_an_explicit_role_search_path_is_what_counts(shadowed: tuple[str, str],
                                                     tmp_path: Path) -> None:
    url, role = shadowed
    _hide_r1(url, role)
    admin = sa.create_engine(url)
    with admin.begin() as c:
        c.execute(sa.text(f"ALTER ROLE {role} SET search_path = public"))
    try:
        assert _verify(url, tmp_path) == []  # the shadow view is never reached by that role
    finally:
        with admin.begin() as c:
            c.execute(sa.text(f"ALTER ROLE {role} RESET search_path"))
        admin.dispose()


def test_search_path_parsing() -> None:
    assert parse_search_path('"$user", public', "bob") == ["bob", "public"]
    assert parse_search_path('Audit, "Odd""Name", pg_temp', "x") == ["audit", 'Odd"Name']

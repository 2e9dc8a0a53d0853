"""Redaction guarantees, proved on a dump of the whole database (every table, every column)."""

from __future__ import annotations

import re
import subprocess

import pytest
import sqlalchemy as sa

from guardian.audit import upgrade
from guardian.audit.testing import request_event
from guardian.core.db import make_engine

pytestmark = pytest.mark.integration

PROMPT = "My account password is Zanzibar-4471; write to alice.smith@example.com"
COMPLETION = " Sure: Zanzibar-4471 is noted, I will email alice.smith@example.com today."


def _dump(url: str) -> str:
    """Everything stored, as text: pg_dump of the database / SQLite iterdump."""
    engine = make_engine(url)
    try:
        if engine.dialect.name == "postgresql":
            u = engine.url
            return subprocess.run(
                ["pg_dump", "--data-only", "-h", u.host or "127.0.0.1", "-p", str(u.port or 5432),
                 "-U", u.username or "postgres", u.database or ""],
                check=True, capture_output=True, text=True).stdout
        with engine.connect() as conn:
            return "\n".join(conn.connection.driver_connection.iterdump())
    finally:
        engine.dispose()


def _without_random_hex(dump: str) -> str:
    """The dump with hex identifiers (SHA-256 chain hashes, chain-id suffixes) blanked out.

    They are random, so a short probe like "4471" matches inside one now and then; a leaked
    prompt or token id never forms a 12+ character run of lowercase hex on its own.
    """
    return re.sub(r"[0-9a-f]{12,}", "<hex>", dump)


def _id_sequences(ids: list[int]) -> list[str]:
    """Renderings of a token-id sequence as JSON (both spacings) and as COPY column values."""
    return [", ".join(map(str, ids[:6])), ",".join(map(str, ids[:6]))]


def _write(url: str, make_writer, mode: str) -> tuple[list[int], list[int]]:  # type: ignore[no-untyped-def]
    upgrade(url)
    ev = request_event(24, redaction=mode, prompt=PROMPT, completion=COMPLETION,  # type: ignore[arg-type]
                       request_id=f"req-{mode}")
    w = make_writer(url)
    w.submit(ev)
    w.close()
    return ev.prompt_token_ids, ev.completion_token_ids


@pytest.mark.parametrize("mode", ["hashed", "none"])
def test_no_text_or_token_ids_recoverable(fresh_db_url: str, make_writer, mode: str) -> None:  # type: ignore[no-untyped-def]
    prompt_ids, completion_ids = _write(fresh_db_url, make_writer, mode)
    dump = _dump(fresh_db_url)
    assert f"req-{mode}" in dump  # the dump does contain the request ...
    scanned = _without_random_hex(dump)
    for secret in ("Zanzibar", "4471", "alice.smith", "example.com", "password", "email"):
        assert secret not in scanned, f"{secret!r} recoverable in {mode} mode"
    for seq in _id_sequences(prompt_ids) + _id_sequences(completion_ids):
        assert seq not in dump, f"token ids recoverable in {mode} mode"
    engine = make_engine(fresh_db_url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM audit_tokens WHERE token_id IS NOT NULL")
                            ).scalar() == 0
        hashes = conn.execute(sa.text("SELECT token_hash FROM audit_tokens")).scalars().all()
    engine.dispose()
    if mode == "hashed":  # salted per-token hashes, all distinct even for repeated tokens
        assert len(set(hashes)) == len(hashes) == 24
    else:
        assert set(hashes) == {None}


def test_redacted_mode_masks_pii_and_drops_token_ids(fresh_db_url: str, make_writer) -> None:  # type: ignore[no-untyped-def]
    _, completion_ids = _write(fresh_db_url, make_writer, "redacted")
    dump = _dump(fresh_db_url)
    assert "alice.smith@example.com" not in dump and "[EMAIL]" in dump
    assert "Zanzibar-4471" in dump  # not a PII pattern: redacted mode keeps ordinary text
    for seq in _id_sequences(completion_ids):
        assert seq not in dump


def test_full_mode_keeps_text_and_token_ids(fresh_db_url: str, make_writer) -> None:  # type: ignore[no-untyped-def]
    _, completion_ids = _write(fresh_db_url, make_writer, "full")
    dump = _dump(fresh_db_url)
    assert PROMPT in dump and "alice.smith@example.com" in dump
    assert any(seq in dump for seq in _id_sequences(completion_ids))

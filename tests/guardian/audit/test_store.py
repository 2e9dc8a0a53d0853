"""`BatchStore` on SQLite: token rows in paced slices, one transaction, nothing lost."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from guardian.audit import store as store_mod
from guardian.audit import upgrade
from guardian.audit.rows import Sealer
from guardian.audit.store import BatchStore
from guardian.audit.testing import request_event
from guardian.audit.verify import verify_db
from guardian.db import make_engine

TOKENS = 16


def test_sqlite_token_rows_go_in_paced_slices_of_one_transaction(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    upgrade(url)
    engine = make_engine(url)
    monkeypatch.setattr(store_mod, "_SQLITE_SLICE_ROWS", 50)
    pauses: list[float] = []
    monkeypatch.setattr(store_mod.time, "sleep", pauses.append)
    n_requests = 13  # 208 token rows: slices of 50, 50, 50, 50, 8
    batch = Sealer("replica/s", salt=b"k", copy_lines=False).seal(
        [request_event(TOKENS, request_id=f"r{i}") for i in range(n_requests)])
    assert len(batch.token_rows) == n_requests * TOKENS

    assert BatchStore(engine).write(batch) is True

    assert pauses == [store_mod._SQLITE_SLICE_PAUSE_S] * 4  # between slices, not after
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM audit_tokens")).scalar() == 208
        assert conn.execute(sa.text("SELECT count(*) FROM audit_requests")).scalar() == 13
    rep = verify_db(engine)
    assert rep.ok, rep.errors
    engine.dispose()


def test_a_failing_slice_rolls_the_whole_batch_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The slices share the batch's transaction: a slice that fails leaves nothing of the
    batch behind (the spool takes it whole, and its replay is not a duplicate)."""
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    upgrade(url)
    engine = make_engine(url)
    monkeypatch.setattr(store_mod, "_SQLITE_SLICE_ROWS", 50)
    slices = 0

    def fail_third(_s: float) -> None:
        nonlocal slices
        slices += 1
        if slices == 2:  # before the third slice
            raise OSError("disk went away")

    monkeypatch.setattr(store_mod.time, "sleep", fail_third)
    batch = Sealer("replica/f", salt=b"k", copy_lines=False).seal(
        [request_event(TOKENS, request_id=f"r{i}") for i in range(13)])
    store = BatchStore(engine)
    with pytest.raises(OSError):
        store.write(batch)
    with engine.connect() as conn:
        for table in ("audit_tokens", "audit_requests", "audit_batches"):
            assert conn.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar() == 0

    monkeypatch.setattr(store_mod.time, "sleep", lambda _s: None)
    assert store.write(batch) is True  # the replay
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM audit_tokens")).scalar() == 208
    assert verify_db(engine).ok
    engine.dispose()

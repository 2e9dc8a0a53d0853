"""Helpers shared by the tests (from tests/guardian/audit/conftest.py, where its fixtures stay)."""

from __future__ import annotations

import contextlib
import socket
import threading
from typing import Any

import sqlalchemy as sa

from guardian.core.db import make_engine


class DbProxy:
    """TCP proxy to Postgres; `down()` cuts every connection and refuses new ones."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.up_ = True
        self.conns: list[socket.socket] = []
        self.lock = threading.Lock()
        self.stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.stopped:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up_:
                client.close()
                continue
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.conns += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def down(self) -> None:
        self.up_ = False
        with self.lock:
            for s in self.conns:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self.conns.clear()

    def up(self) -> None:
        self.up_ = True

    def close(self) -> None:
        self.stopped = True
        self.down()
        self.listener.close()


def guards_off(conn: sa.Connection) -> None:
    """Turn the append-only guards off for `conn`'s transaction (Postgres) or drop them
    (SQLite), as an attacker with DB rights would."""
    if conn.dialect.name == "postgresql":
        conn.execute(sa.text("SET LOCAL session_replication_role = replica"))
    else:
        for (name,) in conn.execute(sa.text(
                "SELECT name FROM sqlite_master WHERE type = 'trigger'")).all():
            conn.execute(sa.text(f"DROP TRIGGER {name}"))


def tamper(url: str, *statements: str, params: dict[str, Any] | None = None) -> None:
    """Run SQL with the append-only guards off, like an attacker with DB rights would."""
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            guards_off(conn)
            for st in statements:
                conn.execute(sa.text(st), params or {})
    finally:
        engine.dispose()


def count(url: str, sql: str, params: dict[str, Any] | None = None) -> Any:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(sa.text(sql), params or {}).scalar()
    finally:
        engine.dispose()

"""Durable local spool for sealed batches the database could not take (down or slow).

Layout: `<spool_dir>/<chain>-<segment>.spool`, one sealed batch per line as
`<crc32 hex> <json>\\n`, appended with O_APPEND and fsync'd before `append` returns, so a
spooled batch survives a crash of the process or the machine. The writer holds an exclusive
`flock` on `<chain>.lock` for its lifetime; a starting writer replays the segments of chains
whose lock it can take (previous incarnations), so two live processes never replay the same
file. A torn last line (crash mid-append) fails its CRC and is skipped with an error log: that
batch was never acknowledged as durable.

Lock files: a lock whose flock is free belongs to a writer that is gone (killed processes
release their flocks but leave the file). A starting writer removes such stale locks that have
no segments left (`sweep_stale_locks`), and removes an orphan's lock once its segments are
replayed; the file names the pid that took it, for whoever looks at the directory.

Text: sealed batches hold only storable strings (`guardian.audit.chain.storable_text`), but
the spool encodes with `surrogatepass` anyway, so a stray lone surrogate can never make a
batch unspoolable (it round-trips through the file unchanged).

Capacity: past `max_bytes` in total, `append` refuses (returns False) and the writer declares
the batch lost in the chain (see `guardian.audit.writer`); that small declaration may use 1 MiB
of headroom above the cap.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import re
import threading
import uuid
import zlib
from collections.abc import Iterator
from pathlib import Path

from guardian.audit.rows import SealedBatch

log = logging.getLogger(__name__)


HEADROOM = 1024 * 1024


def _safe(chain_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", chain_id)


class Spool:
    def __init__(self, directory: Path, chain_id: str, max_bytes: int) -> None:
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.name = _safe(chain_id)
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._fd: int | None = None
        self._segment = 0
        self._bytes = 0
        self._lock_fd = self._take_lock(self.dir / f"{self.name}.lock")
        os.ftruncate(self._lock_fd, 0)
        os.write(self._lock_fd, f"{os.getpid()}\n".encode())
        self.sweep_stale_locks()

    @staticmethod
    def _take_lock(path: Path) -> int:
        # Another writer's stale-lock sweep may unlink the file between our open and flock;
        # a lock on an unlinked file guards nothing, so take it again on the new file.
        while True:
            fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            try:
                if os.stat(path).st_ino == os.fstat(fd).st_ino:
                    return fd
            except FileNotFoundError:
                pass
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    # -- writing ------------------------------------------------------------------------
    def append(self, batch: SealedBatch, *, headroom: bool = False) -> bool:
        """Durably append one batch; False when over capacity or the disk refuses.

        `headroom`: may exceed the cap by `HEADROOM` bytes (for small loss declarations).
        """
        payload = batch.to_json().encode("utf-8", "surrogatepass")
        record = b"%08x %s\n" % (zlib.crc32(payload), payload)
        with self._lock:
            if self._bytes + len(record) > self.max_bytes + (HEADROOM if headroom else 0):
                log.error("audit spool full (%d bytes, cap %d): cannot hold batch %s:%d-%d",
                          self._bytes, self.max_bytes, batch.chain_id, batch.first_seq,
                          batch.last_seq)
                return False
            try:
                if self._fd is None:
                    self._segment += 1
                    path = self.dir / f"{self.name}-{self._segment:06d}.spool"
                    self._fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_APPEND, 0o600)
                    _fsync_dir(self.dir)
                os.write(self._fd, record)
                os.fsync(self._fd)
            except OSError as exc:
                log.error("audit spool write failed (%s): cannot hold batch %s:%d-%d", exc,
                          batch.chain_id, batch.first_seq, batch.last_seq)
                return False
            self._bytes += len(record)
            return True

    def quarantine(self, batch: SealedBatch, reason: str) -> Path:
        """Keep a batch the DB rejected, for forensics (never replayed automatically)."""
        qdir = self.dir / "rejected"
        qdir.mkdir(exist_ok=True)
        path = qdir / f"{self.name}-{batch.first_seq:012d}.json"
        payload = json.dumps({"reason": reason, "batch": json.loads(batch.to_json())})
        return self._write_rejected(path, payload)

    def quarantine_raw(self, event_id: str, payload: str) -> Path:
        """Keep an event that could not be sealed (JSON `payload`), for forensics."""
        path = (self.dir / "rejected"
                / f"{self.name}-unsealable-{_safe(event_id)[:80]}-{uuid.uuid4().hex[:8]}.json")
        return self._write_rejected(path, payload)

    def _write_rejected(self, path: Path, payload: str) -> Path:
        path.parent.mkdir(exist_ok=True)
        fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
        try:
            os.write(fd, payload.encode("utf-8", "surrogatepass"))
            os.fsync(fd)
        finally:
            os.close(fd)
        _fsync_dir(path.parent)
        return path

    def pending(self) -> bool:
        with self._lock:
            return self._bytes > 0

    @property
    def bytes(self) -> int:
        return self._bytes

    def rotate(self) -> list[Path]:
        """Close the segment being appended to; return all own segments, oldest first."""
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None
            return self._segments(self.name)

    def remove(self, path: Path) -> None:
        size = path.stat().st_size
        path.unlink()
        _fsync_dir(self.dir)
        with self._lock:
            self._bytes = max(0, self._bytes - size)

    def close(self) -> None:
        self.rotate()
        fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
        os.close(self._lock_fd)
        lock = self.dir / f"{self.name}.lock"
        if not self._segments(self.name):
            lock.unlink(missing_ok=True)

    # -- reading ------------------------------------------------------------------------
    def _segments(self, name: str) -> list[Path]:
        return sorted(self.dir.glob(f"{glob_escape(name)}-*.spool"))

    def orphans(self) -> Iterator[tuple[str, list[Path]]]:
        """Segments of other chains whose writer is gone (their lock is free)."""
        names = {p.name.rsplit("-", 1)[0] for p in self.dir.glob("*.spool")} - {self.name}
        for name in sorted(names):
            fd = os.open(self.dir / f"{name}.lock", os.O_CREAT | os.O_RDWR, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            try:
                yield name, self._segments(name)
            finally:
                if not self._segments(name):  # fully replayed: its lock is stale now
                    (self.dir / f"{name}.lock").unlink(missing_ok=True)
                fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)

    def remove_orphan(self, path: Path) -> None:
        path.unlink()
        _fsync_dir(self.dir)

    def sweep_stale_locks(self) -> list[Path]:
        """Remove lock files of writers that are gone and left no segments; returns them."""
        removed: list[Path] = []
        for lock in sorted(self.dir.glob("*.lock")):
            name = lock.name[:-len(".lock")]
            if name == self.name or self._segments(name):
                continue  # ours, or an orphan still to replay (its lock guards the replay)
            try:
                fd = os.open(lock, os.O_RDWR)
            except FileNotFoundError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue  # a live writer holds it
            try:
                lock.unlink(missing_ok=True)
                removed.append(lock)
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)
        if removed:
            log.info("removed %d stale audit spool lock(s) in %s", len(removed), self.dir)
        return removed


def read_segment(path: Path) -> Iterator[SealedBatch]:
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            crc, _, payload = raw.rstrip(b"\n").partition(b" ")
            if not raw.endswith(b"\n") or f"{zlib.crc32(payload):08x}".encode() != crc:
                log.error("skipping torn/corrupt record %s:%d (never acknowledged)", path, lineno)
                continue
            yield SealedBatch.from_json(payload.decode("utf-8", "surrogatepass"))


def glob_escape(name: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", name)


def _fsync_dir(directory: Path) -> None:
    # A new/removed file is only durable once its directory entry is.
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)

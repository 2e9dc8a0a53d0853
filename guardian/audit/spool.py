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

Write-ahead log and intents (`WriteAheadLog`, `IntentLog`): sync routes' sealed batches are
fsync'd to `<chain>-<n>.wal` before their requests are answered; the ids of all submitted
events go to `<chain>-<n>.intent` (written, not fsync'd) so a restart can name what a killed
process lost. Both are replayed/checked like spool segments of a dead writer.

Text: sealed batches hold only storable strings (`guardian.audit.chain.storable_text`), but
the spool encodes with `surrogatepass` anyway, so a stray lone surrogate can never make a
batch unspoolable (it round-trips through the file unchanged).

Capacity: past `max_bytes` in total, `append` refuses (returns False) and the writer declares
the batch lost in the chain (see `guardian.audit.writer`); that small declaration may use 1 MiB
of headroom above the cap.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import re
import threading
import uuid
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

from guardian.audit.rows import SealedBatch
from guardian.core.fileio import append_whole

log = logging.getLogger(__name__)


HEADROOM = 1024 * 1024
LEFTOVER_EXTS = ("spool", "wal", "intent")


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
                append_whole(self._fd, record)
                os.fsync(self._fd)
            except OSError as exc:
                log.error("audit spool write failed (%s): cannot hold batch %s:%d-%d", exc,
                          batch.chain_id, batch.first_seq, batch.last_seq)
                if self._fd is not None:  # the next batch starts a new segment: nothing is
                    with contextlib.suppress(OSError):  # glued to what this write left
                        os.close(self._fd)
                    self._fd = None
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
            append_whole(fd, payload.encode("utf-8", "surrogatepass"))
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

    def segment_count(self) -> int:
        """Own spool segments on disk (the one being appended to included)."""
        return len(self._segments(self.name))

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
    def _segments(self, name: str, ext: str = "spool") -> list[Path]:
        return sorted(self.dir.glob(f"{glob_escape(name)}-*.{ext}"))

    def _leftovers(self, name: str) -> list[Path]:
        """Everything a writer leaves for the next start: spool, WAL and intent segments."""
        return [p for ext in LEFTOVER_EXTS for p in self._segments(name, ext)]

    def orphans(self) -> Iterator[tuple[str, list[Path]]]:
        """Segments of other chains whose writer is gone (their lock is free). While one is
        yielded its lock is held: `orphan_files` gives its WAL and intent files."""
        names = {p.name.rsplit("-", 1)[0] for ext in LEFTOVER_EXTS
                 for p in self.dir.glob(f"*.{ext}")} - {self.name}
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
                if not self._leftovers(name):  # fully replayed: its lock is stale now
                    (self.dir / f"{name}.lock").unlink(missing_ok=True)
                fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)

    def orphan_files(self, name: str) -> tuple[list[Path], list[Path]]:
        """(WAL segments, intent segments) of the orphan `name` (call inside `orphans`)."""
        return self._segments(name, "wal"), self._segments(name, "intent")

    def remove_orphan(self, path: Path) -> None:
        path.unlink()
        _fsync_dir(self.dir)

    def sweep_stale_locks(self) -> list[Path]:
        """Remove lock files of writers that are gone and left no segments; returns them."""
        removed: list[Path] = []
        for lock in sorted(self.dir.glob("*.lock")):
            name = lock.name[:-len(".lock")]
            if name == self.name or self._leftovers(name):
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


class WriteAheadLog:
    """Sealed batches of `sync` events, fsync'd before their requests are answered.

    `<dir>/<chain>-<n>.wal`, same record format as the spool. The sealer appends one batch
    per group commit (`append`: one write + one fsync for every sync event in it); once the
    batch is in the DB or the spool the writer calls `release`. A segment is rotated past
    `segment_bytes` and removed when all its batches are released. After a crash the next
    start replays the segments (idempotent: batches already committed are skipped).
    """

    def __init__(self, directory: Path, name: str, segment_bytes: int) -> None:
        self.dir, self.name, self.segment_bytes = Path(directory), name, segment_bytes
        self._lock = threading.Lock()
        self._fd: int | None = None
        self._segment = 0
        self._size = 0
        self._open: dict[int, int] = {}  # segment -> batches not yet released
        self.bytes = 0
        self.fsyncs = 0

    def _path(self, segment: int) -> Path:
        return self.dir / f"{self.name}-{segment:06d}.wal"

    def append(self, batch: SealedBatch) -> int:
        """Durably append `batch`; returns its segment (for `release`). Raises OSError."""
        return self.append_many([batch])

    def append_many(self, batches: list[SealedBatch]) -> int:
        """Durably append `batches` with one write and one fsync (group commit); returns
        their segment (`release` once per batch). Raises OSError."""
        record = b""
        for batch in batches:
            payload = batch.to_json().encode("utf-8", "surrogatepass")
            record += b"%08x %s\n" % (zlib.crc32(payload), payload)
        with self._lock:
            if self._fd is not None and self._size >= self.segment_bytes:
                os.close(self._fd)
                self._fd = None
                self._drop_released(self._segment)
            if self._fd is None:
                self._segment += 1
                self._fd = os.open(self._path(self._segment),
                                   os.O_CREAT | os.O_WRONLY | os.O_APPEND, 0o600)
                self._size = 0
                _fsync_dir(self.dir)
            try:
                append_whole(self._fd, record)
                os.fsync(self._fd)
            except OSError:
                # The next append starts a new segment: nothing is ever glued to what a
                # failed write left (its batches were never acknowledged).
                with contextlib.suppress(OSError):
                    os.close(self._fd)
                self._fd = None
                raise
            self.fsyncs += 1
            self._size += len(record)
            self.bytes += len(record)
            self._open[self._segment] = self._open.get(self._segment, 0) + len(batches)
            return self._segment

    def release(self, segment: int) -> None:
        """The batch appended to `segment` is in the DB or the spool (or declared lost)."""
        with self._lock:
            self._open[segment] -= 1
            if segment != self._segment or self._fd is None:
                self._drop_released(segment)
            elif self._open[segment] == 0 and self._size:
                # All released: empty the open segment in place (O_APPEND writes go to the new
                # end). Not fsync'd: after a crash the old records may come back, and their
                # replay is skipped as already written.
                os.ftruncate(self._fd, 0)
                self.bytes -= self._size
                self._size = 0

    def _drop_released(self, segment: int) -> None:
        if self._open.get(segment, 0) > 0:
            return
        self._open.pop(segment, None)
        path = self._path(segment)
        try:
            self.bytes -= path.stat().st_size
            path.unlink()
        except FileNotFoundError:
            pass

    def close(self) -> None:
        """Close; segments whose batches are all released are removed, the rest stay."""
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None
            for segment in list(self._open):
                self._drop_released(segment)
            if self._segment and self._segment not in self._open:
                self._path(self._segment).unlink(missing_ok=True)


class IntentLog:
    """Ids of submitted events, written (not fsync'd) as they are submitted.

    `<dir>/<chain>-<n>.intent`, one `<id>\\n` per event, appended with one `write` (O_APPEND)
    on the submitting thread: it costs a syscall, no fsync, so it survives the death of the
    process (the kernel keeps the page) but not of the machine. After a crash the next start
    looks each id up in the DB (after replaying the spool and WAL) and declares the missing
    ones in an `audit_gap` record naming them: the async loss window made visible.
    Segments rotate every `rotate_s`; one is removed once every event submitted before its
    rotation is durable (`collect`).
    """

    def __init__(self, directory: Path, name: str, chain_id: str) -> None:
        self.dir, self.name, self.chain_id = Path(directory), name, chain_id
        self._lock = threading.Lock()
        self._segment = 0
        self._closed: list[tuple[Path, int]] = []  # (segment, events submitted by its end)
        self._fd = self._open_next()

    def _open_next(self) -> int:
        self._segment += 1
        self._path = self.dir / f"{self.name}-{self._segment:06d}.intent"
        fd = os.open(self._path, os.O_CREAT | os.O_WRONLY | os.O_APPEND, 0o600)
        os.write(fd, f"#chain {self.chain_id}\n".encode())  # whose holes to look for
        return fd

    def note(self, event_id: str) -> None:
        line = (event_id.replace("\n", " ") + "\n").encode("utf-8", "surrogatepass")
        try:
            with self._lock:  # rotate() must not close the fd under a write
                append_whole(self._fd, line)
        except OSError as exc:  # detection only; never fail a request over it
            log.debug("intent log write failed: %s", exc)

    def rotate(self, submitted: Callable[[], int]) -> None:
        """Start a new segment; the old one holds events 1..`submitted()` at most. Read after
        the swap: an event's ticket is taken before its line is written, so every line in
        the old segment belongs to a ticket handed out by then (read before the swap, a
        ticket taken in between could write into the old segment above its mark)."""
        with self._lock:
            old_fd, old_path = self._fd, self._path
            self._fd = self._open_next()
            os.close(old_fd)
            self._closed.append((old_path, submitted()))

    def collect(self, low: int) -> None:
        """Remove closed segments whose events are all durable: every event up to the
        `low`-th submitted is (the writer's low-watermark, not a count: batches finish out
        of order, and a count let a segment go while an earlier event was still in flight)."""
        with self._lock:
            while self._closed and self._closed[0][1] <= low:
                self._closed.pop(0)[0].unlink(missing_ok=True)

    def close(self, all_durable: bool) -> None:
        with self._lock:
            os.close(self._fd)
            if all_durable:
                for path, _ in self._closed:
                    path.unlink(missing_ok=True)
                self._path.unlink(missing_ok=True)
                self._closed.clear()


def read_intents(path: Path) -> tuple[str | None, list[str]]:
    """(chain id, the ids) of an intent segment (a torn last line is ignored)."""
    data = path.read_bytes()
    lines = data.split(b"\n")[:-1]  # the part after the last newline is torn or empty
    chain, ids = None, []
    for line in lines:
        text = line.decode("utf-8", "surrogatepass")
        if text.startswith("#chain "):
            chain = text[len("#chain "):]
        elif text:
            ids.append(text)
    return chain, ids


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

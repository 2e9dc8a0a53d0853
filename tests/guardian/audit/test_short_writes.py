"""A write the kernel cuts short (a file size limit, a full disk) must never leave a torn record
that was reported durable, nor glue the next record to one.

`os.write` returns how much it wrote; at RLIMIT_FSIZE it writes up to the limit and reports no
error (the next write fails with EFBIG). The spool and the write-ahead log ignored that count:
a sync route answered 200 for a batch whose only durable copy was torn, and replay skipped it
(found by the crash-safety review, `ulimit -f` on the sidecar). Real processes here: each
append runs in a child under a real file size limit.
"""

from __future__ import annotations

import multiprocessing
import resource
from datetime import UTC, datetime
from pathlib import Path

import pytest

from guardian.audit.rows import SealedBatch
from guardian.audit.spool import Spool, WriteAheadLog, read_segment

LIMIT = 4096


def _batch(i: int) -> SealedBatch:
    b = SealedBatch("chain/1", i, i)
    b.requests.append({"request_id": f"r{i}", "prompt_text": "p" * 700, "seq": i,
                       "created_at": datetime(2026, 11, 27, tzinfo=UTC)})
    return b


def _run(kind: str, directory: str, out: multiprocessing.Queue) -> None:
    try:
        out.put(_appends(kind, directory))
    except BaseException as exc:  # reported, not a 60 s wait for the queue
        out.put(repr(exc))


def _appends(kind: str, directory: str) -> list[int]:
    """Append batches of ~0.8 KB under a file size limit of LIMIT bytes, then with the limit
    lifted; which appends were acknowledged."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, hard))
    acked: list[int] = []
    if kind == "spool":
        log = Spool(Path(directory), "chain/1", max_bytes=1 << 20)
        for i in range(1, 9):
            if log.append(_batch(i)):
                acked.append(i)
        resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
        assert log.append(_batch(100))
        acked.append(100)
    else:
        wal = WriteAheadLog(Path(directory), "w", segment_bytes=1 << 20)
        for i in range(1, 9):
            try:
                wal.append_many([_batch(i)])
                acked.append(i)
            except OSError:
                pass
        resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
        wal.append_many([_batch(100)])
        acked.append(100)
    return acked


@pytest.mark.parametrize("kind", ["spool", "wal"])
def test_a_cut_short_write_is_never_acknowledged_nor_glued_to_the_next(tmp_path: Path,
                                                                      kind: str) -> None:
    ctx = multiprocessing.get_context("fork")
    out: multiprocessing.Queue = ctx.Queue()
    child = ctx.Process(target=_run, args=(kind, str(tmp_path), out))
    child.start()
    acked = out.get(timeout=60)
    child.join(60)
    assert child.exitcode == 0
    assert isinstance(acked, list), acked
    assert 100 in acked and len(acked) < 9, acked  # the limit refused some appends
    files = sorted(tmp_path.glob("*.spool" if kind == "spool" else "*.wal"))
    assert files, list(tmp_path.iterdir())
    readable = [b.first_seq for f in files for b in read_segment(f)]
    # Every acknowledged batch reads back whole (the one after the limit too: not glued to
    # a torn tail), and nothing unacknowledged does.
    assert sorted(readable) == sorted(acked), (readable, acked)

"""Atomic, durable writes of the sidecar's small local files: the API keys file, the last known
route state and the generated secrets.

The content goes to a temporary file in the same directory (mode 0600 unless told otherwise),
is fsync'd, then renamed over the target — or, `exclusive`, hard-linked into place so that an
existing file is never replaced (two processes creating it at once: the second keeps the
first's) — and the directory is fsync'd so the rename itself survives a crash. A reader sees
the old file or the new one, never half of either.
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
import tempfile
from pathlib import Path

logger = logging.getLogger(__name__)


def write_atomic(path: Path, text: str, *, mode: int = 0o600, exclusive: bool = False) -> bool:
    """Write `text` to `path` atomically; False only when `exclusive` and `path` exists."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if exclusive:
            try:
                os.link(tmp, path)
            except FileExistsError:
                return False
        else:
            os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)  # the link's second name, or what a failed write left
    _fsync_dir(path.parent)
    return True


def _fsync_dir(directory: Path) -> None:
    try:
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:  # a file system without directory handles: nothing more to do
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def warn_if_shared(path: Path, what: str) -> None:
    """Log a warning when `path` (a file written 0600 by `write_atomic`) has been made
    readable or writable by other users since; a missing file says nothing."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return
    if mode & 0o077:
        logger.warning("%s %s is open to other users (mode %o); `chmod 600 %s`", what, path,
                       mode, path)

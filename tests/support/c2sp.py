"""The Go verifier of C2SP checkpoints and tlog-proof receipts (tests/support/c2sp_verify),
built from Debian's golang.org/x/mod, or a pytest skip saying what is missing."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent / "c2sp_verify"
GOPATH = Path(os.environ.get("GUARDIAN_C2SP_GOPATH", "/usr/share/gocode"))


def build_go_verifier(out_dir: Path) -> Path:
    """Build c2sp_verify offline (GOPATH mode, GO111MODULE=off) into `out_dir`."""
    go = shutil.which("go")
    if go is None:
        pytest.skip("no `go` on PATH: run .ci/install-c2sp-tools (golang-go, "
                    "golang-golang-x-mod-dev) to check the C2SP formats against Go's sumdb")
    if not (GOPATH / "src/golang.org/x/mod/sumdb/note").is_dir():
        pytest.skip(f"golang.org/x/mod is not under {GOPATH}/src (Debian: "
                    "golang-golang-x-mod-dev; or set GUARDIAN_C2SP_GOPATH)")
    out = out_dir / "c2sp_verify"
    env = {**os.environ, "GO111MODULE": "off", "GOPATH": str(GOPATH), "GOFLAGS": "",
           "GOCACHE": str(out_dir / "cache"), "CGO_ENABLED": "0"}
    res = subprocess.run([go, "build", "-o", str(out), "."], cwd=SOURCE, env=env,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, f"go build failed: {res.stderr}"  # present but broken: fail
    return out


def run(tool: Path, *args: str | Path) -> tuple[int, str]:
    res = subprocess.run([str(tool), *map(str, args)], capture_output=True, text=True,
                         timeout=60)
    return res.returncode, (res.stdout + res.stderr).strip()

"""The README quickstart, `guardian serve` with nothing configured, as a real process: the first
start generates the audit secrets (0600) and names the file, the second reuses them; the
served process refuses foreign Host headers and closes slow-loris connections."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.e2e.test_demo import _demo_pair_or_skip
from tests.support.servers import free_port

SERVE = [sys.executable, "-c", "from guardian.cli import main; main()", "serve"]


def start(home: Path, port: int, log: Path, *extra: str,
          ready_s: float = 120) -> subprocess.Popen:
    draft_dir, target_dir = _demo_pair_or_skip()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GUARDIAN_")}
    env.update(GUARDIAN_HOME=str(home), GUARDIAN_DRAFT_DIR=draft_dir,
               GUARDIAN_TARGET_DIR=target_dir, GUARDIAN_TORCH_THREADS="1",
               GUARDIAN_TIMEOUT_HEADER="1")
    with log.open("w") as out:
        proc = subprocess.Popen([*SERVE, "--port", str(port), *extra], env=env, stdout=out,
                                stderr=subprocess.STDOUT, cwd=home)
    deadline = time.monotonic() + ready_s
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text()
        try:
            if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    proc.terminate()
    raise AssertionError("sidecar not ready:\n" + log.read_text())


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.mark.e2e
@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_quickstart_serve_generates_its_secrets_once_and_guards_its_connections(tmp_path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    secrets = home / "secrets.env"
    port = free_port()
    # Secrets and connections only: the first-run gate has its own test (test_quickstart_gate).
    proc = start(home, port, tmp_path / "first.log", "--no-first-run-gate")
    try:
        url = f"http://127.0.0.1:{port}"
        assert httpx.get(f"{url}/healthz", headers={"Host": "evil.example"}).status_code == 400
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            s.settimeout(5)
            started = time.monotonic()
            assert s.recv(4096).startswith(b"HTTP/1.1 408")  # GUARDIAN_TIMEOUT_HEADER=1
            assert time.monotonic() - started < 4
        assert httpx.get(f"{url}/healthz").status_code == 200
    finally:
        stop(proc)
    first_log = (tmp_path / "first.log").read_text()
    assert stat.S_IMODE(secrets.stat().st_mode) == 0o600
    assert f"generated audit secrets GUARDIAN_AUDIT_SALT, GUARDIAN_AUDIT_CHECKPOINT_KEY into " \
           f"{secrets}" in first_log
    content = secrets.read_text()

    proc = start(home, port, tmp_path / "second.log", "--no-first-run-gate")
    stop(proc)
    second_log = (tmp_path / "second.log").read_text()
    assert "generated audit secrets" not in second_log
    assert f"salt from {secrets}" in second_log
    assert secrets.read_text() == content

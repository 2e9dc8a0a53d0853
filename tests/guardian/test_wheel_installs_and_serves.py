"""A regular install (a wheel, as a container image gets it) works without the checkout.

Built and installed for real: `pip wheel` of this tree, installed with `--target` into a
directory outside it, then a fresh interpreter started away from the checkout imports
guardian from there, reads the default policy, runs the migrations, and `guardian serve`
answers a completion in front of the bundled fake upstream. (Before `guardian.core.resources`,
an installed guardian looked for policies/ and migrations/ in site-packages and did not
start.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from guardian.devtools.benchmarks.proxy_bench import _port, _wait_ready

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.integration, pytest.mark.slow]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import fcntl

    tmp = tmp_path_factory.mktemp("install")
    wheels, site = tmp / "wheels", tmp / "site"
    # One build of this tree at a time: pytest-xdist workers each run this fixture, and two
    # `pip wheel` of one source tree collide in its build/ and *.egg-info directories.
    lock = tmp_path_factory.getbasetemp().parent / "wheel-build.lock"
    with open(lock, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                        "--no-build-isolation", "-q", "-w", str(wheels), str(ROOT)],
                       check=True, timeout=600, capture_output=True)
    (wheel,) = wheels.glob("spec_guardian-*.whl")
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(site), str(wheel)], check=True, timeout=300, capture_output=True)
    return site


def _env(site: Path, home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("GUARDIAN_") and k != "PYTHONPATH"}
    return {**env, "PYTHONPATH": str(site), "GUARDIAN_HOME": str(home)}


def test_installed_package_finds_its_data(installed: Path, tmp_path: Path) -> None:
    code = (
        "import guardian, guardian.core.resources as r\n"
        "from guardian.policy import load_policy\n"
        "from guardian.audit.migrate import upgrade\n"
        f"assert guardian.__file__.startswith({str(installed)!r}), guardian.__file__\n"
        "assert r.data_root().name == '_data', r.data_root()\n"
        "p = load_policy(r.data_path('policies', 'default.yaml'))\n"
        "upgrade('sqlite:///' + str(__import__('pathlib').Path.cwd() / 'g.db'))\n"
        "print('ok', sorted(p.routes))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300, env=_env(installed, tmp_path))
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.startswith("ok ")


def test_installed_sidecar_serves(installed: Path, tmp_path: Path) -> None:
    # In front of the bundled fake upstream (from the install too): no model to load, so
    # this checks the install, not the engine.
    env = {**_env(installed, tmp_path), "GUARDIAN_BACKEND": "upstream", "GUARDIAN_DEV_MODE": "1"}
    up_port, port = _port(), _port()  # the proxy bench's helpers: free port, wait until ready
    pool = {"url": f"http://127.0.0.1:{up_port}/v1", "model": "fake-target"}
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"routes": {"default": {
        "mode": "target_only", "shadow": {"sample_rate": 0.0},
        "upstream": {"speculative": pool, "target_only": pool}}}}))
    procs = []
    try:
        for cmd, url, name in (
                (["-m", "guardian.devtools.fake_upstream", "--port", str(up_port)],
                 f"http://127.0.0.1:{up_port}/v1/models", "fake"),
                (["-c", "from guardian.cli import main; main()", "serve", "--port", str(port)],
                 f"http://127.0.0.1:{port}/readyz", "serve")):
            log = tmp_path / f"{name}.log"
            with log.open("w") as out:
                procs.append(subprocess.Popen([sys.executable, *cmd], cwd=tmp_path, stdout=out,
                                              stderr=subprocess.STDOUT,
                                              env={**env, "GUARDIAN_POLICY_FILE": str(policy)}))
            _wait_ready(procs[-1], url, log)
        r = httpx.post(f"http://127.0.0.1:{port}/v1/completions", timeout=30, json={
            "model": "fake-target", "prompt": "hi", "max_tokens": 4, "temperature": 0})
        assert r.status_code == 200, r.text
        assert r.json()["choices"][0]["text"]
    finally:
        for proc in reversed(procs):
            proc.terminate()
            proc.wait(timeout=30)

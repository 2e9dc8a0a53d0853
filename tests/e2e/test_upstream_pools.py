"""Upstream pools with real processes: two `guardian serve` instances (one speculative, one
target-only) as a route's pools, the fault-injecting fake upstream, and two sidecar replicas
(GUARDIAN_BACKEND=upstream) sharing one audit database; the official `openai` client through
the sidecar, streaming and not; a rollback on one replica flips the pool on both."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import openai
import pytest
import yaml

from tests.support.servers import free_port
from tests.support.tiny_models import build_tokenizer, make_model, perturb, save

SERVE = [sys.executable, "-c", "from guardian.cli import main; main()", "serve"]
FAKE = [sys.executable, "-m", "guardian.devtools.fake_upstream"]
pytestmark = [pytest.mark.e2e, pytest.mark.integration, pytest.mark.slow,
              pytest.mark.timeout(600)]


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GUARDIAN_")}
    env.update(GUARDIAN_HOME=str(home), GUARDIAN_TORCH_THREADS="1", GUARDIAN_DEV_MODE="1",
               PYTHONPATH=str(Path(__file__).resolve().parents[2]), **extra)
    return env


def _start(cmd: list[str], env: dict[str, str], port: int, log: Path, ready: str,
           ) -> subprocess.Popen:
    with log.open("w") as out:
        proc = subprocess.Popen([*cmd, "--port", str(port)], env=env, stdout=out,
                                stderr=subprocess.STDOUT, cwd=env["GUARDIAN_HOME"])
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text()
        try:
            if httpx.get(f"http://127.0.0.1:{port}{ready}", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    proc.terminate()
    raise AssertionError(f"{cmd} not ready:\n{log.read_text()}")


def _policy(path: Path, routes: dict) -> Path:
    path.write_text(yaml.safe_dump({"version": 1, "default_route": "default",
                                    "routes": routes}))
    return path


def _route(mode: str, **extra: object) -> dict:
    return {"mode": mode, "shadow": {"sample_rate": 0.0}, "gate": {"require_report": False},
            **extra}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory) -> Iterator[dict]:
    root = tmp_path_factory.mktemp("pools")
    tok = build_tokenizer()
    target = make_model("llama", len(tok), 3, seed=1, eos_id=tok.eos_token_id)
    draft_dir = save(perturb(target, 0.05, seed=3), tok, root / "draft")
    target_dir = save(target, tok, root / "target")
    procs: list[subprocess.Popen] = []
    try:
        ports = {}
        for name, mode in (("spec", "speculative"), ("plain", "target_only")):
            home = root / name
            home.mkdir()
            policy = _policy(home / "policy.yaml", {"default": _route(mode)})
            ports[name] = free_port()
            # The depth cap pinned: chosen from step costs measured at start-up, a busy CI
            # machine can turn speculation off for this tiny pair (proposed_tokens 0).
            procs.append(_start(SERVE, _env(home, GUARDIAN_DRAFT_DIR=str(draft_dir),
                                            GUARDIAN_TARGET_DIR=str(target_dir),
                                            GUARDIAN_POLICY_FILE=str(policy),
                                            GUARDIAN_GAMMA_BY_BATCH='{"1": 4}'),
                                ports[name], root / f"{name}.log", "/readyz"))
        fake_home = root / "fake"
        fake_home.mkdir()
        ports["fake"] = free_port()
        procs.append(_start(FAKE, _env(fake_home), ports["fake"], root / "fake.log",
                            "/v1/models"))
        model = httpx.get(f"http://127.0.0.1:{ports['spec']}/v1/models").json()["data"][0]["id"]

        def pool(name: str, m: str = model) -> dict:
            return {"url": f"http://127.0.0.1:{ports[name]}/v1", "model": m,
                    "read_timeout_s": 60.0}

        side = root / "sidecar"
        side.mkdir()
        policy = _policy(side / "policy.yaml", {
            "default": _route("speculative", upstream={"speculative": pool("spec"),
                                                       "target_only": pool("plain")}),
            "failover": _route("speculative", models=["failover-model"], upstream={
                "speculative": pool("fake", "fault-500"), "target_only": pool("fake", "fake-x"),
                "failover": True}),
            "broken": _route("speculative", models=["broken-model"], upstream={
                "speculative": pool("fake", "fault-truncated"),
                "target_only": pool("fake", "fake-x")}),
        })
        env = dict(GUARDIAN_BACKEND="upstream", GUARDIAN_POLICY_FILE=str(policy),
                   GUARDIAN_DATABASE_URL=f"sqlite:///{side / 'audit.db'}")
        replicas = []
        for i in range(2):
            port = free_port()
            procs.append(_start(SERVE, _env(side, GUARDIAN_REPLICA_ID=f"r{i}", **env), port,
                                root / f"sidecar{i}.log", "/readyz"))
            replicas.append(f"http://127.0.0.1:{port}")
        yield {"replicas": replicas, "model": model, "ports": ports, "root": root}
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()


def _client(url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{url}/v1", api_key="unused-open-mode", max_retries=0)


def _pool_of(ext: dict) -> str:
    """Which guardian pool served it: its own `spec_guardian.served_path`, as relayed."""
    return ext["stats"]["upstream_spec"]["served_path"]


def test_openai_client_through_the_sidecar(cluster) -> None:
    client, model = _client(cluster["replicas"][0]), cluster["model"]
    out = client.completions.create(model=model, prompt="the cat", max_tokens=8,
                                    temperature=0, logprobs=2)
    choice = out.choices[0]
    assert choice.text and len(choice.logprobs.tokens) == len(choice.logprobs.token_logprobs)
    assert "".join(choice.logprobs.tokens) == choice.text
    assert all(len(top) <= 3 for top in choice.logprobs.top_logprobs)
    ext = out.model_extra["spec_guardian"]
    assert ext["served_path"] == "speculative"
    assert _pool_of(ext) == "speculative" and ext["stats"]["upstream_pool"] == "speculative"
    assert "upstream_url" not in ext["stats"]
    # the speculative pool's own per-request counters reach the sidecar's audit stats
    assert ext["stats"]["upstream_spec"]["proposed_tokens"] > 0
    assert ext["stats"]["proposed_tokens"] == ext["stats"]["upstream_spec"]["proposed_tokens"]

    text = []
    stream = client.chat.completions.create(
        model=model, messages=[{"role": "user", "content": "hello"}], max_tokens=6,
        stream=True, logprobs=True, top_logprobs=1)
    for chunk in stream:
        if chunk.choices and chunk.choices[0].delta.content:
            text.append(chunk.choices[0].delta.content)
            assert chunk.choices[0].logprobs.content
    assert "".join(text)
    plain = client.chat.completions.create(
        model=model, messages=[{"role": "user", "content": "hello"}], max_tokens=6)
    assert plain.choices[0].logprobs is None  # the audit's top-2 never reaches the client


def test_faults_through_the_client(cluster) -> None:
    client = _client(cluster["replicas"][1])
    out = client.chat.completions.create(
        model="failover-model", messages=[{"role": "user", "content": "x"}], max_tokens=3)
    ext = out.model_extra["spec_guardian"]
    assert ext["served_path"] == "target_only"
    assert ext["fallback_reason"].startswith("speculative_error: UpstreamError")
    with pytest.raises(openai.APIStatusError) as info:
        client.completions.create(model="broken-model", prompt="x", max_tokens=6)
    assert info.value.status_code == 502
    assert "upstream" in info.value.message and "request cmpl-" in info.value.message


def test_a_rollback_flips_the_pool_on_every_replica(cluster) -> None:
    r0, r1 = cluster["replicas"]
    model = cluster["model"]

    def served_by(url: str) -> str:
        out = _client(url).completions.create(model=model, prompt="a", max_tokens=2,
                                              temperature=0)
        return _pool_of(out.model_extra["spec_guardian"])

    assert served_by(r0) == served_by(r1) == "speculative"
    r = httpx.post(f"{r0}/admin/routes/default/rollback", json={"reason": "e2e"})
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 10
    while served_by(r1) != "target_only":  # the other replica follows within ~1 s
        assert time.monotonic() < deadline, "replica r1 still serves the speculative pool"
        time.sleep(0.3)
    assert served_by(r0) == "target_only"

"""A llama.cpp deployment governed end to end, as docs/guides/llamacpp.md runs it: three real
llama.cpp servers (xllamacpp's llama-server on SmolLM2-135M GGUF: target-only, n-gram
speculative, and a perturbed copy of the GGUF), the real `guardian serve` process
(GUARDIAN_BACKEND=upstream, policies/examples/llamacpp.yaml), the official `openai`
client, the `guardian` CLI (gate, audit show, audit verify) and the dashboard's pages.

The `chat` route (policies/examples/llamacpp.yaml) asks for a gate report: it serves
target-only until `guardian gate --upstream` passes, then speculatively. The `broken` route's
speculative pool changes outputs; its shadow divergences roll it back by the divergence
trigger alone."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
import yaml

from tests.support.llamacpp import (
    MODEL,
    LlamaServer,
    ensure_gguf,
    free_port,
    governed_route,
    perturbed_copy,
    skip_reason,
)

pytestmark = [pytest.mark.e2e, pytest.mark.integration, pytest.mark.slow,
              pytest.mark.timeout(900)]

EXAMPLE = Path(__file__).resolve().parents[2] / "policies" / "examples" / "llamacpp.yaml"
CLI = [sys.executable, "-c", "from guardian.cli import main; main()"]
REPEATING = "1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3,"
PROSE = ["Once upon a time", "The capital of France is", "Write a haiku about the sea.",
         "The best way to learn a language is", "My favourite food is"]


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GUARDIAN_")}
    env.update(GUARDIAN_HOME=str(home), GUARDIAN_DEV_MODE="1",
               PYTHONPATH=str(Path(__file__).resolve().parents[2]), **extra)
    return env


@pytest.fixture(scope="module")
def deployment(tmp_path_factory) -> Iterator[dict]:
    if (why := skip_reason()) is not None:
        pytest.skip(why)
    root = tmp_path_factory.mktemp("llamacpp-e2e")
    gguf = ensure_gguf()
    assert gguf is not None
    servers = {"plain": LlamaServer(gguf, root / "plain.log"),
               "spec": LlamaServer(gguf, root / "spec.log", spec="ngram-mod"),
               "perturbed": LlamaServer(perturbed_copy(gguf, root / "perturbed.gguf"),
                                        root / "perturbed.log")}
    side = root / "sidecar"
    side.mkdir()
    # The guide's policy as shipped, pointed at these pools; the gate's speed floor off (a
    # timing on 2 shared cores is no speed evidence) and a `broken` route added.
    doc = yaml.safe_load(EXAMPLE.read_text())
    chat = doc["routes"]["chat"]
    chat["upstream"]["speculative"]["url"] = servers["spec"].url
    chat["upstream"]["target_only"]["url"] = servers["plain"].url
    chat["shadow"]["sample_rate"] = 0.0
    chat["gate"].update(min_speedup=0.0, max_new_tokens=12)
    doc["routes"]["broken"] = governed_route(servers["perturbed"], servers["plain"],
                                             models=["broken"])
    policy = side / "policy.yaml"
    policy.write_text(yaml.safe_dump(doc))
    url = f"sqlite:///{side / 'audit.db'}"
    env = _env(side, GUARDIAN_BACKEND="upstream", GUARDIAN_POLICY_FILE=str(policy),
               GUARDIAN_DATABASE_URL=url)
    port = free_port()
    log = root / "sidecar.log"
    proc = None
    try:
        for s in servers.values():
            s.wait_ready()
        with log.open("w") as out:
            proc = subprocess.Popen([*CLI, "serve", "--port", str(port)], env=env, stdout=out,
                                    stderr=subprocess.STDOUT, cwd=side)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.3)
        yield {"base": base, "env": env, "url": url, "policy": policy, "home": side,
               "client": openai.OpenAI(base_url=f"{base}/v1", api_key="open-mode",
                                       max_retries=0, timeout=120)}
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        for s in servers.values():
            s.stop()


def _cli(deployment: dict, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], env=deployment["env"], cwd=deployment["home"],
                          capture_output=True, text=True, timeout=timeout)


def _mode(deployment: dict, route: str) -> str:
    routes = httpx.get(f"{deployment['base']}/admin/routes").json()["routes"]
    return next(r["mode"] for r in routes if r["route"] == route)


def test_openai_client_completions_chat_streaming_and_logprobs(deployment) -> None:
    client = deployment["client"]
    out = client.completions.create(model=MODEL, prompt=PROSE[1], max_tokens=8, temperature=0,
                                    logprobs=2)
    choice = out.choices[0]
    assert choice.text and "".join(choice.logprobs.tokens) == choice.text
    assert all(lp <= 0 for lp in choice.logprobs.token_logprobs)
    assert out.usage.prompt_tokens > 0 and out.usage.completion_tokens == 8
    ext = out.model_extra["spec_guardian"]
    # ungated: the policy's `speculative` waits for a gate report; the target-only pool serves
    assert ext["served_path"] == "target_only" and ext["stats"]["upstream_pool"] == "target_only"

    chat = client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "Say hello."}], max_tokens=8,
        temperature=0, logprobs=True, top_logprobs=2)
    assert chat.choices[0].message.content
    assert len(chat.choices[0].logprobs.content) == chat.usage.completion_tokens
    assert chat.usage.prompt_tokens > 0

    text, usage = [], None
    for chunk in client.chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "Count to five."}],
            max_tokens=8, temperature=0, stream=True, stream_options={"include_usage": True}):
        if chunk.choices and chunk.choices[0].delta.content:
            text.append(chunk.choices[0].delta.content)
        if chunk.usage is not None:
            usage = chunk.usage
    assert "".join(text) and usage is not None and usage.prompt_tokens > 0


def _gated(deployment) -> Any:
    """Gate the pools once per deployment (each xdist worker has its own) and wait until the
    route speculates -> (the gate's CLI run, the first speculative answer)."""
    if "gated" not in deployment:
        golden = deployment["home"] / "golden.jsonl"
        golden.write_text('{"id": "count", "prompt": "1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3,"}\n'
                          '{"id": "abc", "prompt": "a b c d a b c d a b c"}\n'
                          '{"id": "paris", "prompt": "The capital of France is"}\n')
        gate = _cli(deployment, "gate", "--upstream", "--policy", str(deployment["policy"]),
                    "--golden", str(golden), "--report-dir", str(deployment["home"] / "reports"))
        assert gate.returncode == 0, gate.stdout + gate.stderr
        deadline = time.monotonic() + 30
        client = deployment["client"]
        while True:  # the resolver re-checks gated routes on its refresh
            out = client.completions.create(model=MODEL, prompt=REPEATING, max_tokens=12,
                                            temperature=0)
            if out.model_extra["spec_guardian"]["served_path"] == "speculative":
                break
            assert time.monotonic() < deadline, "the gated route never speculated"
            time.sleep(0.5)
        deployment["gated"] = (gate, out)
    return deployment["gated"]


def test_a_gate_run_on_the_pools_lets_the_route_speculate(deployment) -> None:
    gate, out = _gated(deployment)
    assert "gate PASS" in gate.stdout
    stats = out.model_extra["spec_guardian"]["stats"]
    assert stats["upstream_pool"] == "speculative"
    assert stats["proposed_tokens"] == stats["upstream_timings"]["draft_n"] > 0


def test_openai_client_gets_the_request_surface_through_the_real_pool(deployment) -> None:
    """Issue 41's done-when, upstream half, on the gated (speculative) route: json_schema
    answers that validate, penalties + logit_bias + n=3 + seed, and the pool's own tool
    calls: llama.cpp (--jinja, SmolLM2's template with the tools branch of
    guardian.devtools.llamacpp_tools) answers `tool_calls` under tool_choice "required",
    and the sidecar hands them to the client as the pool answered, unstreamed and
    streamed. One example call in the history makes the 135M model call at once (without
    it, it writes prose); the call's arguments are held by llama.cpp's grammar to the
    tool's parameters."""
    import json

    import jsonschema

    _gated(deployment)  # the route speculates (under xdist the gate test may run elsewhere)
    client = deployment["client"]
    schema = {"type": "object", "additionalProperties": False, "required": ["name", "age"],
              "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}}
    out = client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "Give a person as JSON."}],
        response_format={"type": "json_schema", "json_schema": {"name": "p", "schema": schema}},
        max_tokens=48, temperature=0)
    assert out.choices[0].finish_reason == "stop"
    jsonschema.validate(json.loads(out.choices[0].message.content), schema)
    assert out.model_extra["spec_guardian"]["served_path"] == "speculative"
    sampled = dict(model=MODEL, messages=[{"role": "user", "content": "Say hi."}],
                   max_tokens=8, n=3, seed=4, temperature=0.8, presence_penalty=0.5,
                   frequency_penalty=0.5, logit_bias={"28": 2})
    first = client.chat.completions.create(**sampled)
    assert [c.index for c in first.choices] == [0, 1, 2]
    assert all(c.message.content for c in first.choices)
    again = client.chat.completions.create(**sampled)
    assert [c.message.content for c in again.choices] == [c.message.content
                                                          for c in first.choices]
    parameters = {"type": "object", "properties": {"city": {"type": "string"}},
                  "required": ["city"], "additionalProperties": False}
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": parameters}}]
    example = {"id": "call_1", "type": "function",
               "function": {"name": "get_weather", "arguments": '{"city": "London"}'}}
    asked = dict(model=MODEL, tools=tools, tool_choice="required", max_tokens=48, temperature=0,
                 messages=[{"role": "user", "content": "Weather in London?"},
                           {"role": "assistant", "content": None, "tool_calls": [example]},
                           {"role": "tool", "tool_call_id": "call_1", "content": "rain, 12 C"},
                           {"role": "user", "content": "Weather in Paris?"}])
    answer = client.chat.completions.create(**asked)
    choice = answer.choices[0]
    assert choice.finish_reason == "tool_calls", choice
    assert choice.message.tool_calls and len(choice.message.tool_calls) == 1, choice.message
    call = choice.message.tool_calls[0]
    assert call.type == "function" and call.id
    assert call.function.name == "get_weather"
    arguments = json.loads(call.function.arguments)
    jsonschema.validate(arguments, parameters)
    assert answer.model_extra["spec_guardian"]["served_path"] == "speculative"

    streamed = client.chat.completions.create(**asked, stream=True)
    calls: dict[int, dict[str, str]] = {}
    finish = None
    for chunk in streamed:
        if not chunk.choices:
            continue
        for piece in chunk.choices[0].delta.tool_calls or []:
            got = calls.setdefault(piece.index, {"name": "", "arguments": ""})
            got["name"] += (piece.function and piece.function.name) or ""
            got["arguments"] += (piece.function and piece.function.arguments) or ""
        finish = chunk.choices[0].finish_reason or finish
    assert finish == "tool_calls"
    assert list(calls) == [0] and calls[0]["name"] == "get_weather"
    assert json.loads(calls[0]["arguments"]) == arguments


def test_a_pool_that_changes_outputs_is_rolled_back_and_the_trail_shows_why(
        deployment, open_page) -> None:
    client = deployment["client"]
    ids = []
    for prompt in PROSE:
        out = client.completions.create(model="broken", prompt=prompt, max_tokens=12,
                                        temperature=0)
        ids.append(out.id)
    deadline = time.monotonic() + 120
    while _mode(deployment, "broken") != "target_only":
        assert time.monotonic() < deadline, "the broken route was not rolled back"
        time.sleep(0.5)
    analysis = httpx.get(f"{deployment['base']}/v1/analysis/broken").json()
    assert analysis["verdict"] == "fail" and analysis["rolled_back"]
    assert "trigger:divergence" in analysis["reason"] or "divergence" in analysis["reason"]
    metrics = httpx.get(f"{deployment['base']}/metrics").text
    assert any('verdict="divergence"' in ln and 'route="broken"' in ln
               for ln in metrics.splitlines() if ln.startswith("guardian_shadow_verdicts"))
    after = client.completions.create(model="broken", prompt=PROSE[0], max_tokens=4,
                                      temperature=0)
    assert after.model_extra["spec_guardian"]["served_path"] == "target_only"

    # the trail: a divergence verdict on a served request, the rollback act, and the chain
    shown = [_cli(deployment, "audit", "show", rid) for rid in ids]
    assert all(s.returncode == 0 for s in shown), [s.stderr for s in shown]
    assert any("divergence" in s.stdout for s in shown)
    assert all("came from an upstream pool" in s.stdout for s in shown)
    verify = _cli(deployment, "audit", "verify")
    assert verify.returncode == 0, verify.stdout + verify.stderr

    # the dashboard says why: the incident names the trigger that fired
    at = open_page(deployment["url"], "overview")
    warnings = [w.value for w in at.warning]
    assert any("broken" in w and "divergence" in w for w in warnings), warnings
    executive = open_page(deployment["url"], "executive")
    m4 = next(m.value for m in executive.metric if m.label == "M4 target forwards / request")
    assert m4 != "—" and float(m4) > 0  # llama.cpp's timings give every answer's forwards

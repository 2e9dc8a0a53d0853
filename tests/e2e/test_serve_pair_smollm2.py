"""The quickstart with the real model, as the README's first screen runs it: `guardian serve
--pair smollm2` as a real process on a fresh home (the recipe's pair reused, not rebuilt), its
first-run gate on policies/golden/smollm2-edit.jsonl, then the official `openai` client. The
`edit` route serves speculatively (prompt lookup) once that gate passes and says the same as
the target-only `chat` route; `guardian audit show` and `verify` read what it recorded."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import openai
import pytest

from engine.recipes import smollm2
from engine.recipes.fetch import FetchError
from tests.e2e.test_quickstart_serve import stop
from tests.support.servers import free_port

pytestmark = [pytest.mark.e2e, pytest.mark.integration, pytest.mark.slow,
              pytest.mark.timeout(1800),
              # its first-run gate times the pair: never beside test_quickstart_gate's
              pytest.mark.xdist_group("first-run-gates")]

CLI = [sys.executable, "-c", "from guardian.cli import main; main()"]
EDIT = ("Rename the variable n to count in this code:\n\nn = 0\nfor line in lines:\n"
        "    n += 1\nprint(n)")


@pytest.fixture(scope="module")
def sidecar(tmp_path_factory) -> Iterator[dict]:
    built_home = Path(os.environ.get("GUARDIAN_HOME", "~/.cache/spec-guardian")).expanduser()
    try:
        built = smollm2.ensure_pair(built_home, progress=False)  # CI's slow stage builds it
    except FetchError as exc:
        pytest.skip(f"cannot fetch the SmolLM2 GGUF: {exc}")
    home = tmp_path_factory.mktemp("smollm2-quickstart")
    (home / "pairs" / smollm2.NAME).mkdir(parents=True)
    (home / "pairs" / smollm2.NAME / smollm2.BUILD_VERSION).symlink_to(built.root)
    if (built_home / "step-costs").is_dir():  # measured once per pair and machine
        shutil.copytree(built_home / "step-costs", home / "step-costs")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GUARDIAN_")}
    env.update(GUARDIAN_HOME=str(home), PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    port = free_port()
    log = home / "serve.log"
    with log.open("w") as out:
        proc = subprocess.Popen([*CLI, "serve", "--pair", "smollm2", "--port", str(port)],
                                env=env, stdout=out, stderr=subprocess.STDOUT, cwd=home)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 1500  # step costs (~3 min, once) and the gate (~3 min)
        while True:
            assert proc.poll() is None, log.read_text()[-4000:]
            try:
                if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, log.read_text()[-4000:]
            time.sleep(1)
        yield {"base": base, "env": env, "home": home, "log": log,
               "client": openai.OpenAI(base_url=f"{base}/v1", api_key="open-mode",
                                       max_retries=0, timeout=300)}
    finally:
        stop(proc)


def _ask(client: openai.OpenAI, model: str, content: str, **kw):  # -> ChatCompletion
    return client.chat.completions.create(model=model, messages=[
        {"role": "user", "content": content}], max_tokens=48, temperature=0, **kw)


def test_the_first_start_gates_the_edit_route_and_it_speculates(sidecar) -> None:
    text = sidecar["log"].read_text()
    assert "golden set smollm2-edit.jsonl" in text
    assert "gate passed" in text and "route(s) edit serve speculatively" in text, text[-3000:]
    edit = _ask(sidecar["client"], "edit", EDIT)
    meta = edit.model_extra["spec_guardian"]
    assert (meta["route"], meta["served_path"]) == ("edit", "speculative")
    assert meta["speculation"]["method"] == "ngram" and meta["stats"]["accepted"] > 0
    # the target-only route says the same, token for token (greedy is lossless)
    chat = _ask(sidecar["client"], "chat", EDIT)
    assert chat.model_extra["spec_guardian"]["served_path"] == "target_only"
    assert edit.choices[0].message.content == chat.choices[0].message.content
    streamed = "".join(c.choices[0].delta.content or "" for c in _ask(
        sidecar["client"], "edit", EDIT, stream=True) if c.choices)
    assert streamed == edit.choices[0].message.content


def test_the_chat_route_answers_sensibly_and_the_audit_verifies(sidecar) -> None:
    answer = _ask(sidecar["client"], "chat", "What is the capital of France?")
    assert "Paris" in answer.choices[0].message.content
    rid = answer.model_extra["spec_guardian"]["request_id"]
    run = {"env": sidecar["env"], "cwd": sidecar["home"], "capture_output": True,
           "text": True, "timeout": 300}
    for _ in range(50):  # the audit writer flushes in the background
        shown = subprocess.run([*CLI, "audit", "show", rid], **run)
        if shown.returncode == 0:
            break
        time.sleep(0.2)
    assert shown.returncode == 0 and "route chat" in shown.stdout, shown.stdout + shown.stderr
    verified = subprocess.run([*CLI, "audit", "verify"], **run)
    assert verified.returncode == 0, verified.stdout + verified.stderr

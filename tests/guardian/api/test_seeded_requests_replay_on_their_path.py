"""The shadow's `seed_replay` check on the local engine (a tiny real pair, both cores).

A judged sampled request with a seed is run again with its seed on the path that served it;
the tokens must repeat. A seed the engine ignores (the fault TensorRT-LLM shipped,
NVIDIA/TensorRT-LLM#19487) passes every distribution check - each token is still drawn from
p - and only this check sees it. Clean seeded traffic must never trip it.
"""

from __future__ import annotations

from guardian.audit.events import ShadowEvent
from tests.faults.continuous_faults import cb_seed_ignored
from tests.faults.faults import seed_ignored
from tests.support.api import auth
from tests.support.fakes import ListSink


def _body(local_backend, seed: int | None, **kw: object) -> dict:
    out = {"model": local_backend.model_name, "prompt": "def fibonacci(n):", "max_tokens": 24,
           "temperature": 0.9, "top_p": 0.95, **kw}
    if seed is not None:
        out["seed"] = seed
    return out


def _verdict(client, sink: ListSink, body: dict) -> ShadowEvent:
    got = client.post("/v1/completions", headers=auth(), json=body)
    assert got.status_code == 200, got.text
    return sink.first(ShadowEvent, got.json()["id"], timeout_s=60)


def test_seeded_requests_repeat_on_their_path_and_pass(make_local, local_backend) -> None:
    for mode in ("speculative", "target_only"):
        client, sink = make_local(mode, sample_rate=1.0)
        for seed in range(3):
            event = _verdict(client, sink, _body(local_backend, seed))
            assert event.verdict == "distribution_ok", (mode, seed, event.stats)
            replay = event.stats["seed_replay"]
            assert replay["path"] == mode and replay["compared_tokens"] > 0
    # an unseeded request has nothing to replay
    event = _verdict(client, sink, _body(local_backend, None))
    assert "seed_replay" not in event.stats


def test_a_seeded_request_says_its_depth_was_pinned(make_local, local_backend) -> None:
    client, _ = make_local("speculative")
    body = client.post("/v1/completions", headers=auth(), json=_body(local_backend, 7)).json()
    assert body["spec_guardian"]["speculation"]["depth"]["pinned"] is True
    unseeded = client.post("/v1/completions", headers=auth(),
                           json=_body(local_backend, None)).json()
    assert "pinned" not in unseeded["spec_guardian"]["speculation"]["depth"]


def test_an_ignored_seed_is_a_seed_replay_divergence(make_local, local_backend) -> None:
    fault = cb_seed_ignored if local_backend.batcher is not None else seed_ignored
    client, sink = make_local("speculative", sample_rate=1.0)
    with fault():
        event = _verdict(client, sink, _body(local_backend, 11))
    assert event.verdict == "divergence", event.stats
    assert event.stats["failed_check"] == "seed_replay"
    assert event.first_divergence_position is not None
    # every distribution check passed: without the replay this fault is invisible
    assert event.stats["max_tv"] < 1e-5

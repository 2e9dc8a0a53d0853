"""Attacker / SRE sweep of continuous batching and admission control.

Each test pins one defect found by the sweep (it failed before the fix next to it):
- a request cancelled while it waits for a batch row leaves within one engine step (its route
  slot and worker are freed and it is audited), not when a row finally frees up;
- the engine thread never dies silently: a fault outside a step fails the rows it holds (no
  caller hangs forever) and later submits are refused at once;
- a serving task cancelled while its job still waits for a worker releases its route slot and
  the shadow's idle gate (never a permanently full route);
- a generation that finishes just after its deadline's 504 is still audited;
- the shadow run of a request that carried a deadline is not refused as past it;
- a dead engine thread is a 503 `engine_unavailable`, never a 500, and frees the route;
- a client that hangs up while queued (streaming or not) is audited and freed within a step;
- a stream's slot taken by `precheck` is given back if `serve` fails before it starts;
- requests cancelled before they ran do not drag the Retry-After estimate down.
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from engine.batching import BatchScheduler, EngineUnavailable
from engine.continuous import SequenceRequest
from engine.loadaware import LoadAwareGamma
from engine.sampling import SamplingParams
from guardian.audit.events import RequestEvent
from guardian.backends.local import LocalEngineBackend
from guardian.observability.telemetry import Telemetry
from guardian.policy import Policy, RoutePolicy, ShadowPolicy
from guardian.serving.admission import Cancelled
from guardian.serving.core import GenerationRequest, ServingCore, ServingError
from tests.support.fakes import FakeBackend, ListSink
from tests.support.tiny_models import save_tiny_pair


@pytest.fixture(scope="module")
def dirs(tmp_path_factory) -> tuple[Path, Path]:
    return save_tiny_pair(tmp_path_factory.mktemp("pair"))


@pytest.fixture(scope="module")
def backend(dirs):
    # One row: a second request must wait for it.
    b = LocalEngineBackend.load(*dirs, device="cpu", batching=True, max_batch=1,
                                gamma_by_batch={1: 2})
    yield b
    b.shutdown()


def _slow(delay_s: float):
    def on_text(delta: str, traces: list) -> None:
        time.sleep(delay_s)  # on the engine thread: each step takes at least this long
    return on_text


def _seq_req(backend: LocalEngineBackend, max_new: int, on_text=None, speculative=False):
    from engine.controllers import make_controller

    return SequenceRequest(prompt=backend.encode("the quick"), params=SamplingParams(),
                           max_new_tokens=max_new, speculative=speculative,
                           controller=make_controller("constant", 2, 4) if speculative else None,
                           on_text=on_text)


def test_a_request_cancelled_while_waiting_for_a_row_leaves_within_a_step(backend):
    batcher: BatchScheduler = backend.batcher
    # The only row is busy for ~60 steps x 20 ms.
    long = batcher.submit(_seq_req(backend, 60, _slow(0.02)))
    gone = threading.Event()

    def check() -> None:
        if gone.is_set():
            raise Cancelled("client_disconnected")

    t0 = time.monotonic()
    while batcher.waiting or not batcher.batch_size:  # `long` holds the row
        assert time.monotonic() - t0 < 5
        time.sleep(0.01)
    waiting = batcher.submit(_seq_req(backend, 8), check)
    time.sleep(0.1)
    assert batcher.waiting == 1
    gone.set()
    t0 = time.monotonic()
    with pytest.raises(Cancelled):
        waiting.result(timeout=0.5)  # a few steps at most, not the whole long request
    assert time.monotonic() - t0 < 0.5
    assert not long.done()  # it really was still holding the row
    assert batcher.waiting == 0
    long.result(timeout=30)


class _BrokenCap(LoadAwareGamma):
    """A depth-cap model whose learning step has a bug."""

    def observe(self, *args, **kwargs) -> None:  # type: ignore[override]
        raise RuntimeError("bug in the cap model")


def test_a_fault_outside_a_step_never_leaves_callers_hanging(dirs):
    batcher = BatchScheduler(LocalEngineBackend.load(*dirs, device="cpu").pair, max_batch=2,
                             gamma=_BrokenCap(fixed={1: 2}))
    try:
        b = LocalEngineBackend.__new__(LocalEngineBackend)
        b.pair = batcher.pair
        req = _seq_req(b, 6, speculative=True)
        # A learning fault is logged and serving goes on: the request is answered...
        seq = batcher.submit(req).result(timeout=10)
        assert seq.completion.token_ids
        # ...and so is the next one (the engine thread is still alive).
        assert batcher.submit(_seq_req(b, 4, speculative=True)).result(timeout=10)
        assert batcher.alive
    finally:
        batcher.shutdown()


def test_an_engine_thread_that_dies_fails_its_callers_and_refuses_new_ones(dirs, monkeypatch):
    batcher = BatchScheduler(LocalEngineBackend.load(*dirs, device="cpu").pair, max_batch=2,
                             gamma=LoadAwareGamma(fixed={1: 0}))
    b = LocalEngineBackend.__new__(LocalEngineBackend)
    b.pair = batcher.pair
    try:
        def fatal(*a, **k):
            raise SystemExit("something tore the engine thread down")

        monkeypatch.setattr(batcher, "_join", fatal)
        fut = batcher.submit(_seq_req(b, 4))
        with pytest.raises(EngineUnavailable, match="engine thread"):
            fut.result(timeout=5)  # before: never resolved, its caller hung forever
        batcher._thread.join(5)
        assert not batcher.alive
        with pytest.raises(EngineUnavailable, match="engine thread"):
            batcher.submit(_seq_req(b, 4))
    finally:
        batcher.shutdown()


# --- the serving core's slots ---------------------------------------------------------------
def _core(backend, sink) -> ServingCore:
    pol = Policy(routes={"default": RoutePolicy(mode="target_only", max_queue=4,
                                                shadow=ShadowPolicy(sample_rate=0.0))})
    return ServingCore(backend, pol, sink, Telemetry())


def _greq(prompt: str = "hello", max_tokens: int = 20) -> GenerationRequest:
    return GenerationRequest(endpoint="completions", route="default", model="fake-target",
                             prompt_text=prompt, prompt_ids=[ord(c) for c in prompt],
                             max_tokens=max_tokens)


def test_a_cancelled_serving_task_whose_job_never_started_releases_its_slot():
    fake, sink = FakeBackend(step_s=0.01), ListSink()
    core = _core(fake, sink)  # one worker: the second job waits for it

    async def main() -> None:
        first = asyncio.ensure_future(core.serve(_greq(max_tokens=30)))
        await asyncio.sleep(0.05)
        queued = _greq()
        second = asyncio.ensure_future(core.serve(queued))
        await asyncio.sleep(0.02)
        second.cancel()  # e.g. the server cancels the handler: its job has not started
        with pytest.raises(asyncio.CancelledError):
            await second
        await first
        deadline = time.monotonic() + 5
        while core.admission.in_flight("default") and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert core.admission.in_flight("default") == 0  # before: 1 forever
        assert core.idle.is_set() and core.queue_depth == 0
        (ev,) = [e for e in sink.of(RequestEvent) if e.request_id == queued.request_id]
        assert ev.finish_reason == "cancelled"

    try:
        asyncio.run(main())
    finally:
        core.shutdown()


class _SlowFinish(FakeBackend):
    """The last step's text is out (its cancellation check passed) but finishing the result
    takes a while: a long prompt's final scoring, a slow host copy."""

    def generate(self, request, on_text=None):  # type: ignore[no-untyped-def]
        result = super().generate(request, on_text)
        time.sleep(0.3)
        return result


def test_a_generation_that_finishes_after_its_deadline_answer_is_still_audited():
    sink = ListSink()
    core = _core(_SlowFinish(), sink)

    async def main() -> str:
        req = _greq(max_tokens=5)
        req.cancel.deadline = time.monotonic() + 0.1
        with pytest.raises(ServingError) as err:
            await core.serve(req)
        assert err.value.status == 504 and err.value.code == "deadline_exceeded"
        return req.request_id

    try:
        rid = asyncio.run(main())
        deadline = time.monotonic() + 5
        while not sink.of(RequestEvent) and time.monotonic() < deadline:
            time.sleep(0.01)
        (ev,) = sink.of(RequestEvent)  # before: none at all (an unaudited generation)
        assert ev.request_id == rid and ev.finish_reason == "cancelled"
        assert ev.stats == {"cancelled": "deadline_exceeded"}
        assert ev.completion_token_ids  # what it had generated
        assert core.admission.in_flight() == 0
    finally:
        core.shutdown()


def test_a_served_request_with_a_deadline_still_gets_its_shadow_verdict(dirs):
    # The deadline bounds the client's answer, not the offline shadow run on the same
    # request: before, the shadow's row inherited the request's token and, started after the
    # deadline, was refused as "deadline_exceeded" (no verdict for any request that had sent
    # X-Guardian-Deadline-Ms).
    from guardian.app import build_services, close_services
    from guardian.audit.events import ShadowEvent

    backend = LocalEngineBackend.load(*dirs, device="cpu", batching=True, max_batch=2,
                                      gamma_by_batch={1: 2})
    sink = ListSink()
    pol = Policy(routes={"default": RoutePolicy(mode="target_only",
                                                shadow=ShadowPolicy(sample_rate=1.0))})
    services = build_services(backend, sink, policy=pol, start_shadow=False)
    try:
        req = GenerationRequest(endpoint="completions", route="default",
                                model=backend.model_name, prompt_text="the quick",
                                prompt_ids=backend.encode("the quick"), max_tokens=6)
        req.cancel.deadline = time.monotonic() + 0.5
        served = asyncio.run(services.core.serve(req))
        assert served.result.token_ids
        time.sleep(max(0.0, req.cancel.deadline - time.monotonic()) + 0.05)
        services.shadow.start()  # the shadow gets to it only after the deadline
        deadline = time.monotonic() + 10
        while not sink.of(ShadowEvent) and time.monotonic() < deadline:
            time.sleep(0.02)
        (ev,) = sink.of(ShadowEvent)
        assert ev.verdict == "match", (ev.verdict, ev.stats)
    finally:
        close_services(services)


def test_a_dead_engine_thread_answers_503_not_500_and_frees_the_route(dirs, monkeypatch):
    from fastapi.testclient import TestClient

    from guardian.app import build_services, close_services, create_app
    from tests.support.api import auth, keystore

    backend = LocalEngineBackend.load(*dirs, device="cpu", batching=True, max_batch=2,
                                      gamma_by_batch={1: 2})
    pol = Policy(routes={"default": RoutePolicy(mode="speculative", max_queue=2,
                                                shadow=ShadowPolicy(sample_rate=0.0))})
    services = build_services(backend, ListSink(), policy=pol, keys=keystore())
    client = TestClient(create_app(services=services), raise_server_exceptions=False)
    body = {"model": backend.model_name, "prompt": "the quick", "max_tokens": 4}
    try:
        assert client.post("/v1/completions", json=body, headers=auth()).status_code == 200

        def fatal(*a, **k):
            raise SystemExit("engine thread torn down")

        monkeypatch.setattr(backend.batcher, "_join", fatal)
        for _ in range(3):  # more than max_queue: no slot may leak
            r = client.post("/v1/completions", json=body, headers=auth())
            assert r.status_code == 503, r.text
            err = r.json()["error"]
            assert err["code"] == "engine_unavailable" and "Traceback" not in r.text
        assert services.core.admission.in_flight() == 0 and services.core.idle.is_set()
        assert not backend.batcher.alive
    finally:
        close_services(services)


@pytest.mark.parametrize("streaming", [True, False])
def test_a_client_that_hangs_up_while_queued_is_audited_and_freed_within_a_step(
        dirs, monkeypatch, streaming):
    import concurrent.futures

    import httpx

    from guardian.app import build_services, close_services, create_app
    from tests.support.api import auth, keystore
    from tests.support.servers import serve

    backend = LocalEngineBackend.load(*dirs, device="cpu", batching=True, max_batch=1,
                                      gamma_by_batch={1: 0})
    engine = backend.batcher._engine
    real_step = engine.step

    def slow_step():
        time.sleep(0.02)
        return real_step()

    monkeypatch.setattr(engine, "step", slow_step)  # the only row is busy for seconds
    sink = ListSink()
    pol = Policy(routes={"default": RoutePolicy(mode="target_only", max_queue=2,
                                                shadow=ShadowPolicy(sample_rate=0.0))})
    services = build_services(backend, sink, policy=pol, keys=keystore())
    app = create_app(services=services)
    body = {"model": backend.model_name, "prompt": "the quick", "temperature": 0}
    try:
        with serve(app) as url, concurrent.futures.ThreadPoolExecutor(2) as pool:
            long = pool.submit(httpx.post, f"{url}/v1/completions", headers=auth(), timeout=60,
                               json={**body, "max_tokens": 150})
            deadline = time.monotonic() + 10
            while backend.batcher.batch_size < 1 and time.monotonic() < deadline:
                time.sleep(0.01)
            if streaming:
                with httpx.stream("POST", f"{url}/v1/completions", headers=auth(), timeout=60,
                                  json={**body, "max_tokens": 20, "stream": True}) as r:
                    assert r.status_code == 200
                    t0 = time.monotonic()
                    while backend.batcher.waiting < 1:
                        assert time.monotonic() - t0 < 5
                        time.sleep(0.01)
            else:
                with pytest.raises(httpx.TimeoutException):  # the client gives up, queued
                    httpx.post(f"{url}/v1/completions", headers=auth(), json={
                        **body, "max_tokens": 20}, timeout=0.5)
            hung_up = time.monotonic()
            while not [e for e in sink.of(RequestEvent) if e.finish_reason == "cancelled"]:
                assert time.monotonic() - hung_up < 1.5, "still queued behind the long row"
                time.sleep(0.01)
            assert not long.done()  # the row it waited for is still busy
            assert services.core.admission.in_flight() == 1  # only the long one holds a slot
            assert long.result().status_code == 200
    finally:
        close_services(services)
    (ev,) = [e for e in sink.of(RequestEvent) if e.finish_reason == "cancelled"]
    assert ev.stats == {"cancelled": "client_disconnected"} and ev.completion_token_ids == []


def test_a_stream_whose_route_vanishes_before_it_starts_gives_its_slot_back():
    # precheck (the stream's 429-or-go) took the slot; a policy reload then removed the
    # route before `serve` ran. Before: the slot leaked (the route, when it came back, had
    # one slot fewer for good).
    fake, sink = FakeBackend(), ListSink()
    core = _core(fake, sink)
    try:
        req = _greq()
        core.precheck(req)
        assert core.admission.in_flight("default") == 1
        core.policy = Policy(routes={"other": RoutePolicy(mode="target_only")},
                             default_route="other")
        with pytest.raises(KeyError):
            asyncio.run(core.serve(req))
        assert core.admission.in_flight("default") == 0 and core.admission.in_flight() == 0
    finally:
        core.shutdown()


def test_requests_that_hang_up_at_once_do_not_talk_retry_after_down():
    # Retry-After comes from the measured service time; a flood of requests cancelled before
    # they ran (0 s each) used to drag that estimate to ~0, so every 429 said "1 s".
    fake, sink = FakeBackend(), ListSink()
    core = _core(fake, sink)
    before = core.admission.service_s

    async def main() -> None:
        for _ in range(20):
            req = _greq()
            req.cancel.cancel("client_disconnected")
            with pytest.raises(ServingError):
                await core.serve(req)

    try:
        asyncio.run(main())
        assert len(sink.of(RequestEvent)) == 20  # each audited as cancelled
        assert core.admission.service_s == before
        assert core.admission.in_flight() == 0
    finally:
        core.shutdown()

"""Attacker / SRE sweep of continuous batching and admission control.

Each test pins one defect found by the sweep (it failed before the fix next to it):
- a request cancelled while it waits for a batch row leaves within one engine step (its route
  slot and worker are freed and it is audited), not when a row finally frees up;
- the engine thread never dies silently: a fault outside a step fails the rows it holds (no
  caller hangs forever) and later submits are refused at once;
- a serving task cancelled while its job still waits for a worker releases its route slot and
  the shadow's idle gate (never a permanently full route);
- a generation that finishes just after its deadline's 504 is still audited.
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from engine.continuous import SequenceRequest
from engine.loadaware import LoadAwareGamma
from engine.sampling import SamplingParams
from guardian.admission import Cancelled
from guardian.audit.events import RequestEvent
from guardian.backends.local import LocalEngineBackend
from guardian.batching import BatchScheduler
from guardian.policy import Policy, RoutePolicy, ShadowPolicy
from guardian.serving import GenerationRequest, ServingCore, ServingError
from guardian.telemetry import Telemetry
from tests.engine.conftest import save_tiny_pair
from tests.guardian.api.fakes import FakeBackend, ListSink


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
        with pytest.raises(RuntimeError, match="engine thread"):
            fut.result(timeout=5)  # before: never resolved, its caller hung forever
        batcher._thread.join(5)
        assert not batcher.alive
        with pytest.raises(RuntimeError, match="engine thread"):
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

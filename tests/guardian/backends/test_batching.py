"""Continuous batching in the sidecar (engine.batching) on a tiny real pair: concurrent
requests share the batch and get exactly what they get alone; a row that stops (cancelled,
preempted) leaves alone; a cancelled request that is still waiting never runs; through the
real app, a client that hangs up is audited as cancelled while the others finish."""

from __future__ import annotations

import concurrent.futures
import time
from pathlib import Path

import httpx
import pytest

from guardian.app import build_services, close_services, create_app
from guardian.audit.events import RequestEvent
from guardian.backends import BackendRequest, Sampling
from guardian.backends.local import LocalEngineBackend
from guardian.policy import Policy, RoutePolicy, ShadowPolicy
from guardian.serving.admission import Cancelled
from tests.support.api import auth, keystore
from tests.support.fakes import ListSink
from tests.support.servers import serve
from tests.support.tiny_models import PROMPTS, save_tiny_pair


@pytest.fixture(scope="module")
def dirs(tmp_path_factory) -> tuple[Path, Path]:
    return save_tiny_pair(tmp_path_factory.mktemp("pair"))


@pytest.fixture(scope="module")
def solo(dirs) -> LocalEngineBackend:
    return LocalEngineBackend.load(*dirs, device="cpu")


@pytest.fixture
def batched(dirs):
    # A pinned depth cap that never binds (requests ask for <= 4): a seeded sampled request
    # draws the same numbers only under the same depths (the learnt cap explores depths;
    # output stays lossless, but not draw-for-draw equal to a run alone).
    backend = LocalEngineBackend.load(*dirs, device="cpu", batching=True, max_batch=8,
                                      gamma_by_batch={1: 8})
    yield backend
    backend.shutdown()


def requests(backend: LocalEngineBackend) -> list[BackendRequest]:
    out = []
    for k, prompt in enumerate(PROMPTS * 2):
        sampled = k % 2 == 1
        out.append(BackendRequest(
            prompt_ids=backend.encode(prompt), max_new_tokens=8 + k, speculative=k % 3 != 0,
            sampling=Sampling(temperature=0.8 if sampled else 0.0, top_p=0.9 if k % 4 == 1 else 1.0),
            seed=1000 + k if sampled else None, stop=("\n\n",) if k % 5 == 0 else (),
            proposer="ngram" if k % 3 == 2 else "draft_model", gamma=1 + k % 4))
    return out


def test_concurrent_requests_share_the_batch_and_get_what_they_get_alone(solo, batched):
    want = [solo.generate(r) for r in requests(solo)]
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        got = list(pool.map(batched.generate, requests(batched)))
    assert [g.token_ids for g in got] == [w.token_ids for w in want]
    assert [g.finish_reason for g in got] == [w.finish_reason for w in want]
    assert [g.text for g in got] == [w.text for w in want]
    assert batched.batcher.peak >= 4  # they really ran together
    for g, w in zip(got, want, strict=True):
        assert [t.origin for t in g.trace] == [t.origin for t in w.trace]


@pytest.mark.parametrize("policy", ["runs", "modelled"])
def test_a_depth_cap_chosen_by_load_changes_no_greedy_output(dirs, solo, policy):
    # `runs` tries every depth on these requests (the cap changes from run to run);
    # `modelled` picks by the step costs it measured on this tiny pair.
    backend = LocalEngineBackend.load(*dirs, device="cpu", batching=True, max_batch=8,
                                      gamma_policy=policy)
    try:
        greedy = [r for r in requests(solo) if r.sampling.temperature == 0]
        want = [solo.generate(r).token_ids for r in greedy]
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            got = [g.token_ids for g in pool.map(backend.generate, greedy * 3)]
        assert got == want * 3
        assert backend.batcher.gamma.goodput()  # goodput per band, measured or predicted
    finally:
        backend.shutdown()


def test_a_row_that_stops_leaves_alone_and_a_waiting_cancelled_request_never_runs(batched):
    reqs = requests(batched)[:4]
    stop_after = 2

    def stopping(delta: str, traces: list) -> None:
        nonlocal stop_after
        stop_after -= 1
        if stop_after <= 0:
            raise Cancelled("client_disconnected")

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        doomed = pool.submit(batched.generate, reqs[0], stopping)
        others = [pool.submit(batched.generate, r) for r in reqs[1:]]
        with pytest.raises(Cancelled):
            doomed.result(timeout=60)
        assert all(f.result(timeout=60).token_ids for f in others)

    def gone() -> None:
        raise Cancelled("client_disconnected")

    steps = batched.batcher.steps
    with pytest.raises(Cancelled):
        batched.generate(BackendRequest(prompt_ids=batched.encode("x"), max_new_tokens=50,
                                        speculative=True, check=gone))
    assert batched.batcher.steps == steps


def test_the_app_batches_concurrent_clients_and_audits_a_hang_up_as_cancelled(dirs, solo):
    backend = LocalEngineBackend.load(*dirs, device="cpu", batching=True, max_batch=8)
    sink = ListSink()
    pol = Policy(routes={"default": RoutePolicy(mode="speculative",
                                                shadow=ShadowPolicy(sample_rate=0.0))})
    services = build_services(backend, sink, policy=pol, keys=keystore())
    app = create_app(services=services)
    body = {"model": backend.model_name, "max_tokens": 24, "temperature": 0}
    try:
        with serve(app) as url, concurrent.futures.ThreadPoolExecutor(8) as pool:
            def call(prompt: str) -> dict:
                r = httpx.post(f"{url}/v1/completions", json={**body, "prompt": prompt},
                               headers=auth(), timeout=60)
                assert r.status_code == 200, r.text
                return r.json()

            futures = [pool.submit(call, p) for p in PROMPTS]
            with httpx.stream("POST", f"{url}/v1/completions", headers=auth(), timeout=60,
                              json={**body, "prompt": PROMPTS[0], "max_tokens": 200,
                                    "stream": True}) as r:
                lines = r.iter_lines()
                assert any(next(lines).startswith("data: ") for _ in range(3))
            answers = [f.result() for f in futures]
            spec = httpx.get(f"{url}/admin/speculation", headers=auth("oncall"), timeout=10).json()
            metrics = httpx.get(f"{url}/metrics", headers=auth("oncall"), timeout=10).text
            deadline = time.monotonic() + 30
            while not [e for e in sink.of(RequestEvent) if e.finish_reason == "cancelled"]:
                assert time.monotonic() < deadline
                time.sleep(0.05)
    finally:
        close_services(services)
    alone = [solo.generate(BackendRequest(prompt_ids=solo.encode(p), max_new_tokens=24,
                                          speculative=True)) for p in PROMPTS]
    assert [a["choices"][0]["text"] for a in answers] == [w.text for w in alone]
    assert spec["batching"] == "continuous" and spec["peak_batch_rows"] >= 2
    assert spec["goodput_tokens_per_s"] and "vllm_speculative_config" in spec
    assert "guardian_batch_rows" in metrics
    assert "guardian_speculation_goodput_tokens_per_second{" in metrics
    served_stats = [e.stats for e in sink.of(RequestEvent) if e.finish_reason != "cancelled"]
    assert max(s["batch_rows"] for s in served_stats) >= 2  # audited: it ran in a batch
    (cancelled,) = [e for e in sink.of(RequestEvent) if e.finish_reason == "cancelled"]
    assert cancelled.stats == {"cancelled": "client_disconnected"}
    assert len(cancelled.completion_token_ids) < 200
    served = [e for e in sink.of(RequestEvent) if e.finish_reason != "cancelled"]
    assert len(served) == len(PROMPTS)


def test_the_depth_cap_policy_is_chosen_by_settings(dirs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from engine.capmodel import ModelledGamma
    from engine.loadaware import LoadAwareGamma

    made = []
    for options in ({"step_costs_dir": tmp_path}, {"gamma_policy": "runs"},
                    {"gamma_by_batch": {1: 2}}):
        backend = LocalEngineBackend.load(*dirs, device="cpu", batching=True, max_batch=2,
                                          **options)
        made.append(backend.batcher.gamma)
        backend.shutdown()
    modelled, runs, pinned = made
    # The default measures the step costs before serving and keeps them where it was told.
    assert isinstance(modelled, ModelledGamma) and modelled.costs is not None
    assert modelled.costs.sizes == [1, 2] and len(list(tmp_path.iterdir())) == 1
    assert isinstance(runs, LoadAwareGamma) and runs.fixed is None
    assert isinstance(pinned, LoadAwareGamma) and pinned.fixed == {1: 2}


class _RecordingCap:
    """A fixed depth cap that records what the scheduler tells it of each step."""

    def __init__(self, cap: int) -> None:
        self.cap, self.seen = cap, []

    def __call__(self, size: int) -> int:
        return self.cap

    def observe(self, size, cap, tokens, seconds, **kw) -> None:  # type: ignore[no-untyped-def]
        self.seen.append((size, cap, tokens, seconds))

    def table(self) -> dict[int, int]:
        return {1: self.cap}


def test_after_idle_the_learner_times_a_step_from_its_join(dirs) -> None:
    """A step after an idle spell is judged over the join's prefill too (its first tokens
    count with that step), and the idle wait before it is not counted as work."""
    from engine.batching import BatchScheduler
    from engine.continuous import SequenceRequest
    from engine.controllers import make_controller
    from engine.loading import load_pair
    from engine.sampling import SamplingParams

    pair = load_pair(*dirs, device="cpu")
    cap = _RecordingCap(0)
    sched = BatchScheduler(pair, max_batch=4, gamma=cap)  # type: ignore[arg-type]
    calls: list[float] = []
    step = sched._engine.step

    def timed_step():  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        out = step()
        calls.append(time.perf_counter() - t0)
        return out

    sched._engine.step = timed_step  # type: ignore[method-assign]
    try:
        ids = list(pair.tokenizer(PROMPTS[0])["input_ids"])
        req = SequenceRequest(prompt=ids * 8, params=SamplingParams(temperature=0.0),
                              max_new_tokens=2, speculative=True,
                              controller=make_controller("constant", 2, 8))
        sched.run(req)
        time.sleep(0.3)  # idle
        sched.run(SequenceRequest(prompt=ids * 8, params=SamplingParams(temperature=0.0),
                                  max_new_tokens=2, speculative=True,
                                  controller=make_controller("constant", 2, 8)))
    finally:
        sched.shutdown()
    assert len(cap.seen) == 4 and len(calls) == 4
    # The first step of each request: its join's prefill is in the time the learner got.
    for k in (0, 2):
        assert cap.seen[k][3] > calls[k]
    # ... and the 0.3 s idle spell is in neither request's steps.
    assert all(seconds < 0.3 for *_, seconds in cap.seen)

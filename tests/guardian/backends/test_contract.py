"""The serving-backend contract on the fake backend: plain serving results, evidence kept
apart, capability-gated shadow checks that say what they could not check, proposer
pass-through, and the kind registry."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from typing import Any

import pytest
import torch

from engine.metrics import SpecCounters
from guardian.app import build_services, close_services
from guardian.audit.events import ShadowEvent
from guardian.backends import FACTORIES, BackendResult, ServingBackend, open_backend
from guardian.serving.core import GenerationRequest, Served
from guardian.settings import Settings
from tests.support.api import auth, keystore, policy
from tests.support.fakes import FakeBackend, ListSink

PLAIN = (int, float, str, bool, type(None))


def assert_plain(value: Any, where: str = "result") -> None:
    """Only plain Python values (and dataclasses / containers of them): never a tensor."""
    assert not isinstance(value, torch.Tensor), f"{where} is a torch tensor"
    if isinstance(value, PLAIN):
        return
    if isinstance(value, list | tuple):
        for i, v in enumerate(value):
            assert_plain(v, f"{where}[{i}]")
    elif isinstance(value, dict):
        for k, v in value.items():
            assert isinstance(k, str), f"{where} has a non-string key {k!r}"
            assert_plain(v, f"{where}[{k!r}]")
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            assert_plain(getattr(value, f.name), f"{where}.{f.name}")
    else:
        raise AssertionError(f"{where} is a {type(value).__name__}, not a plain value")


def serve(backend: FakeBackend, mode: str = "speculative", temperature: float = 0.0,
          sample_rate: float = 0.0, sink: ListSink | None = None, **route: Any,
          ) -> tuple[Served, list[list[Any]], Any]:
    sink = sink or ListSink()
    services = build_services(backend, sink, policy=policy(mode, sample_rate, **route),
                              keys=keystore(), start_shadow=False)
    streamed: list[list[Any]] = []
    req = GenerationRequest(endpoint="completions", route="default", model="fake-target",
                            prompt_text="hello", prompt_ids=backend.encode("hello"), max_tokens=9,
                            temperature=temperature, seed=1 if temperature else None)
    try:
        served = asyncio.run(services.core.serve(req, lambda _d, traces: streamed.append(traces)))
    finally:
        close_services(services)
    return served, streamed, services


def test_the_fake_implements_the_contract() -> None:
    assert isinstance(FakeBackend(), ServingBackend)


def test_backends_declare_their_abilities_and_have_what_they_declare() -> None:
    """Abilities are declared (Capabilities, the protocol's attributes), not probed: each
    backend kind has every member the protocol names, and `asynchronous` exactly where it
    serves on the event loop."""
    from guardian.backends.base import AsyncServingBackend
    from guardian.backends.local import CAPABILITIES as LOCAL
    from guardian.backends.upstream.backend import UpstreamBackend

    upstream = UpstreamBackend("m")
    assert isinstance(upstream, AsyncServingBackend) and upstream.capabilities.asynchronous
    assert upstream.batcher is None and upstream.engine_description()["engine"] == "upstream"
    fake = FakeBackend()
    assert not isinstance(fake, AsyncServingBackend) and not fake.capabilities.asynchronous
    assert not LOCAL.asynchronous


@pytest.mark.parametrize("temperature", [0.0, 0.8])
def test_a_serving_only_caller_never_receives_a_tensor(temperature: float) -> None:
    # sample_rate 1.0 + sampled: the served speculative run keeps evidence for the shadow
    served, streamed, _ = serve(FakeBackend(), temperature=temperature, sample_rate=1.0)
    assert isinstance(served.result, BackendResult) and served.result.token_ids
    assert_plain(served.result)
    assert_plain(streamed, "streamed traces")
    assert_plain(served.extension(), "spec_guardian extension")
    # the shadow evidence travels beside the result, never inside it
    assert (served.evidence is not None) == (temperature > 0)


def test_counters_and_ratios_come_from_spec_counters() -> None:
    served, _, _ = serve(FakeBackend())
    c = served.result.counters
    assert c == SpecCounters.from_stats(served.result.stats) and c.accepted > 0
    stats = served.extension()["stats"]
    assert stats["acceptance_rate"] == c.acceptance_rate and stats["alpha"] == c.alpha
    assert stats["mean_acceptance_length"] == c.mean_acceptance_length
    assert stats["proposed_tokens"] == served.result.stats["proposed_tokens"]  # raw counters kept


def test_route_proposer_reaches_the_backend() -> None:
    backend = FakeBackend()
    served, _, _ = serve(backend, proposer="ngram")
    assert served.served_path == "speculative"
    assert backend.calls[-1]["proposer"] == "ngram"


def test_a_proposer_the_backend_lacks_serves_target_only_and_says_why() -> None:
    backend = FakeBackend()
    backend.capabilities = dataclasses.replace(backend.capabilities, proposers=("draft_model",))
    served, _, _ = serve(backend, proposer="ngram")
    assert served.served_path == "target_only"
    assert served.fallback_reason == "unsupported_proposer"
    assert not any(c["speculative"] for c in backend.calls)


def _shadow_event(backend: FakeBackend, temperature: float, mode: str = "target_only"
                  ) -> ShadowEvent:
    sink = ListSink()
    services = build_services(backend, sink, policy=policy(mode, 1.0), keys=keystore())
    try:
        from fastapi.testclient import TestClient

        from guardian.app import create_app

        client = TestClient(create_app(services=services))
        body = {"model": "fake-target", "prompt": "hello", "max_tokens": 8,
                "temperature": temperature, "seed": 1}
        rid = client.post("/v1/completions", json=body, headers=auth()).json()["id"]
        deadline = time.monotonic() + 5
        while not sink.of(ShadowEvent, rid):
            assert time.monotonic() < deadline, "no shadow verdict"
            time.sleep(0.01)
        return sink.of(ShadowEvent, rid)[0]
    finally:
        close_services(services)


@pytest.mark.parametrize("mode", ["target_only", "speculative"])
def test_shadow_without_full_distributions_still_judges_and_says_what_it_could_not_check(
        mode: str) -> None:
    backend = FakeBackend(full_distributions=False)
    event = _shadow_event(backend, 0.8, mode)
    assert event.verdict == "distribution_ok"
    # the acceptance expectation comes from the trace (the engine recorded it), so it runs
    # (the request is seeded; this backend promises no reproducible seeds: seed_replay)
    assert set(event.stats["unchecked"]) == {"verifier_distribution", "goodness_of_fit",
                                             "seed_replay"}
    assert event.stats["checks"] == ["support", "resampled_residual", "accepted_proposed"]
    assert not any(c["record_distributions"] for c in backend.calls)  # never asked for them
    # greedy needs no distributions: the full check runs and nothing is left unchecked
    greedy = _shadow_event(FakeBackend(full_distributions=False), 0.0, mode)
    assert greedy.verdict == "match" and "unchecked" not in greedy.stats


def test_shadow_with_full_distributions_runs_the_distribution_checks() -> None:
    event = _shadow_event(FakeBackend(), 0.8)
    # seeded, and this fake promises no reproducible seeds: that alone is left unchecked
    assert event.verdict == "distribution_ok" and event.stats["unchecked"] == ["seed_replay"]
    assert event.stats["max_tv"] < 1e-6 and event.stats["window_tokens"] > 0


def test_a_new_backend_kind_is_one_registry_entry(monkeypatch) -> None:
    monkeypatch.setitem(FACTORIES, "fake", "tests.guardian.backends.test_contract:fake_factory")
    backend = open_backend(Settings(backend="fake"))
    assert isinstance(backend, FakeBackend) and isinstance(backend, ServingBackend)
    with pytest.raises(ValueError, match=r"unknown backend 'vllm'.*known: fake, local"):
        open_backend(Settings(), "vllm")


def fake_factory(settings: Settings) -> FakeBackend:
    return FakeBackend()


def test_local_stats_keep_the_deprecated_draft_tokens_key() -> None:
    """Readers of `stats.draft_tokens` (API clients, stored JSON) keep getting judged
    positions for one release after the counters were renamed."""
    from engine.trace import GenerationResult, GenerationStats
    from guardian.backends.local import to_result

    st = GenerationStats(steps=2, proposed_tokens=8, judged_tokens=6, accepted=5)
    res = GenerationResult(prompt_token_ids=[1], token_ids=[2], text="x", finish_reason="length",
                           trace=[], stats=st, speculative=True)
    stats = to_result(res).stats
    assert stats["draft_tokens"] == 6 == stats["judged_tokens"]
    assert stats["proposed_tokens"] == 8

"""Fixtures: an app around the fake backend, with one API key per role; the local engine
over a tiny real pair (`local_backend`, both cores) and apps around it (`make_local`)."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import openai
import pytest
from fastapi.testclient import TestClient

from guardian.app import build_services, close_services, create_app
from guardian.backends.local import LocalEngineBackend
from tests.support.api import (  # noqa: F401  (helpers, importable from here too)
    KEYS,
    auth,
    keystore,
    policy,
)
from tests.support.fakes import ListSink
from tests.support.servers import serve
from tests.support.tiny_models import save_tiny_pair


@pytest.fixture(scope="module")
def local_pair_dirs(tmp_path_factory) -> tuple[Path, Path]:
    return save_tiny_pair(tmp_path_factory.mktemp("pair"))


@pytest.fixture(params=["continuous", "one_at_a_time"])  # closing services stops a batcher
def local_backend(local_pair_dirs, request) -> Iterator[LocalEngineBackend]:
    # A pinned depth cap: no step-cost calibration per backend (seconds each on a busy CPU).
    b = LocalEngineBackend.load(*local_pair_dirs, device="cpu",
                                batching=request.param == "continuous",
                                gamma_by_batch={1: 4} if request.param == "continuous" else None)
    yield b
    b.shutdown()


@pytest.fixture
def make_local(local_backend):
    made = []

    def build(mode: str = "speculative", sample_rate: float = 0.0) -> tuple[TestClient, ListSink]:
        sink = ListSink()
        services = build_services(local_backend, sink,
                                  policy=policy(mode=mode, sample_rate=sample_rate),
                                  keys=keystore())
        made.append(services)
        return TestClient(create_app(services=services)), sink

    yield build
    for s in made:
        close_services(s)


@pytest.fixture
def local_sdk(local_backend) -> Iterator[openai.OpenAI]:
    """The official `openai` client, unchanged, against a real server (a speculative route)
    over `local_backend`: the done-when tests of the request surface."""
    services = build_services(local_backend, ListSink(), policy=policy(mode="speculative"),
                              keys=keystore())
    try:
        with serve(create_app(services=services)) as url:
            yield openai.OpenAI(base_url=f"{url}/v1", api_key=KEYS["inference"], max_retries=0)
    finally:
        close_services(services)

"""The reported 500s on the real engine: underflowing sampling values are served (both paths,
speculative and target-only, plus the shadow comparison), not "probability tensor contains
inf/nan"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from guardian.app import build_services, close_services, create_app
from guardian.backends.local import LocalEngineBackend
from tests.support.api import auth, keystore, policy
from tests.support.fakes import ListSink
from tests.support.tiny_models import save_tiny_pair


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        backend = LocalEngineBackend.load(*save_tiny_pair(Path(tmp)), device="cpu")
        services = build_services(backend, ListSink(),
                                  policy=policy(mode="speculative", sample_rate=1.0),
                                  keys=keystore())
        yield TestClient(create_app(services=services), raise_server_exceptions=False)
        close_services(services)


@pytest.mark.parametrize("sampling", [
    {"temperature": 5e-324}, {"temperature": 1e-40}, {"temperature": 1.0, "top_p": 1e-300},
    {"temperature": 5e-324, "top_p": 5e-324, "top_k": 1},
])
@pytest.mark.parametrize("path", ["/v1/completions", "/v1/chat/completions"])
def test_underflowing_sampling_values_are_served_by_the_real_engine(client, path,
                                                                    sampling) -> None:
    body = ({"prompt": "the cat sat"} if path == "/v1/completions"
            else {"messages": [{"role": "user", "content": "the cat sat"}]})
    model = client.get("/v1/models", headers=auth()).json()["data"][0]["id"]
    r = client.post(path, headers=auth(), json={"model": model, "max_tokens": 6,
                                                "seed": 1, **body, **sampling})
    assert r.status_code == 200, r.text

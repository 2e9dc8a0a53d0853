"""A fault-injecting fake upstream (guardian.devtools.fake_upstream) served by uvicorn on a thread."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn

from guardian.devtools.fake_upstream import create_app
from guardian.policy.model import UpstreamPool, UpstreamPools


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


_APP = create_app()  # one fake upstream per session; its `state.received` keeps the bodies


@pytest.fixture
def upstream_received(upstream_url: str):
    """The bodies the fake upstream received (cleared for each test), newest last."""
    _APP.state.received.clear()
    return _APP.state.received


@pytest.fixture(scope="session")
def upstream_url() -> Iterator[str]:
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(_APP, host="127.0.0.1", port=port,
                                           log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "fake upstream did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}/v1"
    server.should_exit = True
    thread.join(5)


def pools(url: str, spec: str = "fake-spec", target: str = "fake-target", **kw: object,
          ) -> UpstreamPools:
    timeouts = {"read_timeout_s": 1.0, "connect_timeout_s": 1.0}
    return UpstreamPools(speculative=UpstreamPool(url=url, model=spec, **timeouts),
                         target_only=UpstreamPool(url=url, model=target, **timeouts), **kw)

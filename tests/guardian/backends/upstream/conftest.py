"""A fault-injecting fake upstream (guardian.devtools.fake_upstream) served by uvicorn on a thread."""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn

from guardian.devtools.fake_upstream import create_app
from tests.support.upstream import (  # noqa: F401  (helpers, importable from here too)
    free_port,
    pools,
)

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

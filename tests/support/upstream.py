"""Helpers shared by the upstream tests (their fixtures stay in its conftest)."""

from __future__ import annotations

import socket

from guardian.policy.model import UpstreamPool, UpstreamPools


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pools(url: str, spec: str = "fake-spec", target: str = "fake-target", **kw: object,
          ) -> UpstreamPools:
    timeouts = {"read_timeout_s": 1.0, "connect_timeout_s": 1.0}
    return UpstreamPools(speculative=UpstreamPool(url=url, model=spec, **timeouts),
                         target_only=UpstreamPool(url=url, model=target, **timeouts), **kw)

"""One upstream pool's HTTP clients (`Pool`) and the deadline every sync call is held to.

`Pool` owns the pool's clients and breaker: the sync `httpx.Client` the shadow worker's threads
use, its transport cutting every socket operation to what is left of the call's
`total_timeout_s` (`_DEADLINE`, `_deadline_transport`: httpx's own timeouts are per operation),
and one `aiohttp.ClientSession` per event loop for the serving path. Used by
guardian.backends.upstream.backend.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import time
import weakref
from typing import TYPE_CHECKING, Any

import aiohttp
import httpcore
import httpx

from guardian.backends.upstream.breaker import CircuitBreaker

if TYPE_CHECKING:
    from guardian.policy.model import UpstreamPool


class Pool:
    """One upstream server: its HTTP client and its breaker."""

    def __init__(self, cfg: UpstreamPool, failures: int = 5, reset_s: float = 10.0) -> None:
        self.cfg = cfg
        self.name = f"{cfg.model}@{cfg.url}"  # logs and the audit
        self.label = cfg.model  # what a client's error names (no internal address)
        headers = {}
        if cfg.api_key_env:
            key = os.environ.get(cfg.api_key_env)
            if not key:
                raise ValueError(f"upstream pool {self.name}: environment variable "
                                 f"{cfg.api_key_env} (api_key_env) is not set")
            headers["authorization"] = f"Bearer {key}"
        self._options: dict[str, Any] = dict(
            base_url=cfg.url.rstrip("/"), headers=headers,
            timeout=httpx.Timeout(connect=cfg.connect_timeout_s, read=cfg.read_timeout_s,
                                  write=cfg.read_timeout_s, pool=cfg.connect_timeout_s),
            limits=httpx.Limits(max_connections=cfg.max_connections,
                                max_keepalive_connections=cfg.max_keepalive))
        # threads: the shadow, sync callers. Its own transport, every socket operation bounded
        # by the call's whole deadline (`_deadline_transport`); given a transport, httpx mounts
        # no proxy from the environment: as the serving path's aiohttp sessions (trust_env
        # off), the shadow reaches the pool itself. SSL_CERT_FILE / _DIR still apply.
        self.client = httpx.Client(**self._options, transport=_deadline_transport(
            self._options["limits"]))
        self.headers = headers
        # Serving runs on the event loop (`agenerate`): one async session per loop.
        self._async: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aiohttp.ClientSession] = (
            weakref.WeakKeyDictionary())
        self.breaker = CircuitBreaker(failures, reset_s)

    def async_client(self) -> aiohttp.ClientSession:
        loop = asyncio.get_running_loop()
        session = self._async.get(loop)
        if session is None or session.closed:
            cfg = self.cfg
            # connect: waiting for a pooled connection plus connecting (httpx's pool + connect)
            timeout = aiohttp.ClientTimeout(total=None, connect=cfg.connect_timeout_s,
                                            sock_connect=cfg.connect_timeout_s,
                                            sock_read=cfg.read_timeout_s)
            # aiohttp keeps every idle connection for its keep-alive timeout (15 s) and has no
            # separate idle cap: `max_keepalive` bounds the sync client only.
            connector = aiohttp.TCPConnector(limit=cfg.max_connections, limit_per_host=0)
            session = self._async[loop] = aiohttp.ClientSession(
                connector=connector, timeout=timeout, headers=self.headers,
                auto_decompress=True, raise_for_status=False)
        return session

    async def aclose(self) -> None:
        session = self._async.pop(asyncio.get_running_loop(), None)
        if session is not None:
            await session.close()

    def close(self) -> None:
        self.client.close()
        for loop, session in list(self._async.items()):
            if not loop.is_closed() and not loop.is_running():
                loop.run_until_complete(session.close())



# The monotonic (`time.perf_counter`) time by which the sync call running in this thread must
# be over (None: no call, no bound). A context variable: each shadow worker thread has its own.
_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("upstream_deadline",
                                                                          default=None)


def _left(timeout: float | None, expired: type[Exception]) -> float | None:
    """`timeout` (one socket operation's) cut to what is left of the call's deadline; past
    it, `expired` (an httpcore timeout, which httpx reports as its own: a `timeout` fault)."""
    deadline = _DEADLINE.get()
    if deadline is None:
        return timeout
    left = deadline - time.perf_counter()
    if left <= 0:
        raise expired("total_timeout_s passed")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    """A connection whose every read and write waits at most until the call's deadline."""

    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _left(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _left(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        return _DeadlineStream(self._inner.start_tls(
            ssl_context, server_hostname, _left(timeout, httpcore.ConnectTimeout)))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _DeadlineBackend(httpcore.NetworkBackend):
    """httpcore's network backend with `_DeadlineStream` connections."""

    def __init__(self, inner: httpcore.NetworkBackend) -> None:
        self._inner = inner

    def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                    local_address: str | None = None, socket_options: Any = None,
                    ) -> httpcore.NetworkStream:
        return _DeadlineStream(self._inner.connect_tcp(
            host, port, _left(timeout, httpcore.ConnectTimeout), local_address, socket_options))

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Any = None) -> httpcore.NetworkStream:
        return _DeadlineStream(self._inner.connect_unix_socket(
            path, _left(timeout, httpcore.ConnectTimeout), socket_options))

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


def _deadline_transport(limits: httpx.Limits) -> httpx.HTTPTransport:
    """httpx's own transport over `_DeadlineBackend`. httpx takes no network backend, so its
    connection pool's is wrapped; checked here, at startup, so an httpx / httpcore that
    renamed it fails loudly instead of silently losing the bound."""
    transport = httpx.HTTPTransport(limits=limits)
    pool = getattr(transport, "_pool", None)
    if not isinstance(pool, httpcore.ConnectionPool) or not isinstance(
            getattr(pool, "_network_backend", None), httpcore.NetworkBackend):
        raise RuntimeError("httpx/httpcore changed: cannot bound the upstream calls' deadline "
                           f"(httpx {httpx.__version__}, httpcore {httpcore.__version__})")
    pool._network_backend = _DeadlineBackend(pool._network_backend)
    return transport

"""Reading a pool's answer, and what a failed exchange becomes.

Owns the byte side of an upstream call: bodies and SSE lines read chunk by chunk under their
caps (`_Splitter`, `_Body`, `_lines` / `_read` and their sync twins, which also check the
call's `total_timeout_s`), the choice of a whole or a streamed answer (`_streams`,
`_body_cap`), and the translation of httpx / aiohttp / wire errors and error statuses into the
`UpstreamError` the client sees (`_fault`, `_afault`, `_raise_status`); and the answer's
timings, from the pool's own where it sends them (`_latency`). Used by
guardian.backends.upstream.backend.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, Any, NoReturn

import aiohttp
import httpx

from guardian.backends.base import BackendRequest, OnText, Timings
from guardian.backends.upstream.errors import UpstreamError
from guardian.backends.upstream.wire import Answer, WireError

if TYPE_CHECKING:
    from guardian.backends.upstream.pools import Pool


def _fault(exc: Exception, pool: Pool, text_sent: bool) -> UpstreamError:
    """An httpx or wire error as the UpstreamError the client sees."""
    if isinstance(exc, UpstreamError):
        return exc
    detail = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, WireError):
        fault = "truncated" if getattr(exc, "truncated", False) else "malformed"
        return UpstreamError(fault, pool.label, str(exc))  # type: ignore[arg-type]
    if isinstance(exc, httpx.TimeoutException) and not isinstance(exc, httpx.PoolTimeout):
        return UpstreamError("timeout", pool.label, detail)
    return UpstreamError("truncated" if text_sent else "refused", pool.label, detail)


def _raise_status(pool: Pool, status: int, message: Any, *, shown: bool = True) -> NoReturn:
    """`shown`: the message is an OpenAI-style error (`{"error": ...}`) written for clients;
    any other body (a proxy's page, "dial tcp 10.0.3.7:8000: connection refused") goes to
    the audit and the log only, like a connection failure's detail."""
    # The upstream's message, as the client and the log read it: short, one line, printable.
    message = "".join(c if c.isprintable() else " " for c in str(message)[:200])
    visible = None if shown else f"HTTP {status}"
    # 404 is not among them: the client cannot choose the pool's model or path, so "model
    # not found" / "no such route" is the pool's configuration (a 502, failed over), not a 400.
    if status in (400, 413, 422):  # the client's request: say so
        raise UpstreamError("rejected", pool.label, f"HTTP {status}: {message}", status=400,
                            shown=visible)
    raise UpstreamError("status", pool.label, f"HTTP {status}: {message}", shown=visible)



class _Splitter:
    """Bytes to lines without their line ending (as httpx's `aiter_lines`: undecodable bytes
    replaced, which the wire checks then refuse as malformed text), the body (decompressed)
    capped at `cap` bytes and a line at `_MAX_LINE`; linear in the body (a line that arrives
    in many small chunks is not re-scanned for every chunk)."""

    def __init__(self, cap: int) -> None:
        self.cap, self.total = cap, 0
        self.pending: list[bytes] = []
        self.pending_n = 0

    def feed(self, chunk: bytes) -> list[str]:
        self.total += len(chunk)
        if self.total > self.cap:
            raise WireError(f"the answer is longer than {self.cap} bytes")
        if b"\n" not in chunk:
            self.pending.append(chunk)
            self.pending_n += len(chunk)
            if self.pending_n > _MAX_LINE:
                raise WireError(f"an SSE line is longer than {_MAX_LINE} bytes")
            return []
        first, *whole, rest = chunk.split(b"\n")
        whole.insert(0, b"".join([*self.pending, first]))
        self.pending, self.pending_n = [rest], len(rest)
        if any(len(line) > _MAX_LINE for line in whole) or self.pending_n > _MAX_LINE:
            raise WireError(f"an SSE line is longer than {_MAX_LINE} bytes")
        return [line.rstrip(b"\r").decode("utf-8", "replace") for line in whole]

    def end(self) -> list[str]:
        last = b"".join(self.pending)
        return [last.rstrip(b"\r").decode("utf-8", "replace")] if last else []


async def _lines(resp: aiohttp.ClientResponse, cap: int) -> AsyncIterator[str]:
    split = _Splitter(cap)
    async for chunk in resp.content.iter_any():
        for line in split.feed(chunk):
            yield line
    for line in split.end():
        yield line


def _lines_sync(resp: httpx.Response, cap: int, deadline: float) -> Iterator[str]:
    """`_lines` for the sync client, `total_timeout_s` checked on every chunk (a stream of
    keep-alive comments never ends a read timeout)."""
    split = _Splitter(cap)
    for chunk in resp.iter_bytes():
        if time.perf_counter() > deadline:
            raise httpx.ReadTimeout("total_timeout_s passed")
        yield from split.feed(chunk)
    yield from split.end()


class _Body:
    """A body (decompressed: `auto_decompress`) gathered chunk by chunk, refused beyond `cap`
    bytes (a huge answer or a compression bomb must not take the sidecar's memory); `cut`:
    its first `cap` bytes instead (an error answer, read for its message)."""

    def __init__(self, cap: int, cut: bool) -> None:
        self.cap, self.cut, self.n = cap, cut, 0
        self.chunks: list[bytes] = []

    def add(self, chunk: bytes) -> bool:
        """Take `chunk`; False once the cut-off is reached (read no further)."""
        self.n += len(chunk)
        if self.n > self.cap:
            if not self.cut:
                raise WireError(f"the answer is longer than {self.cap} bytes")
            self.chunks.append(chunk[:self.cap - self.n])
            return False
        self.chunks.append(chunk)
        return True

    def bytes(self) -> bytes:
        return b"".join(self.chunks)


async def _read(resp: aiohttp.ClientResponse, cap: int, *, cut: bool = False) -> bytes:
    body = _Body(cap, cut)
    async for chunk in resp.content.iter_any():
        if not body.add(chunk):
            break
    return body.bytes()


def _read_sync(resp: httpx.Response, cap: int, deadline: float, *, cut: bool = False) -> bytes:
    """`_read` for the sync client, `total_timeout_s` checked on every chunk."""
    body = _Body(cap, cut)
    for chunk in resp.iter_bytes():
        if not body.add(chunk):
            break
        if time.perf_counter() > deadline:
            raise httpx.ReadTimeout("total_timeout_s passed")
    return body.bytes()


def _loads(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):  # deeply nested JSON is not an answer either
        raise WireError("the answer is not JSON") from None


# Above this max_tokens an answer is read as events even for a non-streaming client: its byte
# cap (`_body_cap`: 8 MiB + 16 KiB per token) would let one parsed whole cost gigabytes.
WHOLE_ANSWER_MAX_TOKENS = 512


def _streams(request: BackendRequest, on_text: OnText | None) -> bool:
    """Whether to ask the pool for SSE: when the client streams, when it set no max_tokens,
    and when it asked for more than WHOLE_ANSWER_MAX_TOKENS. A whole answer is parsed at once
    (json.loads: ~25-35x its bytes in Python objects for a hostile one, up to the 256 MiB
    cap); read as events, at most one event (1 MiB) is parsed at a time and the rows kept are
    held to max_tokens or the ceilings (`Answer.for_request`). Small max_tokens stay whole
    (one parse, not one per event: the proxy's own cost): their cap is at most 16 MiB."""
    n = request.max_new_tokens
    return on_text is not None or not 0 < n <= WHOLE_ANSWER_MAX_TOKENS


def _body_cap(request: BackendRequest) -> int:
    """The most bytes an answer may take: 8 MiB plus 16 KiB per token asked for (a token row
    with 20 alternatives takes ~3 KiB of JSON), 256 MiB when no limit was sent."""
    n = request.max_new_tokens
    return min(8 * _MIB + 16 * 1024 * n, 256 * _MIB) if n > 0 else 256 * _MIB


_MIB = 1 << 20
_MAX_LINE = _MIB
_ERROR_CAP = 64 * 1024  # an error answer's body: its message is all that is read


def _afault(exc: Exception, pool: Pool, text_sent: bool) -> UpstreamError:
    """An aiohttp or wire error as the UpstreamError the client sees (as `_fault`)."""
    if isinstance(exc, WireError):
        return _fault(exc, pool, text_sent)
    detail = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, aiohttp.ServerTimeoutError):  # connect (pool wait included) or read
        return UpstreamError("timeout", pool.label, detail)
    if isinstance(exc, aiohttp.ClientPayloadError):
        return UpstreamError("truncated", pool.label, detail)
    return UpstreamError("truncated" if text_sent else "refused", pool.label, detail)


def _latency(answer: Answer, total: float, ttft: float, n: int, stats: dict[str, Any],
             ) -> Timings:
    """The answer's timings. The pool's own per-token time where it sends one (llama.cpp's
    `timings.predicted_ms / predicted_n`): time per output token is that, and the first
    token is what is left of the call. A whole (non-streamed) answer without it arrives all
    at once: its per-token time is not known (`stats["latency_unreported"]`, and the latency
    trigger skips it) rather than the ~µs between parsing its first and last token."""
    t = answer.timings or {}
    if n > 1 and t.get("predicted_n", 0) > 1 and t.get("predicted_ms") is not None:
        # llama.cpp times the tokens after the first (that one comes out of the prompt's
        # forward): predicted_per_token_ms = predicted_ms / (predicted_n - 1)
        tpot = t.get("predicted_per_token_ms", t["predicted_ms"] / (t["predicted_n"] - 1)) / 1000.0
        first = max(0.0, total - (n - 1) * tpot)
        stats["latency_source"] = "pool_timings"
        return Timings(total_s=total, time_to_first_token_s=first, verify_s=total,
                       prefill_s=t.get("prompt_ms", 0.0) / 1000.0)
    if not answer.streamed and n > 1:
        stats["latency_unreported"] = True
        return Timings(total_s=total, time_to_first_token_s=total, verify_s=total)
    stats["latency_source"] = "stream"
    return Timings(total_s=total, time_to_first_token_s=ttft, verify_s=total)

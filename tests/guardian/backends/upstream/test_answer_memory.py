"""An answer to a request without max_tokens (chat's default) is held to the sidecar's own
ceilings: read as SSE (never parsed whole), at most ROWS_WITHOUT_MAX_TOKENS token rows and
ENTRIES_WITHOUT_MAX_TOKENS logprob entries, refused as `upstream_malformed` (a 502 carrying
the request id, audited) before its rows are built. The ceilings are patched small here so a
hostile answer past them stays a few MiB."""

from __future__ import annotations

import asyncio
import json
import tracemalloc
from collections.abc import Iterator

import pytest

from guardian.audit.events import RequestEvent
from guardian.backends import BackendRequest
from guardian.backends.upstream import wire
from guardian.backends.upstream.backend import UpstreamBackend
from guardian.backends.upstream.errors import UpstreamError
from tests.guardian.backends.upstream.rawserver import raw_upstream, read_request
from tests.guardian.backends.upstream.test_sidecar import AUTH, make  # noqa: F401  (fixture)
from tests.support.upstream import pools

ROWS = 2000  # the patched row ceiling
SEEN: list[dict] = []  # request bodies the hostile pool got


def _event(rows: list[dict], finish: str | None = None) -> bytes:
    chunk = {"id": "x", "choices": [{"index": 0, "delta": {"content": "a"},
                                     "logprobs": {"content": rows}, "finish_reason": finish}]}
    return b"data: " + json.dumps(chunk, separators=(",", ":")).encode() + b"\n\n"


TINY = {"token": "", "logprob": 0}  # 25 bytes of JSON, ~250 bytes as a kept row
FAT = {"token": "", "logprob": 0, "top_logprobs": [{"token": f"t{j}", "logprob": -1}
                                                  for j in range(21)]}


def _bodies() -> dict[tuple[str, bool], bytes]:
    """The hostile answers, built once before any measurement (tracemalloc traces every
    thread, the server's too): (model, streamed) -> the body."""
    end = _event([TINY], "stop") + b"data: [DONE]\n\n"
    whole = json.dumps({"id": "x", "choices": [{
        "index": 0, "message": {"content": "a"}, "finish_reason": "stop",
        "logprobs": {"content": [TINY] * 160_000}}]}).encode()
    return {("tiny", True): _event([TINY] * 20_000) * 8 + end,
            ("fat", True): _event([FAT] * 200) * 8 + end,
            ("few", True): end, ("tiny", False): whole}


BODIES = _bodies()


async def _handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    _, body = await read_request(reader)
    SEEN.append(body)
    stream = bool(body.get("stream"))
    raw = BODIES[body["model"], stream]
    ctype = "text/event-stream" if stream else "application/json"
    writer.write(f"HTTP/1.1 200 OK\r\ncontent-type: {ctype}\r\ncontent-length: {len(raw)}"
                 "\r\nconnection: close\r\n\r\n".encode() + raw)
    await writer.drain()


@pytest.fixture
def hostile(monkeypatch) -> Iterator[str]:
    monkeypatch.setattr(wire, "ROWS_WITHOUT_MAX_TOKENS", ROWS)
    monkeypatch.setattr(wire, "ENTRIES_WITHOUT_MAX_TOKENS", 4 * ROWS)
    SEEN.clear()
    with raw_upstream(_handle) as url:
        yield url


def _chat(url: str, model: str, max_tokens: int = 0) -> BackendRequest:
    return BackendRequest(prompt_ids=[], max_new_tokens=max_tokens, speculative=True,
                          route="default", messages=(("user", "hi"),),
                          upstream=pools(url, spec=model, target=model))


def _peak(backend: UpstreamBackend, r: BackendRequest, stream: bool) -> tuple[int, Exception]:
    """Peak Python memory (tracemalloc) of one serving-path call; and its error."""
    async def go() -> tuple[int, Exception]:
        tracemalloc.start()
        try:
            await backend.agenerate(r, (lambda d, rows: None) if stream else None)
        except UpstreamError as exc:
            return tracemalloc.get_traced_memory()[1], exc
        finally:
            tracemalloc.stop()
            for pool in list(backend._pools.values()):
                await pool.aclose()
        raise AssertionError("served")
    return asyncio.run(go())


@pytest.mark.parametrize("stream", [False, True])
def test_too_many_rows_without_max_tokens_are_refused_before_they_are_built(hostile,
                                                                           stream) -> None:
    """160,000 tiny rows (4 MiB of JSON; ~40 MiB once built, ~140 MiB parsed whole) past a
    2,000-row ceiling: refused at the first event past it, the pool asked for SSE even
    for a non-streaming client."""
    backend = UpstreamBackend("x", ["x"])
    try:
        peak, exc = _peak(backend, _chat(hostile, "tiny"), stream)
    finally:
        backend.close()
    assert isinstance(exc, UpstreamError) and exc.fault == "malformed" and exc.status == 502
    assert "token rows" in exc.detail and SEEN[-1]["stream"] is True
    assert "max_tokens" not in SEEN[-1]
    assert peak < 12 << 20, f"{peak / 2**20:.1f} MiB"


def test_too_many_logprob_entries_without_max_tokens_are_refused(hostile) -> None:
    """Rows under the ceiling, but each with 21 alternatives: the entries ceiling holds."""
    backend = UpstreamBackend("x", ["x"])
    try:
        peak, exc = _peak(backend, _chat(hostile, "fat"), True)
    finally:
        backend.close()
    assert isinstance(exc, UpstreamError) and exc.fault == "malformed"
    assert "logprob entries" in exc.detail
    assert peak < 12 << 20, f"{peak / 2**20:.1f} MiB"


def test_with_max_tokens_the_whole_answer_is_still_asked_for(hostile) -> None:
    """max_tokens sent: the byte cap is proportional to it, the answer comes whole, rows
    past max_tokens are refused as before."""
    backend = UpstreamBackend("x", ["x"])
    try:
        with pytest.raises(UpstreamError, match="token rows"):
            backend.generate(_chat(hostile, "tiny", max_tokens=5))
        assert SEEN[-1]["stream"] is False and SEEN[-1]["max_tokens"] == 5
        result = backend.generate(_chat(hostile, "few"))  # under the ceilings: served
        assert result.text == "a" and len(result.trace) == 1 and SEEN[-1]["stream"] is True
    finally:
        backend.close()


def test_a_large_max_tokens_is_read_as_events_too(hostile) -> None:
    """max_tokens above WHOLE_ANSWER_MAX_TOKENS: its byte cap would let an answer parsed whole
    cost gigabytes, so a non-streaming client's answer is read as events as well, rows held
    to its max_tokens (refused at the first event past it, memory bounded)."""
    backend = UpstreamBackend("x", ["x"])
    try:
        peak, exc = _peak(backend, _chat(hostile, "tiny", max_tokens=ROWS), False)
    finally:
        backend.close()
    assert isinstance(exc, UpstreamError) and exc.fault == "malformed" and "token rows" in exc.detail
    assert SEEN[-1]["stream"] is True and SEEN[-1]["max_tokens"] == ROWS
    assert peak < 12 << 20, f"{peak / 2**20:.1f} MiB"


def test_the_sidecar_answers_a_502_with_the_request_id_and_audits_it(hostile, make) -> None:  # noqa: F811
    client, sink = make("target_only", target_kw={"url": hostile, "model": "tiny"})
    r = client.post("/v1/chat/completions", headers=AUTH, json={
        "model": "fake-target", "messages": [{"role": "user", "content": "hi"}]})
    assert r.status_code == 502, r.text
    err = r.json()["error"]
    assert err["code"] == "upstream_malformed" and "token rows" in err["message"]
    [event] = sink.of(RequestEvent)
    assert event.request_id in err["message"] and event.finish_reason == "error"
    assert event.stats["upstream_fault"] == "malformed"

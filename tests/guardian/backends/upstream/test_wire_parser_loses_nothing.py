"""Review of the upstream wire client against a hostile upstream: answers that used to be
served with something lost or misattributed (a byte-order mark hiding the first SSE event,
chunks of another completion spliced in, more tokens than max_tokens, a second
finish_reason, a different model answering) and a 404 that read as the client's fault."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest

from guardian.backends import BackendRequest
from guardian.backends.upstream.backend import UpstreamBackend
from guardian.backends.upstream.errors import UpstreamError
from guardian.backends.upstream.wire import Answer, WireError, sse_events
from tests.guardian.backends.upstream.rawserver import raw_upstream, read_request
from tests.support.upstream import pools

SSE_HEAD = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n"


def chunk(text: str, finish: str | None = None, **top: object) -> dict:
    rows = {"tokens": [text], "token_logprobs": [-0.1], "top_logprobs": [{text: -0.1, "b": -2}]}
    return {"id": "cmpl-1", "model": "ok", **top,
            "choices": [{"index": 0, "text": text, "finish_reason": finish,
                         "logprobs": rows if text else None}]}


def sse(*objs: dict) -> bytes:
    return b"".join(b"data: " + json.dumps(o).encode() + b"\n\n" for o in objs) \
        + b"data: [DONE]\n\n"


def whole(status: int, obj: dict) -> bytes:
    raw = json.dumps(obj).encode()
    return (f"HTTP/1.1 {status} X\r\ncontent-type: application/json\r\nconnection: close\r\n"
            f"content-length: {len(raw)}\r\n\r\n").encode() + raw


ANSWERS: dict[str, bytes] = {
    "bom": SSE_HEAD + b"\xef\xbb\xbf" + sse(chunk("he"), chunk("llo"), chunk("", "stop")),
    "spliced": SSE_HEAD + sse(chunk("he"), {**chunk("EVIL", "stop"), "id": "cmpl-other"}),
    "too-long": SSE_HEAD + sse(*[chunk(f"t{i}") for i in range(6)], chunk("", "length")),
    "other-model": whole(200, {**chunk("a", "stop"), "model": "some-other-model"}),
    "not-found": whole(404, {"error": {"message": "The model `x` does not exist."}}),
    "unprocessable": whole(422, {"error": {"message": "bad stop"}}),
}


async def _handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    _line, body = await read_request(reader)
    writer.write(ANSWERS[body["model"]])
    await writer.drain()


@pytest.fixture(scope="module")
def hostile() -> Iterator[str]:
    with raw_upstream(_handle) as url:
        yield url


@pytest.fixture
def backend() -> Iterator[UpstreamBackend]:
    b = UpstreamBackend("ok", ["ok"])
    yield b
    b.close()


def req(url: str, model: str, n: int = 4) -> BackendRequest:
    return BackendRequest(prompt_ids=[], max_new_tokens=n, speculative=False, prompt_text="hi",
                          route="default", upstream=pools(url, spec="ok", target=model))


def serve(backend: UpstreamBackend, r: BackendRequest, *, stream: bool, sync: bool):
    sent: list[str] = []
    on_text = (lambda d, rows: sent.append(d)) if stream else None
    if sync:
        return backend.generate(r, on_text), sent

    async def go():
        try:
            return await asyncio.wait_for(backend.agenerate(r, on_text), 10)
        finally:
            for pool in list(backend._pools.values()):
                await pool.aclose()
    return asyncio.run(go()), sent


@pytest.mark.parametrize("sync", [False, True])
def test_a_byte_order_mark_does_not_hide_the_first_event(backend, hostile, sync) -> None:
    """A BOM before `data:` made the first line an unknown field: its text was dropped and
    the rest served as the whole answer ("llo")."""
    result, sent = serve(backend, req(hostile, "bom"), stream=True, sync=sync)
    assert result.text == "hello" and sent == ["he", "llo"]
    assert [t.token for t in result.trace] == ["he", "llo"]


@pytest.mark.parametrize("sync", [False, True])
def test_chunks_of_another_completion_are_refused(backend, hostile, sync) -> None:
    with pytest.raises(UpstreamError) as info:
        serve(backend, req(hostile, "spliced"), stream=True, sync=sync)
    assert info.value.fault == "malformed" and "cmpl-other" in info.value.detail


@pytest.mark.parametrize("sync", [False, True])
def test_more_tokens_than_max_tokens_are_refused(backend, hostile, sync) -> None:
    with pytest.raises(UpstreamError) as info:
        serve(backend, req(hostile, "too-long", n=4), stream=True, sync=sync)
    assert info.value.fault == "malformed" and "max_tokens" in info.value.detail


def test_the_model_that_answered_is_recorded_when_it_is_not_the_pools(backend, hostile) -> None:
    result, _ = serve(backend, req(hostile, "other-model"), stream=False, sync=False)
    assert result.stats["upstream_model"] == "other-model"  # the pool's name, as asked
    assert result.stats["upstream_answer_model"] == "some-other-model"


@pytest.mark.parametrize("sync", [False, True])
def test_a_404_is_the_pools_fault_not_the_clients(backend, hostile, sync) -> None:
    """The pool's model and path are the policy's, never the client's: vLLM's "model does
    not exist" is a misconfigured pool (502, counted by the breaker), not a 400."""
    with pytest.raises(UpstreamError) as info:
        serve(backend, req(hostile, "not-found"), stream=False, sync=sync)
    assert info.value.status == 502 and info.value.fault == "status"
    with pytest.raises(UpstreamError) as info:  # the client's own fields: still a 400
        serve(backend, req(hostile, "unprocessable"), stream=False, sync=sync)
    assert info.value.status == 400 and info.value.fault == "rejected"


# --- the parser alone ---------------------------------------------------------------------
def test_sse_feed_strips_a_leading_bom_only() -> None:
    lines = ["\ufeffdata: " + json.dumps(chunk("a")), "",
             "\ufeffdata: " + json.dumps(chunk("b")), "", "data: [DONE]", ""]
    assert [e["choices"][0]["text"] for e in sse_events(iter(lines))] == ["a"]


def test_a_second_finish_reason_is_refused() -> None:
    answer = Answer()
    answer.add(chunk("a", "stop"), delta=True)
    with pytest.raises(WireError, match="after"):
        answer.add({"choices": [{"index": 0, "text": "", "finish_reason": "length"}]},
                   delta=True)


def test_the_token_limit_counts_rows_across_chunks() -> None:
    answer = Answer(limit=2)
    answer.add(chunk("a"), delta=True)
    answer.add(chunk("b"), delta=True)
    with pytest.raises(WireError, match="max_tokens"):
        answer.add(chunk("c"), delta=True)
    unlimited = Answer()
    for i in range(50):
        unlimited.add(chunk(f"t{i}"), delta=True)
    assert len(unlimited.trace) == 50

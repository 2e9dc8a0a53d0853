"""A hostile upstream (a raw asyncio HTTP server answering anything) in front of
UpstreamBackend: every answer it can give ends as a served result or an UpstreamError
(502/504), bounded in time and memory, with nothing false recorded and no redirect followed."""

from __future__ import annotations

import asyncio
import gzip
import json
import time
from collections.abc import Awaitable, Callable, Iterator

import pytest

from guardian.backends import BackendRequest
from guardian.backends.upstream.backend import UpstreamBackend
from guardian.backends.upstream.errors import UpstreamError
from guardian.backends.upstream.wire import MAX_ALTERNATIVES, Answer, WireError
from tests.guardian.backends.upstream.rawserver import raw_upstream, read_request
from tests.support.upstream import pools

Writer = asyncio.StreamWriter
Scenario = Callable[[Writer, dict], Awaitable[None]]
SCENARIOS: dict[str, Scenario] = {}
HITS: list[str] = []  # request lines the hostile server saw


def scenario(name: str) -> Callable[[Scenario], Scenario]:
    def deco(fn: Scenario) -> Scenario:
        SCENARIOS[name] = fn
        return fn
    return deco


def head(status: int = 200, ctype: str = "application/json", extra: str = "",
         length: int | None = None) -> bytes:
    lines = [f"HTTP/1.1 {status} X", f"content-type: {ctype}", "connection: close"]
    if length is not None:
        lines.append(f"content-length: {length}")
    return ("\r\n".join(lines) + "\r\n" + extra + "\r\n").encode()


async def whole(w: Writer, obj: object, status: int = 200) -> None:
    raw = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
    w.write(head(status, length=len(raw)) + raw)
    await w.drain()


def choice(text: str = "a", finish: str | None = "stop", **kw: object) -> dict:
    return {"index": 0, "text": text, "finish_reason": finish,
            "logprobs": {"tokens": [text], "token_logprobs": [-0.1],
                         "top_logprobs": [{text: -0.1, "b": -2.0}]}, **kw}


def sse(*objs: object, done: bool = True) -> bytes:
    out = b"".join(b"data: " + json.dumps(o).encode() + b"\n\n" for o in objs)
    return out + (b"data: [DONE]\n\n" if done else b"")


async def _handle(reader: asyncio.StreamReader, writer: Writer) -> None:
    line, body = await read_request(reader)
    HITS.append(line)
    await SCENARIOS[body.get("model", "ok")](writer, body)


@pytest.fixture(scope="module")
def hostile() -> Iterator[str]:
    with raw_upstream(_handle) as url:
        yield url


@pytest.fixture
def backend() -> Iterator[UpstreamBackend]:
    b = UpstreamBackend("ok", ["ok"])
    yield b
    b.close()


def req(url: str, model: str, *, n: int = 4, failover: bool = False, total: float = 5.0,
        **pool_kw: object) -> BackendRequest:
    p = pools(url, spec=model, target="ok", failover=failover, **pool_kw)
    p = p.model_copy(update={"speculative": p.speculative.model_copy(
        update={"total_timeout_s": total})})
    return BackendRequest(prompt_ids=[], max_new_tokens=n, speculative=True, prompt_text="hi",
                          route="default", upstream=p)


def agen(backend: UpstreamBackend, r: BackendRequest, stream: bool = False, timeout: float = 10):
    sent: list[str] = []

    async def go():
        try:
            return await backend.agenerate(r, (lambda d, rows: sent.append(d)) if stream
                                           else None)
        finally:
            for pool in list(backend._pools.values()):
                await pool.aclose()

    async def bounded():
        return await asyncio.wait_for(go(), timeout)
    return asyncio.run(bounded()), sent


# --- scenarios --------------------------------------------------------------------------
@scenario("ok")
async def _ok(w: Writer, body: dict) -> None:
    await whole(w, {"id": "x", "choices": [choice()]})


@scenario("redirect")
async def _redirect(w: Writer, body: dict) -> None:
    # 307 keeps the method and body: the prompt would be POSTed to the Location.
    host, port = w.get_extra_info("sockname")[:2]
    target = f"http://{host}:{port}/v1/completions?followed=1"
    w.write(head(307, extra=f"location: {target}\r\n", length=0))
    await w.drain()


@scenario("done-then-hang")
async def _done_then_hang(w: Writer, body: dict) -> None:
    w.write(head(ctype="text/event-stream") + sse({"choices": [choice("a", None)]},
                                                  {"choices": [choice("b", "stop")]}))
    await w.drain()
    await asyncio.sleep(30)  # the connection stays open: the answer is complete anyway


@scenario("gzip-big")
async def _gzip_big(w: Writer, body: dict) -> None:
    raw = json.dumps({"choices": [{"index": 0, "text": "a" * (24 << 20),
                                   "finish_reason": "stop"}]}).encode()
    packed = gzip.compress(raw, 1)
    w.write(head(extra="content-encoding: gzip\r\n", length=len(packed)) + packed)
    await w.drain()


@scenario("multiline-event")
async def _multiline(w: Writer, body: dict) -> None:
    # One SSE event of 1.5 M data: lines (valid JSON once joined): no blank line for ~6 MB.
    start = b'data: {"choices": [{"index": 0, "text": "a", "finish_reason": "stop", "x": [\n'
    w.write(head(ctype="text/event-stream") + start + b"data: 0,\n" * 1_500_000
            + b"data: 0]}]}\n\ndata: [DONE]\n\n")
    await w.drain()


FLAKY = {"slow": False}


@scenario("flaky")
async def _flaky(w: Writer, body: dict) -> None:
    if FLAKY["slow"]:
        await asyncio.sleep(30)
    await whole(w, {"error": {"message": "down"}}, 500)


@scenario("deep")
async def _deep(w: Writer, body: dict) -> None:
    await whole(w, b"[" * 200_000 + b"]" * 200_000)


@scenario("evil-error")
async def _evil_error(w: Writer, body: dict) -> None:
    await whole(w, {"error": {"message": "\x1b[31mFATAL\x1b[0m\nforged log line " + "z" * 10_000}},
                503)


@scenario("proxy-page")
async def _proxy_page(w: Writer, body: dict) -> None:
    raw = b"dial tcp 10.0.3.7:8000: connect: connection refused"
    w.write(head(502, ctype="text/plain", length=len(raw)) + raw)
    await w.drain()


@scenario("text-then-garbage")
async def _text_then_garbage(w: Writer, body: dict) -> None:
    w.write(head(ctype="text/event-stream") + sse(
        {"choices": [choice("hello", None)]},
        {"choices": [{"index": 0, "text": "", "finish_reason": None, "logprobs": {"content": 5}}]}))
    await w.drain()


@scenario("comment-drip")
async def _comment_drip(w: Writer, body: dict) -> None:
    w.write(head(ctype="text/event-stream"))
    for _ in range(600):  # keep-alive comments for 30 s: each resets a read timeout
        w.write(b": ping\n")
        await w.drain()
        await asyncio.sleep(0.05)


@scenario("header-drip")
async def _header_drip(w: Writer, body: dict) -> None:
    # A status line, then one header byte every 0.2 s for 30 s: every byte arrives well
    # within the 1 s read timeout, so only a deadline on the whole exchange ends it.
    w.write(b"HTTP/1.1 200 OK\r\nx-drip: ")
    await w.drain()
    for _ in range(150):
        await asyncio.sleep(0.2)
        w.write(b"a")
        await w.drain()


# --- tests ------------------------------------------------------------------------------
def test_a_redirect_is_a_fault_not_followed(backend, hostile) -> None:
    """A pool answering 307 to another address (a metadata URL, an internal host): the
    sidecar must not POST the prompt there."""
    HITS.clear()
    with pytest.raises(UpstreamError) as info:
        agen(backend, req(hostile, "redirect"))
    assert info.value.fault == "status" and info.value.status == 502
    assert not any("followed=1" in h for h in HITS), HITS


def test_a_complete_stream_is_served_though_the_connection_stays_open(backend, hostile) -> None:
    started = time.monotonic()
    result, sent = agen(backend, req(hostile, "done-then-hang", total=4.0), stream=True)
    assert result.text == "ab" and sent == ["a", "b"]
    assert time.monotonic() - started < 2.5  # not the total timeout (nor a 504 after text)


def test_a_compressed_giant_answer_is_refused_not_read_whole(backend, hostile) -> None:
    with pytest.raises(UpstreamError) as info:
        agen(backend, req(hostile, "gzip-big"))
    assert info.value.fault == "malformed" and "longer than" in info.value.detail


def test_an_sse_event_of_endless_data_lines_is_refused(backend, hostile) -> None:
    with pytest.raises(UpstreamError) as info:
        agen(backend, req(hostile, "multiline-event"), stream=True)
    assert info.value.fault == "malformed" and "SSE event is longer" in info.value.detail


def test_deeply_nested_json_is_a_502_not_a_crash(backend, hostile) -> None:
    with pytest.raises(UpstreamError) as info:
        agen(backend, req(hostile, "deep"))
    assert info.value.fault == "malformed"


def test_garbage_after_streamed_text_is_a_fault_without_failover(backend, hostile) -> None:
    """A parser crash must not escape as a plain exception: the serving core would fail over
    to the target-only pool after text was already streamed (no `no_fallback`)."""
    with pytest.raises(UpstreamError) as info:
        agen(backend, req(hostile, "text-then-garbage", failover=True), stream=True)
    assert info.value.fault == "malformed" and info.value.no_fallback


def test_an_upstream_error_message_is_short_and_one_printable_line(backend, hostile) -> None:
    with pytest.raises(UpstreamError) as info:
        agen(backend, req(hostile, "evil-error"))
    msg = info.value.message
    assert "FATAL" in msg and len(msg) < 400
    assert "\x1b" not in msg and "\n" not in msg


def test_a_non_openai_error_body_is_not_shown_to_the_client(backend, hostile) -> None:
    """A proxy's error page in front of the pool names internal addresses: audit/log only."""
    with pytest.raises(UpstreamError) as info:
        agen(backend, req(hostile, "proxy-page"))
    assert "10.0.3.7" not in info.value.message and "HTTP 502" in info.value.message
    assert "10.0.3.7" in info.value.detail  # the audit record keeps it


def test_a_cancelled_probe_frees_the_half_open_breaker(backend, hostile) -> None:
    """A request cancelled while it probes a half-open pool (the client left) must give the
    probe slot back; else the pool's breaker stays open for good."""
    r = req(hostile, "flaky", breaker_failures=1, breaker_reset_s=0.2)
    FLAKY["slow"] = False
    with pytest.raises(UpstreamError):
        agen(backend, r)
    pool = backend.pool(r.upstream.speculative, r.upstream)
    time.sleep(0.25)
    assert pool.breaker.state == "half_open"
    FLAKY["slow"] = True
    with pytest.raises(TimeoutError):
        agen(backend, r, timeout=0.3)  # cancelled mid-probe
    assert pool.breaker.allow()  # the next request may probe


def test_the_shadow_path_stops_an_endless_comment_drip(backend, hostile) -> None:
    """The sync client (the shadow worker): keep-alive comments reset the read timeout, so
    only `total_timeout_s` ends the call; it must be checked on every chunk."""
    started = time.monotonic()
    with pytest.raises(UpstreamError) as info:
        backend.generate(req(hostile, "comment-drip", total=1.0), lambda d, rows: None)
    assert info.value.fault == "timeout" and time.monotonic() - started < 4


def test_the_shadow_path_stops_a_header_drip_at_the_total_timeout(backend, hostile) -> None:
    """The sync client (the shadow worker): httpx's timeouts are per socket operation, so
    header bytes that each come within the read timeout never end one; the call's whole
    deadline bounds every read, headers included: a 504 `timeout`, the breaker told."""
    r = req(hostile, "header-drip", total=1.0)
    started = time.monotonic()
    with pytest.raises(UpstreamError) as info:
        backend.generate(r)
    elapsed = time.monotonic() - started
    assert info.value.fault == "timeout" and info.value.status == 504
    assert 0.9 < elapsed < 1.5, elapsed
    assert backend.pool(r.upstream.speculative, r.upstream).breaker._consecutive == 1
    # and the deadline is the call's only: the next call on this thread is not cut short
    result = backend.generate(req(hostile, "ok", total=1.0))
    assert result.text == "a"


def test_the_serving_path_stops_a_header_drip_at_the_total_timeout(backend, hostile) -> None:
    """The async client (serving): its `asyncio.timeout(total_timeout_s)` covers the
    headers too."""
    started = time.monotonic()
    with pytest.raises(UpstreamError) as info:
        agen(backend, req(hostile, "header-drip", total=1.0))
    assert info.value.fault == "timeout" and time.monotonic() - started < 1.5


# --- the wire parser, value by value ------------------------------------------------------
def _completion(**choice_kw: object) -> dict:
    return {"choices": [{**choice(), **choice_kw}]}


@pytest.mark.parametrize("logprobs", [
    {"content": 5},
    {"content": [{"token": "a", "logprob": -1, "top_logprobs": 7}]},
    {"tokens": 5, "token_logprobs": [-1]},
    {"tokens": ["a"], "token_logprobs": [-1], "top_logprobs": {"x": 1}},
    {"tokens": ["a"], "token_logprobs": [-1], "top_logprobs": [[1]]},
])
def test_odd_logprob_shapes_are_malformed_not_a_crash(logprobs) -> None:
    with pytest.raises(WireError):
        Answer().add(_completion(logprobs=logprobs), delta=False)


def test_a_huge_integer_logprob_is_clamped_not_a_crash() -> None:
    data = json.loads('{"choices": [{"text": "a", "finish_reason": "stop", "logprobs": '
                      '{"tokens": ["a"], "token_logprobs": [-1' + "0" * 400 + '], '
                      '"top_logprobs": [{"a": 1' + "0" * 400 + ', "b": -1}]}}]}')
    answer = Answer()
    answer.add(data, delta=False)
    (row,) = answer.trace
    assert row.target_prob == pytest.approx(0.0) and row.top_logprobs[0].logprob == 0.0


@pytest.mark.parametrize("reason", ["abort", "content_filter", "error", 7, ["stop"]])
def test_a_finish_reason_outside_the_set_is_not_recorded_as_stop(reason) -> None:
    with pytest.raises(WireError, match="finish_reason"):
        Answer().add(_completion(finish_reason=reason), delta=False)


def test_a_second_choice_or_another_index_is_refused() -> None:
    with pytest.raises(WireError, match="2 choices"):
        Answer().add({"choices": [choice(), {**choice(), "index": 1}]}, delta=False)
    answer = Answer()
    answer.add({"choices": [choice("a", None)]}, delta=True)
    with pytest.raises(WireError, match="index"):
        answer.add({"choices": [{**choice("b", None), "index": 1}]}, delta=True)


def test_text_after_the_finish_reason_is_refused() -> None:
    answer = Answer()
    answer.add({"choices": [choice("a", "stop")]}, delta=True)
    with pytest.raises(WireError, match="after"):
        answer.add({"choices": [choice("b", None)]}, delta=True)


def test_token_ids_out_of_range_are_unknown() -> None:
    for token in ("token_id:99999999999999999999999", "token_id:-5"):
        answer = Answer()
        answer.add(_completion(text=token, logprobs={"tokens": [token], "token_logprobs": [-1],
                                                     "top_logprobs": [None]}), delta=False)
        assert answer.trace[0].token_id == -1


def test_thousands_of_alternatives_are_cut_to_the_most_asked_for() -> None:
    tops = {f"t{i}": -1.0 - i / 1000 for i in range(5000)}
    answer = Answer()
    answer.add(_completion(logprobs={"tokens": ["a"], "token_logprobs": [-1],
                                     "top_logprobs": [tops]}), delta=False)
    alts = answer.trace[0].top_logprobs
    assert len(alts) == MAX_ALTERNATIVES and alts[0].token == "t0"


def test_usage_and_spec_stats_that_lie_are_not_recorded(backend) -> None:
    answer = Answer()
    answer.add({"id": {"nested": ["x"] * 10}, "usage": {"prompt_tokens": "abc",
                "completion_tokens": -3, "total_tokens": 1e308},
                "spec_decode": {"proposed_tokens": 4, "accepted": 9, "steps": 1},
                "choices": [choice()]}, delta=False)
    assert answer.usage == {} and answer.spec is None and answer.upstream_id is None
    answer = Answer()
    answer.add({"spec_decode": {"proposed_tokens": "x", "accepted": float("inf")},
                "choices": [choice()]}, delta=False)
    assert answer.spec is None
    # and the result is built (no int("abc") in the serving path)
    r = BackendRequest(prompt_ids=[], max_new_tokens=4, speculative=True, prompt_text="hi")
    p = pools("http://127.0.0.1:9/v1")
    result = backend._result(backend.pool(p.speculative, p), answer, r, 0.1, 0.1)
    # a count the pool did not give (validly) is not reported (None), never a made-up 0
    assert result.stats["prompt_tokens"] is None and result.counters.accepted == 0
    assert set(result.stats["unreported"]) == {"proposed_tokens", "judged_tokens", "accepted",
                                                "steps"}

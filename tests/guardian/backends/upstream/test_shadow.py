"""Shadow across pools: the verdicts from both pools' logprobs, and bounded shadow load."""

from __future__ import annotations

import math
import time
from dataclasses import replace

from engine.metrics import SpecCounters
from guardian.audit.events import ShadowEvent
from guardian.backends import BackendResult, Timings, TokenLogprob, TraceToken
from guardian.equivalence.pool_shadow import judge_greedy, judge_sampled, topk_tv_lower_bound
from tests.guardian.backends.upstream.test_sidecar import AUTH, make  # noqa: F401  (fixture)


def _tok(i: int, text: str, margin: float = 3.0,
         alts: tuple[tuple[str, float], ...] = ()) -> TraceToken:
    return TraceToken(i, -1, "upstream", None, 0.9, margin, i, 0, token=text,
                      top_logprobs=tuple(TokenLogprob(t, lp) for t, lp in alts))


def _res(tokens: list[TraceToken]) -> BackendResult:
    return BackendResult([], [t.token_id for t in tokens], "".join(t.token for t in tokens),
                         "length", tokens, False, SpecCounters(), Timings())


def test_greedy_compares_token_texts_and_uses_the_target_margin() -> None:
    same = _res([_tok(0, " a"), _tok(1, " b")])
    assert judge_greedy(same, _res([_tok(0, " a"), _tok(1, " b")]), True, 0.5, 8).verdict == "match"
    spec = _res([_tok(0, " a"), _tok(1, " b")])
    near = _res([_tok(0, " a"), _tok(1, " c", margin=0.1)])  # target-only pool: a near tie
    r = judge_greedy(spec, near, True, 0.5, 8)
    assert (r.verdict, r.first_divergence_position, r.margin_at_divergence) == ("near_tie", 1, 0.1)
    assert r.details["served_token"] == " b" and r.details["shadow_token"] == " c"
    far = _res([_tok(0, " a"), _tok(1, " c", margin=4.0)])
    assert judge_greedy(spec, far, True, 0.5, 8).verdict == "divergence"


def test_greedy_answer_without_token_rows_is_judged_by_its_text() -> None:
    # llama.cpp answers no logprobs to a streamed request with tools (the sidecar does not
    # ask, guardian.backends.upstream.wire): no rows against the shadow's rows is no evidence
    # of a divergence at position 0; the texts are compared instead
    bare = BackendResult([], [], " a b", "stop", [], False, SpecCounters(), Timings())
    rows = replace(_res([_tok(0, " a"), _tok(1, " b")]), finish_reason="stop")
    r = judge_greedy(bare, rows, True, 0.5, 8)
    assert r.verdict == "match" and r.details["compared"] == "text"
    assert "tokens" in r.details["unchecked"]
    assert judge_greedy(rows, bare, False, 0.5, 8).verdict == "match"
    other = replace(_res([_tok(0, " a"), _tok(1, " c")]), finish_reason="stop")
    r = judge_greedy(bare, other, True, 0.5, 8)
    assert r.verdict == "divergence" and r.details["first_differing_char"] == 3
    cut = _res([_tok(0, " a")])  # the shadow stopped at its cap ("length"): a prefix matches
    assert judge_greedy(bare, cut, True, 0.5, 8).verdict == "match"
    stopped = replace(cut, finish_reason="stop")  # ... one that stopped there by itself: not
    assert judge_greedy(bare, stopped, True, 0.5, 8).verdict == "divergence"
    empty = BackendResult([], [], "", "stop", [], False, SpecCounters(), Timings())
    assert judge_greedy(empty, _res([]), True, 0.5, 8).verdict == "match"  # tool calls only


def test_topk_lower_bound() -> None:
    a = [TokenLogprob("x", math.log(0.6)), TokenLogprob("y", math.log(0.3))]
    assert topk_tv_lower_bound(a, a) == 0
    b = [TokenLogprob("x", math.log(0.3)), TokenLogprob("z", math.log(0.2))]
    # x: 0.3 apart; y missing from b (<= 0.2 there): >= 0.1; z missing from a (<= 0.3): >= 0
    assert math.isclose(topk_tv_lower_bound(a, b), 0.2)
    assert topk_tv_lower_bound([], a) is None


def test_sampled_judged_as_far_as_topk_allows() -> None:
    alts = ((" a", math.log(0.5)), (" b", math.log(0.4)))
    one = _res([_tok(0, " a", alts=alts), _tok(1, " q", alts=alts)])
    two = _res([_tok(0, " a", alts=alts), _tok(1, " r", alts=alts)])
    ok = judge_sampled(one, two, 0.02, 8)
    assert ok.verdict == "distribution_ok" and ok.details["checked_positions"] == 2
    assert "mass_outside_top_k" in ok.details["unchecked"]
    skewed = ((" a", math.log(0.8)), (" b", math.log(0.1)))
    bad = judge_sampled(one, _res([_tok(0, " a", alts=skewed)]), 0.02, 8)
    assert bad.verdict == "distribution_mismatch" and bad.first_divergence_position == 0
    none = judge_sampled(_res([_tok(0, " a")]), _res([_tok(0, " a")]), 0.02, 8)
    assert none.details["unchecked"][0] == "topk_tv_lower_bound"


def _wait(pred, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_a_served_request_is_shadowed_on_the_other_pool(make) -> None:  # noqa: F811
    client, sink = make("speculative", sample_rate=1.0)
    for temperature in (0.0, 0.8):
        r = client.post("/v1/completions", headers=AUTH, json={
            "model": "fake-target", "prompt": "x", "max_tokens": 3,
            "temperature": temperature})
        assert r.status_code == 200
    _wait(lambda: len(sink.of(ShadowEvent)) == 2)
    greedy, sampled = sorted(sink.of(ShadowEvent), key=lambda e: e.tolerance == 0.02)
    assert greedy.verdict == "match" and greedy.shadow_path == "target_only"
    assert greedy.stats["shadow_pool"] == "target_only"
    assert [t.origin for t in greedy.shadow_trace] == ["upstream"] * 3
    assert sampled.verdict == "distribution_ok" and sampled.stats["checked_positions"] == 3


def test_shadow_load_is_bounded_and_shed(make) -> None:  # noqa: F811
    client, sink = make("speculative", sample_rate=1.0, target_kw={"shadow_concurrency": 0})
    r = client.post("/v1/completions", headers=AUTH,
                    json={"model": "fake-target", "prompt": "x", "max_tokens": 3})
    assert r.status_code == 200
    shadow = client.services.core.shadow
    _wait(lambda: shadow.shed == 1)
    assert sink.of(ShadowEvent) == []


def test_a_header_dripping_shadow_pool_is_cut_off_and_the_worker_freed(make, caplog) -> None:  # noqa: F811
    """The shadow pool sends one header byte every 0.2 s (each within the 1 s read timeout):
    the shadow call ends at the pool's total_timeout_s as an upstream `timeout` fault (the
    breaker told, logged, counted as a failed shadow, no verdict recorded) and its
    `shadow_concurrency` slot is free again."""
    import asyncio

    from tests.guardian.backends.upstream.rawserver import raw_upstream, read_request

    async def drip(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nx-drip: ")
        for _ in range(150):
            await writer.drain()
            await asyncio.sleep(0.2)
            writer.write(b"a")

    with raw_upstream(drip) as url:
        client, sink = make("speculative", sample_rate=1.0, target_kw={
            "url": url, "total_timeout_s": 1.0, "shadow_concurrency": 1})
        shadow = client.services.core.shadow
        started = time.monotonic()
        r = client.post("/v1/completions", headers=AUTH,
                        json={"model": "fake-target", "prompt": "x", "max_tokens": 3})
        assert r.status_code == 200, r.text  # served by the speculative (fake) pool
        _wait(lambda: shadow.failed == 1, timeout=5)
        assert time.monotonic() - started < 2.5
    assert shadow.completed == 0 and sink.of(ShadowEvent) == []
    assert set(shadow._inflight.values()) == {0}  # the slot is back
    assert any("upstream fault" in m and "timeout" in m for m in caplog.messages)

"""A pool's /metrics exposition read as speculative counters (llama.cpp's and vLLM's names),
and what is not a count is left out rather than read as 0."""

from __future__ import annotations

from guardian.backends.upstream.poolmetrics import PoolMetrics, metrics_url, parse_spec_counters
from guardian.policy import Policy, RoutePolicy
from tests.support.upstream import pools

LLAMACPP = """# HELP llamacpp:spec_decode_num_draft_tokens_total Number of draft tokens.
# TYPE llamacpp:spec_decode_num_draft_tokens_total counter
llamacpp:prompt_tokens_total 39
llamacpp:spec_decode_num_draft_tokens_total 26
llamacpp:spec_decode_num_accepted_tokens_total 13
llamacpp:spec_decode_num_drafts_total 2
"""
VLLM = """vllm:spec_decode_num_draft_tokens_total{engine="0",model_name="m"} 40.0
vllm:spec_decode_num_draft_tokens_total{engine="1",model_name="m"} 60.0
vllm:spec_decode_num_accepted_tokens_total{engine="0",model_name="m"} 30.0
vllm:spec_decode_num_accepted_tokens_total{engine="1",model_name="m"} 20.0
vllm:spec_decode_num_drafts_total{engine="0",model_name="m"} 25.0
"""


def test_llamacpp_and_vllm_counters() -> None:
    source, c = parse_spec_counters(LLAMACPP)
    assert source == "llamacpp" and (c.proposed, c.accepted, c.steps) == (26, 13, 2)
    source, c = parse_spec_counters(VLLM)
    assert source == "vllm" and (c.proposed, c.accepted, c.steps) == (100, 50, 25)
    assert c.acceptance_rate == 0.5


def test_no_counters_is_not_reported() -> None:
    assert parse_spec_counters("llamacpp:prompt_tokens_total 3\n") is None
    assert parse_spec_counters("llamacpp:spec_decode_num_draft_tokens_total 4\n") is None
    assert parse_spec_counters("vllm:spec_decode_num_draft_tokens_total NaN\n"
                               "vllm:spec_decode_num_accepted_tokens_total 1\n") is None


def test_gauges_per_route_and_a_silent_pool_left_out() -> None:
    def fetch(url: str, headers: dict[str, str]) -> str:
        if "9001" in url:
            return LLAMACPP
        raise ValueError("not a metrics page")

    policy = Policy(routes={"default": RoutePolicy(upstream=pools("http://127.0.0.1:9001/v1")),
                            "other": RoutePolicy(upstream=pools("http://127.0.0.1:9002/v1"))})
    rows = PoolMetrics(lambda: policy, fetch).gauge_rows()
    assert {r[2]["route"] for r in rows} == {"default"}
    rate = next(r for r in rows if r[0] == "guardian_upstream_pool_acceptance_rate")
    assert rate[3] == 0.5 and rate[2]["source"] == "llamacpp"
    assert metrics_url("http://h:8080/v1/") == "http://h:8080/metrics"

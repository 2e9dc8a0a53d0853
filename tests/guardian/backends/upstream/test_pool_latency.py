"""Per-token latency of pool answers: a whole answer from a pool that sends no timings says it
has none (the latency trigger skips it), instead of the microseconds between parsing its
first and last token; a streamed one is timed as its tokens came."""

from __future__ import annotations

from datetime import UTC, datetime

from guardian.audit.events import RequestEvent
from guardian.backends import BackendRequest
from guardian.backends.upstream.backend import UpstreamBackend
from guardian.governance.windows import RouteWindow
from guardian.serving.core import ServingCore, stats_dict
from tests.support.upstream import pools


def _event(result, served_path: str = "speculative") -> RequestEvent:
    return RequestEvent(
        request_id="r1", created_at=datetime.now(UTC), route="default", mode="speculative",
        served_path=served_path, pair_hash="p", policy_hash="h", endpoint="completions",
        redaction="full", prompt_text="hi", completion_text=result.text, prompt_token_ids=[],
        completion_token_ids=list(result.token_ids), finish_reason="length", params={},
        queue_time_s=0.0, compute_time_s=result.timings.total_s,
        time_to_first_token_s=result.timings.time_to_first_token_s,
        time_per_output_token_s=ServingCore._tpot(result), stats=stats_dict(result), trace=[])


def test_a_whole_answer_without_pool_timings_has_no_per_token_latency(upstream_url) -> None:
    backend = UpstreamBackend("fake-target", ["fake-spec"])
    try:
        whole = backend.generate(BackendRequest(prompt_ids=[], max_new_tokens=6,
                                                speculative=True, prompt_text="hi",
                                                route="default", upstream=pools(upstream_url)))
        streamed = backend.generate(BackendRequest(
            prompt_ids=[], max_new_tokens=6, speculative=True, prompt_text="hi",
            route="default", upstream=pools(upstream_url)), lambda _d, _r: None)
    finally:
        backend.close()
    assert whole.stats["latency_unreported"] is True
    assert "latency_unreported" not in streamed.stats
    assert streamed.stats["latency_source"] == "stream"
    window = RouteWindow("default")
    window.observe_request(_event(whole))
    assert not window.served_latency  # no 0-second sample for the latency trigger
    window.observe_request(_event(streamed))
    assert len(window.served_latency) == 1

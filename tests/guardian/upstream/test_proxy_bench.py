"""`guardian bench proxy`'s measuring loop, against the fake upstream on both sides."""

from __future__ import annotations

import os

from guardian.benchmarks.proxy_bench import _pct, cpu_seconds, run


def test_run_reports_every_level_and_side(upstream_url) -> None:
    base = upstream_url.removesuffix("/v1")
    out = run(base, base, "fake-target", "fake-target", [1, 2], requests=8, rounds=2,
              max_tokens=3, sidecar_pid=os.getpid())
    assert set(out) == {"c1", "c2"}
    for level in out.values():
        for label in ("latency", "ttft"):
            m = level[label]
            assert m["errors"] == {}
            assert 0 < m["direct_p50_ms"] <= m["direct_p99_ms"]
            assert abs(m["added_p50_ms"] - (m["proxied_p50_ms"] - m["direct_p50_ms"])) < 0.01
            assert m["sidecar_cpu_ms_per_request"] >= 0
        assert level["throughput_rps"]["direct"] > 0 and level["throughput_ratio"] > 0


def test_errors_are_counted_by_kind(upstream_url) -> None:
    base = upstream_url.removesuffix("/v1")
    out = run(base, base, "fake-target", "fault-500", [1], requests=4, rounds=1, max_tokens=2)
    assert out["c1"]["latency"]["errors"] == {"proxied": {"HTTP 500": 4}}


def test_helpers() -> None:
    assert _pct([3.0, 1.0, 2.0], 0.5) == 2.0 and _pct([1.0, 2.0], 0.99) == 2.0
    assert cpu_seconds(os.getpid()) is not None and cpu_seconds(None) is None

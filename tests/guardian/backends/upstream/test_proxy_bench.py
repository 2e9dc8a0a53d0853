"""`guardian bench proxy`'s measuring loop, against the fake upstream on both sides."""

from __future__ import annotations

import os

from guardian.devtools.benchmarks.proxy_bench import _pct, cpu_seconds, run


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


def test_open_loop_keeps_the_schedule_and_counts_from_it(upstream_url) -> None:
    import asyncio

    from guardian.devtools.benchmarks.proxy_bench import _batch

    base = upstream_url.removesuffix("/v1")
    # 12 requests due 25 ms apart: the batch cannot finish before the last one is due.
    times, wall, errors = asyncio.run(_batch(base, "fake-target", 12, 4, False, 2, rate=40.0))
    assert not errors and len(times) == 12 and wall >= 11 / 40
    # Offered far above what one connection can answer: each request waits for the one
    # before it, and that wait is in its latency (no coordinated omission), so the latencies
    # grow along the schedule instead of staying at one request's time.
    times, wall, _ = asyncio.run(_batch(base, "fake-target", 30, 1, False, 2, rate=1e5))
    assert max(times) > 5 * min(times)
    assert max(times) >= wall - 30 / 1e5 - 0.05


def test_run_names_open_loop_levels(upstream_url) -> None:
    base = upstream_url.removesuffix("/v1")
    out = run(base, base, "fake-target", "fake-target", [2], requests=8, rounds=1,
              max_tokens=2, rates=[100.0, 200.0])
    assert set(out) == {"c2@100rps", "c2@200rps"}
    assert out["c2@200rps"]["loop"] == "open" and out["c2@200rps"]["offered_rps"] == 200.0
    assert out["c2@100rps"]["latency"]["errors"] == {}


def test_the_bare_proxy_does_the_wire_work_and_the_bench_reports_the_floor(
        upstream_url, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    import httpx

    from guardian.devtools.benchmarks.proxy_bench import _maybe_floor

    base = upstream_url.removesuffix("/v1")
    env = {**os.environ}
    with _maybe_floor(True, base, env, tmp_path) as floor:
        assert floor is not None
        body = {"model": "fake-target", "prompt": "hi", "max_tokens": 3}
        plain = httpx.post(f"{floor}/v1/completions", json=body, timeout=10).json()
        assert plain["choices"][0]["text"] == " w0 w1 w2"
        assert plain["choices"][0]["logprobs"] is None  # asked of the upstream, stripped
        # A client that asks for 1 alternative gets the 2 the audit needs (as the sidecar
        # asks for them).
        asked = httpx.post(f"{floor}/v1/completions", json={**body, "logprobs": 1},
                           timeout=10).json()
        assert [len(t) for t in asked["choices"][0]["logprobs"]["top_logprobs"]] == [2, 2, 2]
        chat = httpx.post(f"{floor}/v1/chat/completions", json={
            "model": "fake-target", "messages": [{"role": "user", "content": "hi"}],
            "max_tokens": 2, "stream": True}, timeout=10)
        events = [json.loads(line[6:]) for line in chat.text.splitlines()
                  if line.startswith("data: {")]
        assert events and all(c.get("logprobs") is None for e in events for c in e["choices"])
        assert chat.text.rstrip().endswith("data: [DONE]")
        out = run(base, base, "fake-target", "fake-target", [1], requests=8, rounds=2,
                  max_tokens=3, floor_base=floor)
    m = out["c1"]["latency"]
    assert m["errors"] == {} and 0 < m["floor_p50_ms"] <= m["floor_p99_ms"]
    assert abs(m["own_p50_ms"] - (m["proxied_p50_ms"] - m["floor_p50_ms"])) < 0.01
    assert abs(m["floor_added_p50_ms"] - (m["floor_p50_ms"] - m["direct_p50_ms"])) < 0.01
    assert out["c1"]["throughput_rps"]["floor"] > 0


def test_a_floor_that_answers_nothing_is_reported_not_a_crash(upstream_url) -> None:  # type: ignore[no-untyped-def]
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        dead = s.getsockname()[1]
    base = upstream_url.removesuffix("/v1")
    out = run(base, base, "fake-target", "fake-target", [1], requests=4, rounds=1,
              max_tokens=2, floor_base=f"http://127.0.0.1:{dead}")
    assert out["c1"]["latency"]["errors"]["floor"]
    assert "own_p50_ms" not in out["c1"]["latency"]


def test_a_baseline_side_is_measured_and_compared(upstream_url) -> None:  # type: ignore[no-untyped-def]
    base = upstream_url.removesuffix("/v1")
    out = run(base, base, "fake-target", "fake-target", [1], requests=8, rounds=2,
              max_tokens=3, baseline_base=base)
    m = out["c1"]["latency"]
    assert m["errors"] == {} and 0 < m["baseline_p50_ms"] <= m["baseline_p99_ms"]
    assert abs(m["vs_baseline_p50_ms"] - (m["proxied_p50_ms"] - m["baseline_p50_ms"])) < 0.01
    assert abs(m["baseline_added_p99_ms"] - (m["baseline_p99_ms"] - m["direct_p99_ms"])) < 0.01
    assert out["c1"]["throughput_rps"]["baseline"] > 0
    vs = out["c1"]["vs_baseline_throughput"]
    rps = out["c1"]["throughput_rps"]
    assert abs(vs["ratio"] - rps["proxied"] / rps["baseline"]) < 0.01
    assert len(vs["per_round"]) == 2 and all(r > 0 for r in vs["per_round"])


def test_the_baseline_sidecar_runs_the_other_checkouts_code(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`--baseline ROOT` starts `guardian serve` from ROOT's packages, not this checkout's."""
    import httpx

    from guardian.devtools.benchmarks.proxy_bench import _maybe_baseline

    root = tmp_path / "other"
    (root / "guardian" / "cli").mkdir(parents=True)
    (root / "guardian" / "__init__.py").write_text("")
    (root / "guardian" / "cli" / "__init__.py").write_text(
        "import http.server, sys\n"
        "def main():\n"
        "    port = int(sys.argv[sys.argv.index('--port') + 1])\n"
        "    class H(http.server.BaseHTTPRequestHandler):\n"
        "        def do_GET(self):\n"
        "            self.send_response(200); self.end_headers(); self.wfile.write(b'other')\n"
        "        def log_message(self, *a): pass\n"
        "    http.server.HTTPServer(('127.0.0.1', port), H).serve_forever()\n")
    home = tmp_path / "home"
    home.mkdir()
    with _maybe_baseline(root, {**os.environ, "PYTHONPATH": os.getcwd()}, home,
                         "warning") as url:
        assert url is not None
        assert httpx.get(f"{url}/readyz", timeout=5).text == "other"


def test_the_cli_refuses_a_baseline_that_is_not_a_checkout(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    from guardian.cli import app

    out = CliRunner().invoke(app, ["bench", "proxy", "--baseline", str(tmp_path)],
                             env={"COLUMNS": "400"})
    assert out.exit_code == 2 and "not a checkout of spec-guardian" in out.output

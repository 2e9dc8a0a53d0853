"""Governance overhead, measured: `python -m guardian.governance.bench [--url URL]`.

- ModeResolver.mode(): the per-request cost the serving path pays (and, on a speculative
  row, with the signed-state check `guardian serve` runs, side by side);
- rollback propagation: time from a rollback written through one replica's store until a
  second replica's resolver (ttl 0.5 s, its own DB connection) serves target_only;
- one trigger evaluation over a full window (2048 speculative runs + verdicts).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import UTC, datetime

from guardian.audit.events import RequestEvent
from guardian.audit.memory import MemorySink

# Never a real route's name: with --url pointing at a live DB the bench must not touch one.
BENCH_ROUTE = "__governance_bench__"


def _event(i: int) -> RequestEvent:
    stats = {"draft_tokens": 40, "accepted": 20 + i % 10, "drafted_per_position": [10] * 4,
             "accepted_per_position": [8, 6, 4, 2 + i % 3], "completion_tokens": 32}
    return RequestEvent(f"r{i}", datetime.now(UTC), "default", "speculative", "speculative", "pair",
                        "p", "completions", "full", None, None, [1], list(range(i % 50, i % 50 + 32)),
                        "length", {}, 0.0, 0.3, 0.01, 0.01, stats, [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="audit DB URL (default: a fresh SQLite file)")
    parser.add_argument("--trials", type=int, default=10)
    args = parser.parse_args()
    from guardian.audit import upgrade
    from guardian.db import make_engine
    from guardian.governance.rollback import RollbackController
    from guardian.governance.routestate import ModeResolver, RouteStateStore
    from guardian.policy import Policy

    url = args.url or f"sqlite:///{tempfile.mkdtemp()}/bench.db"
    upgrade(url)
    store_a, store_b = RouteStateStore(make_engine(url)), RouteStateStore(make_engine(url))
    resolver = ModeResolver(store_b, ttl_s=0.5).start()
    n = 200_000
    t0 = time.perf_counter()
    for _ in range(n):
        resolver.mode(BENCH_ROUTE, "speculative")
    print(f"ModeResolver.mode(): {(time.perf_counter() - t0) / n * 1e9:.0f} ns/call")
    # A signed speculative row, as `guardian serve` holds it (`require_signed_state`): the
    # verdict is reached in the refresh thread; a request compares the row with the judged one.
    store_a.set_mode(BENCH_ROUTE, "speculative", actor="bench", reason="reset")
    plain = ModeResolver(RouteStateStore(make_engine(url)), ttl_s=60)
    signed = ModeResolver(RouteStateStore(make_engine(url)), ttl_s=60, require_signed_state=True)
    per_call = {}
    for name, res in (("plain", plain), ("signed", signed)) * 2:  # alternating, warm second
        t0 = time.perf_counter()
        for _ in range(n):
            res.mode(BENCH_ROUTE, "speculative")
        per_call[name] = (time.perf_counter() - t0) / n * 1e9
    print(f"ModeResolver.mode() on a speculative row: {per_call['plain']:.0f} ns/call, with the "
          f"signed-state check {per_call['signed']:.0f} ns/call "
          f"({per_call['signed'] / per_call['plain']:.2f}x)")
    delays = []
    for i in range(args.trials):
        store_a.set_mode(BENCH_ROUTE, "speculative", actor="bench", reason="reset")
        while resolver.mode(BENCH_ROUTE, "target_only") != "speculative":
            time.sleep(0.001)
        time.sleep(0.1 * (i % 5))  # land at different phases of the refresh period
        started = time.perf_counter()
        store_a.set_mode(BENCH_ROUTE, "target_only", actor="bench", reason="rollback")
        while resolver.mode(BENCH_ROUTE, "speculative") != "target_only":
            time.sleep(0.001)
        delays.append(time.perf_counter() - started)
    resolver.stop()
    print(f"rollback propagation to another replica (ttl 0.5 s, {args.trials} trials): "
          f"median {statistics.median(delays) * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms")
    policy = Policy()
    controller = RollbackController(store_a, MemorySink(), lambda: policy, pair_hash="pair")
    for i in range(2048):
        controller.observe(_event(i))
    t0 = time.perf_counter()
    for _ in range(20):
        controller.evaluate("default")
    print(f"trigger evaluation over a full window (2048 runs): "
          f"{(time.perf_counter() - t0) / 20 * 1000:.1f} ms")


if __name__ == "__main__":
    main()

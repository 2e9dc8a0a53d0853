"""Governance overhead, measured: `python -m guardian.governance.bench [--url URL]`.

- ModeResolver.mode(): the per-request cost the serving path pays (and, on a speculative
  row, with the signed-state check `guardian serve` runs, side by side);
- rollback propagation: time from a rollback written through one replica's store until a
  second replica's resolver (ttl 0.5 s, its own DB connection) serves target_only;
- one controller pass over a full window (2048 speculative runs), with the drift and
  acceptance running sums and re-summing the whole window, side by side.
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
    from guardian.core.db import make_engine
    from guardian.governance.routestate import ModeResolver, RouteStateStore

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
    print(evaluation_bench(args.trials))


def evaluation_bench(trials: int, window: int = 2048, fresh: int = 16) -> str:
    """A controller pass over a full window, `fresh` new requests since the last pass: with
    the running sums (as served) and re-summing the whole window (the running sums dropped
    before the pass, as every pass did before them), alternating, in one run."""
    from guardian.audit import upgrade
    from guardian.core.db import make_engine
    from guardian.governance.rollback import RollbackController
    from guardian.governance.routestate import ModeResolver, RouteStateStore
    from guardian.policy import Policy

    policy = Policy()
    url = f"sqlite:///{tempfile.mkdtemp()}/bench.db"
    upgrade(url)
    store = RouteStateStore(make_engine(url))
    # with the resolver serving attaches: route and canary state from its cache, not the DB
    controller = RollbackController(store, MemorySink(), lambda: policy, pair_hash="pair",
                                    resolver=ModeResolver(store, ttl_s=60))
    for i in range(window):
        controller.observe(_event(i))
    controller.evaluate("default")
    times: dict[str, list[float]] = {"running": [], "whole": []}
    i = window
    for _ in range(max(trials, 5)):
        for how in ("running", "whole"):
            for _ in range(fresh):
                controller.observe(_event(i))
                i += 1
            if how == "whole":
                controller.window("default").running.clear()
            t0 = time.thread_time()
            controller.evaluate("default")
            times[how].append(time.thread_time() - t0)
    running, whole = (statistics.median(times[k]) * 1000 for k in ("running", "whole"))
    return (f"controller pass over a full window ({window} runs, {fresh} new since the last "
            f"pass), CPU median of {len(times['running'])}: running sums {running:.2f} ms, "
            f"re-summing the window {whole:.2f} ms ({running / whole:.2f}x)")


if __name__ == "__main__":
    main()

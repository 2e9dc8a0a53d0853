"""The speculative pools' own counters, read from their `/metrics`, as the routes' pool-wide
acceptance on the sidecar's `/metrics`.

llama.cpp (`llamacpp:`) and vLLM (`vllm:`) export the same counters under vLLM's names:
`spec_decode_num_draft_tokens_total` (proposed), `..._num_accepted_tokens_total` (accepted)
and `..._num_drafts_total` (speculative steps); vLLM's carry labels (summed here). At each
scrape of the sidecar (cached `CACHE_S`), every route's speculative pool is read (bounded by
`TIMEOUT_S`; a pool that does not answer or exports none of them is left out, never shown as
0) and exported as `guardian_upstream_pool_spec_*{route, pool, source}` plus
`guardian_upstream_pool_acceptance_rate`.

Which wins: a request's own figures (llama.cpp's per-answer `timings.draft_n` /
`draft_n_accepted`, or a per-request stats object) are what the audit, the triggers, the API
and the per-route `vllm:spec_decode_*` series count: they are exactly that request's tokens.
The pool's counters cover all its traffic, the sidecar's shadow and other clients included,
so they are the route's acceptance only as these pool-wide gauges, and the acceptance of
record where the pool's answers carry none (vLLM's OpenAI server).
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx

from engine.metrics import SpecCounters

logger = logging.getLogger(__name__)

CACHE_S = 5.0
TIMEOUT_S = 1.0
_LINE = re.compile(r"^(llamacpp|vllm):spec_decode_(num_draft_tokens|num_accepted_tokens|"
                   r"num_drafts)(?:_total)?(?:\{[^}]*\})?\s+([0-9.eE+-]+)\s*$")
_FIELD = {"num_draft_tokens": "proposed", "num_accepted_tokens": "accepted",
          "num_drafts": "steps"}


def parse_spec_counters(text: str) -> tuple[str, SpecCounters] | None:
    """(source prefix, counters) from a Prometheus exposition; None when it has none. The
    judged positions are in neither server's counters (judged stays 0: not reported)."""
    sums: dict[str, dict[str, float]] = {}
    for line in text.splitlines():
        m = _LINE.match(line)
        if m is None:
            continue
        try:
            value = float(m.group(3))
        except ValueError:
            continue
        if value >= 0 and value == value:  # NaN and negative counters are no counts
            by = sums.setdefault(m.group(1), {})
            by[_FIELD[m.group(2)]] = by.get(_FIELD[m.group(2)], 0.0) + value
    if not sums:
        return None
    source = "llamacpp" if "llamacpp" in sums else "vllm"
    s = sums[source]
    if "proposed" not in s or "accepted" not in s:
        return None
    return source, SpecCounters(proposed=int(s["proposed"]), accepted=int(s["accepted"]),
                                steps=int(s.get("steps", 0)))


def metrics_url(base_url: str) -> str:
    """A pool's `/metrics` beside its OpenAI base (`http://h:8080/v1` -> `http://h:8080/metrics`)."""
    root = base_url.rstrip("/")
    return (root[:-3] if root.endswith("/v1") else root) + "/metrics"


class PoolMetrics:
    """Gauge rows (guardian.observability.telemetry.GovernanceCollector) of the speculative
    pools of the routes `policy()` returns."""

    def __init__(self, policy: Callable[[], Any],
                 fetch: Callable[[str, dict[str, str]], str] | None = None) -> None:
        self._policy = policy
        self._fetch = fetch or _get
        self._cache: tuple[float, list[tuple[str, str, dict[str, str], float]]] | None = None
        self._lock = threading.Lock()

    def gauge_rows(self) -> list[tuple[str, str, dict[str, str], float]]:
        with self._lock:
            now = time.monotonic()
            if self._cache is not None and now - self._cache[0] < CACHE_S:
                return self._cache[1]
            rows = self._read()
            self._cache = (now, rows)
            return rows

    def _read(self) -> list[tuple[str, str, dict[str, str], float]]:
        import os

        rows: list[tuple[str, str, dict[str, str], float]] = []
        seen: dict[str, tuple[str, SpecCounters] | None] = {}
        for name, route in sorted(self._policy().routes.items()):
            pools = getattr(route, "upstream", None)
            if pools is None:
                continue
            pool = pools.speculative
            url = metrics_url(pool.url)
            if url not in seen:
                headers = {}
                if pool.api_key_env and os.environ.get(pool.api_key_env):
                    headers["authorization"] = f"Bearer {os.environ[pool.api_key_env]}"
                try:
                    seen[url] = parse_spec_counters(self._fetch(url, headers))
                except (httpx.HTTPError, ValueError) as exc:
                    logger.debug("pool metrics of %s unread: %s", url, exc)
                    seen[url] = None
            got = seen[url]
            if got is None:
                continue
            source, c = got
            labels = {"route": name, "pool": pool.model, "source": source}
            rows += [
                ("guardian_upstream_pool_spec_draft_tokens", "Draft tokens the route's "
                 "speculative pool proposed, all its traffic (its own spec_decode counter).",
                 labels, float(c.proposed)),
                ("guardian_upstream_pool_spec_accepted_tokens", "Draft tokens the route's "
                 "speculative pool accepted, all its traffic.", labels, float(c.accepted)),
                ("guardian_upstream_pool_spec_drafts", "Speculative steps of the route's "
                 "speculative pool, all its traffic.", labels, float(c.steps))]
            if c.proposed:
                rows.append(("guardian_upstream_pool_acceptance_rate", "accepted / proposed "
                             "draft tokens of the route's speculative pool, from its own "
                             "counters (pool-wide).", labels, c.acceptance_rate))
        return rows


def _get(url: str, headers: dict[str, str]) -> str:
    r = httpx.get(url, headers=headers, timeout=TIMEOUT_S)
    r.raise_for_status()
    return r.text

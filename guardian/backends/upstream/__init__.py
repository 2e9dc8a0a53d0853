"""Upstream pools: the sidecar in front of OpenAI-compatible servers (vLLM, SGLang, TGI,
another guardian), per route a speculative pool and a target-only pool.

Modules: `backend` (UpstreamBackend, the ServingBackend over the pools), `pools` (one HTTP
client per pool: keep-alive, limits, timeouts, the sync call's deadline), `reading` (an
answer's bytes under their caps, and the faults a failed exchange becomes), `wire` (request
bodies and response / SSE parsing into the contract's trace), `breaker` (a circuit breaker
per pool), `errors` (UpstreamError, the 502/504s; their audit record:
guardian.serving.recorder). Shadow across
pools: guardian.equivalence.pool_shadow; the fake upstream: guardian.devtools.fake_upstream.
"""

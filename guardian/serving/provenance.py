"""Which rule produced a request's tokens: `decoding_rule(served, route)`.

Answered in the response (`spec_guardian.speculation`) and audited with the request (its
stats' `decoding_rule`, hash-covered), so a reader of either can tell, per request:

- `ran`: whether speculation ran for it (a speculative path that proposed at least one
  token) and, when it did not, `why_not`: the mode in force for it (`mode_target_only`,
  `mode_off`: the route's, a rollback's or its canary share's), a fallback with its reason
  (`unsupported_proposer`, `load_shed`, `speculative_error: ...`), or no token proposed
  (`no_tokens_proposed`: the depth cap at 0 under load, an n-gram proposer with nothing to
  copy);
- `method` (draft_model / ngram / none; an upstream pool: what it reported, else
  `upstream_pool`), `depth` (the route's γ strategy and bounds, and the deepest step the
  trace shows; `pinned` for a seeded sampled request on the local engine, whose depth never
  follows the load), `acceptance` (`greedy` argmax matching or `rejection_sampling`, Leviathan
  et al.'s, both lossless; a pool's declared rule where it reports one) and `lossless`;
- `controls`: the sampling controls and pass-through fields that were on (the engine
  applies the former on draft and verify alike, so speculation stays on with them);
- `pool_reported`: an upstream pool's own per-request speculative statistics, verbatim as
  parsed (e.g. a guardian pool's counters, vLLM-style `spec_decode`, llama.cpp timings).

A pool that declares a lossy acceptance (`acceptance` in LOSSY_ACCEPTANCE, or
`lossless: false`) is recorded as such: `lossless: false`, which no gate passes
(guardian.governance reads `decoding_rule.lossless` where it is recorded).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.controllers import pinned_strategy

if TYPE_CHECKING:
    from guardian.policy import RoutePolicy

# Acceptance rules engines document as not distribution-preserving (typical acceptance,
# Medusa's; top-k / threshold "relaxed" acceptance; lenient / lossy modes).
LOSSY_ACCEPTANCE = frozenset({"typical", "typical_acceptance", "relaxed", "lenient", "lossy",
                              "threshold", "top_k_acceptance"})


def _pool_rule(reported: dict[str, Any]) -> tuple[str | None, str | None, bool | None]:
    """(method, acceptance, lossless) as an upstream pool declared them (None: not said)."""
    method = reported.get("method") or reported.get("proposer")
    acceptance = reported.get("acceptance") or reported.get("acceptance_method")
    lossless = reported.get("lossless")
    if isinstance(acceptance, str) and acceptance.lower() in LOSSY_ACCEPTANCE:
        lossless = False
    return (method if isinstance(method, str) else None,
            acceptance if isinstance(acceptance, str) else None,
            lossless if isinstance(lossless, bool) else None)


def decoding_rule(served: Any, route: RoutePolicy | None) -> dict[str, Any]:
    """`served`: a guardian.serving.core.Served (not imported: core imports this module)."""
    req, result = served.request, served.result
    counters = result.counters
    speculative_path = served.served_path == "speculative"
    proposed = counters.proposed
    upstream = "upstream_pool" in result.stats
    reported = result.stats.get("upstream_spec")
    method = (route.proposer if route is not None else "unknown") if speculative_path else "none"
    acceptance: str | None = ("greedy" if req.greedy else "rejection_sampling") \
        if speculative_path else "none"
    lossless: bool | None = True
    if upstream:
        method, acceptance, lossless = "upstream_pool", None, None
        if isinstance(reported, dict):
            m, a, lossy = _pool_rule(reported)
            method, acceptance, lossless = m or method, a, lossy
    # A pool that reported nothing speculated for all the sidecar knows; its counters say
    # how many tokens it proposed where it reports them.
    ran = speculative_path and (proposed > 0 if not upstream or reported else True)
    why_not: str | None = None
    if not ran:
        if served.fallback_reason:
            why_not = f"fallback: {served.fallback_reason}"
        elif not speculative_path:
            # the mode in force for this request: the route's, a rollback's, or the
            # share of a running canary this request's sticky key fell in
            why_not = f"mode_{served.mode}"
        else:
            why_not = "no_tokens_proposed"  # depth cap 0 under load, or nothing to copy
    depth: dict[str, Any] = {"max_used": max((t.gamma for t in result.trace), default=0)}
    if route is not None and speculative_path:
        depth.update(strategy=route.gamma.strategy, initial=route.gamma.initial,
                     max=route.gamma.max)
    if speculative_path and not upstream and req.seed is not None and not req.greedy:
        # seeded: its depths follow its own draws only (not the load cap, not the clock),
        # so the seed reproduces its tokens on this path (guardian.backends.local); the
        # strategy it ran is the pinned one (goodput reads the clock)
        depth["pinned"] = True
        if "strategy" in depth:
            depth["strategy"] = pinned_strategy(depth["strategy"], True)
    rule: dict[str, Any] = {"ran": ran, "why_not": why_not, "method": method, "depth": depth,
                            "acceptance": acceptance, "lossless": lossless,
                            "controls": sorted({*req.sampling.controls(),
                                                *(k for k in req.passthrough if k != "messages")})}
    if isinstance(reported, dict):
        rule["pool_reported"] = reported
    return rule


def declared_lossy(result: Any) -> str | None:
    """The lossy acceptance rule a backend's result declares (an upstream pool's reported
    stats), or None: a gate fails on any (guardian.governance.gates)."""
    reported = result.stats.get("upstream_spec") if isinstance(result.stats, dict) else None
    if not isinstance(reported, dict):
        return None
    _, acceptance, lossless = _pool_rule(reported)
    if lossless is False:
        return acceptance or "lossless: false"
    return None

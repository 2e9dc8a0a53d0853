"""Cost of serving, from the audit store's counters: SLIs M4 and M5 against target-only.

Owns the arithmetic, none of the I/O (the dashboard's data layer feeds it aggregates):

* **M4, target forwards per request**: the target model's forward passes a request took.
  Speculative: one prefill plus one verify forward per speculative step (`target_forwards`
  in the engine's stats, else `steps + 1`). Target-only decoding takes one forward per output
  token (the prefill yields the first), so its baseline for the same requests is their output
  token count.
* **M5, cost per output token**: pool seconds per output token x the policy's price of a
  pool-hour (`cost.pool_hour`) / 3600. The target-only baseline's seconds per token come from
  the shadow runs of the same requests on the other path (same prompts, both paths), so
  `saving` and `speedup` compare like with like.

Ratios are None where their denominator is empty (nothing to show, not a cost of 0).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Usage:
    """Summed figures of a set of served requests (one route · pair · path, or any union)."""

    requests: int = 0
    output_tokens: float = 0.0
    target_forwards: float = 0.0
    seconds: float = 0.0  # engine seconds the pool spent on them
    # Those of the requests whose forwards are known, and their output tokens (None: all of
    # them). An upstream pool that reports no counters leaves its speculative answers'
    # forwards unknown: M4 is taken over the others, "not reported" when there are none.
    forward_requests: int | None = None
    forward_tokens: float | None = None

    @property
    def known_requests(self) -> int:
        return self.requests if self.forward_requests is None else self.forward_requests

    @property
    def known_tokens(self) -> float:
        return self.output_tokens if self.forward_tokens is None else self.forward_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.requests + other.requests, self.output_tokens + other.output_tokens,
                     self.target_forwards + other.target_forwards, self.seconds + other.seconds,
                     self.known_requests + other.known_requests,
                     self.known_tokens + other.known_tokens)


@dataclass(frozen=True, slots=True)
class Paired:
    """Shadowed requests timed on both paths: target-only and speculative seconds and tokens."""

    pairs: int = 0
    target_s: float = 0.0
    target_tokens: float = 0.0
    spec_s: float = 0.0
    spec_tokens: float = 0.0

    def __add__(self, other: Paired) -> Paired:
        return Paired(self.pairs + other.pairs, self.target_s + other.target_s,
                      self.target_tokens + other.target_tokens, self.spec_s + other.spec_s,
                      self.spec_tokens + other.spec_tokens)


def per(num: float, den: float) -> float | None:
    return num / den if den else None


def token_cost(seconds_per_token: float | None, pool_hour: float | None) -> float | None:
    """Cost of one output token at `pool_hour` per pool-hour (None: unknown or no price)."""
    if seconds_per_token is None or pool_hour is None:
        return None
    return seconds_per_token * pool_hour / 3600.0


@dataclass(frozen=True, slots=True)
class CostFigures:
    """M4 / M5 of one slice of traffic against the target-only baseline."""

    requests: int
    spec_requests: int
    forwards_per_request: float | None  # M4 as served (None: no request's forwards known)
    baseline_forwards_per_request: float | None  # M4 had every request decoded target-only
    seconds_per_token: float | None  # as served
    baseline_seconds_per_token: float | None  # target-only, measured in shadow
    cost_per_token: float | None  # M5 as served (None without a price)
    baseline_cost_per_token: float | None
    speedup: float | None  # target-only / speculative seconds per token, paired runs
    spend: float | None  # what the served requests cost
    saving: float | None  # 1 - served cost / what target-only would have cost

    @property
    def forwards_saved(self) -> float | None:
        """Share of target forwards speculation saved (1 - M4 / baseline M4)."""
        if self.forwards_per_request is None or not self.baseline_forwards_per_request:
            return None
        return 1.0 - self.forwards_per_request / self.baseline_forwards_per_request


def figures(spec: Usage, target_only: Usage, paired: Paired,
            pool_hour: float | None) -> CostFigures:
    """Cost figures of requests served speculatively (`spec`) and target-only (`target_only`),
    with `paired` shadow timings of the same slice for the target-only baseline."""
    served = spec + target_only
    base_s_tok = per(paired.target_s, paired.target_tokens)
    spec_s_tok = per(paired.spec_s, paired.spec_tokens)
    served_s_tok = per(served.seconds, served.output_tokens)
    # Target-only would take one forward per output token (see module doc); over the requests
    # whose forwards are known, as M4 itself.
    base_forwards = per(served.known_tokens, served.known_requests)
    spend = None if pool_hour is None else served.seconds * pool_hour / 3600.0
    would = (None if pool_hour is None or base_s_tok is None
             else served.output_tokens * base_s_tok * pool_hour / 3600.0)
    return CostFigures(
        requests=served.requests, spec_requests=spec.requests,
        forwards_per_request=per(served.target_forwards, served.known_requests),
        baseline_forwards_per_request=base_forwards,
        seconds_per_token=served_s_tok, baseline_seconds_per_token=base_s_tok,
        cost_per_token=token_cost(served_s_tok, pool_hour),
        baseline_cost_per_token=token_cost(base_s_tok, pool_hour),
        speedup=None if base_s_tok is None or not spec_s_tok else base_s_tok / spec_s_tok,
        spend=spend, saving=None if spend is None or not would else 1.0 - spend / would)

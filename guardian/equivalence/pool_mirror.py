"""Mirrored traffic over upstream pools (`POST /v1/shadow` on GUARDIAN_BACKEND=upstream): the
primary's text judged against the route's target-only pool.

With no local tokenizer the primary's text cannot be scored token by token as the local
engine does (`score_target`); instead the target-only pool answers the same request
greedily (up to the request's max_tokens, at most the route's `shadow.max_new_tokens`) and
its token rows are walked along the primary's text (`judge_text`):
- every target token is found at its place in the primary's text, and the two end together
  (or the target was cut at the compared cap): `match`;
- at the first target token that is not there: `near_tie` when the target's top-2 margin
  there is under the route's tolerance AND the primary's text goes on with the target's
  runner-up (each chose the other's runner-up), else `divergence` at that position;
- the target stopped (EOS / stop) where the primary went on, or the primary ended where the
  target went on: `divergence` (a stopping difference is never a tie).
Sampled mirrored requests are refused by the caller: one sampled text cannot be judged
against top-k logprobs (`unchecked` would be everything).
"""

from __future__ import annotations

from collections.abc import Sequence

from guardian.backends import BackendResult, TraceToken
from guardian.equivalence.verdicts import VerdictResult

__all__ = ["judge_text"]


def _runner_up(row: TraceToken) -> str | None:
    alts = [a for a in row.top_logprobs if a.token != row.token]
    return alts[0].token if alts else None


def judge_text(target: BackendResult, primary: str, tolerance: float, cap: int,
               primary_finish: str | None = None) -> VerdictResult:
    """The verdict of the primary's `primary` text against the target-only pool's greedy
    answer `target`, asked for at most `cap` tokens (see the module docstring)."""
    rows: Sequence[TraceToken] = target.trace
    if not rows:  # a pool without logprobs: its text, one "token"
        same = primary == target.text or (
            target.finish_reason == "length" and primary.startswith(target.text))
        return VerdictResult("match" if same else "divergence", None if same else 0,
                             details={"checks": ["text"], "unchecked": ["token_positions",
                                                                        "near_tie_margin"]})
    offset = 0
    for i, row in enumerate(rows):
        token = row.token or ""
        if primary.startswith(token, offset):
            offset += len(token)
            continue
        rest = primary[offset:]
        runner = _runner_up(row)
        tied = (row.target_margin < tolerance and runner is not None and bool(runner)
                and rest.startswith(runner))
        return VerdictResult("near_tie" if tied else "divergence", i, row.target_margin,
                             details={"compared_tokens": i, "target_token": token,
                                      "primary_text": rest[:32], "runner_up": runner,
                                      "checks": ["tokens_along_text"]})
    done = offset == len(primary)
    cut = target.finish_reason == "length" and len(rows) >= cap
    if done or cut:
        return VerdictResult("match", details={"compared_tokens": len(rows),
                                               "checks": ["tokens_along_text"],
                                               **({"beyond_cap": True} if cut and not done
                                                  else {})})
    return VerdictResult("divergence", len(rows), None, details={
        "compared_tokens": len(rows), "length_mismatch": True,
        "target_finish_reason": target.finish_reason, "primary_finish_reason": primary_finish,
        "primary_text": primary[offset:offset + 32], "checks": ["tokens_along_text"]})

"""A speculative step's outcome and its bookkeeping: the per-row trace and counters.

`speculative_step` (engine/decode.py) verifies a proposal and returns a `StepOutcome`:
per active row, the tokens it emitted with their origins, p(x), q(x) and target margins,
and how many draft tokens it proposed, had judged and had accepted — host-side lists.
`record_step` turns that into TokenTraces, Completion updates and GenerationStats counters.

Batch rule: every row commits the same count n + 1 (n = min over active rows of the
accepted counts n_i), so every cache stays rectangular. Still lossless: a row with n_i > n
emits its first n+1 tokens x_1..x_{n+1}, all accepted, which is exactly what the one-row
algorithm emits at those positions; where the output is cut depends only on other rows'
independent coins and on this row's own accept decisions so far (a stopping time), and the
next step restarts from the target's exact distribution at the new prefix.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import torch

from engine.batch import Batch
from engine.trace import GenerationStats, Origin, TokenTrace


@dataclass(frozen=True, slots=True)
class RowStep:
    """What one row emitted at one step (n + 1 tokens) and what was judged to get there."""

    tokens: list[int]
    origins: list[Origin]
    p: list[float]  # p(x) under the processed target distribution the verifier used
    q: list[float | None]  # q(x) under the proposal; None for the bonus token
    margins: list[float]  # target top-1 minus top-2 raw logit
    proposed: int  # draft tokens this row proposed (its gamma this step)
    judged: int  # draft positions judged: up to and including the first rejection
    accepted: int  # draft tokens accepted (and kept by the batch's common n)
    # Evidence for the shadow evaluator (TokenTrace's fields of the same names), per token.
    evidence: list[dict[str, float | int | None]] | None = None

    def traces(self, base: int, step: int) -> list[TokenTrace]:
        """The step's tokens as TokenTraces, the first at completion position `base`."""
        evidence = self.evidence or [{}] * len(self.tokens)
        return [TokenTrace(base + j, tok, origin, q, p, margin, step, self.proposed, **ev)
                for j, (tok, origin, q, p, margin, ev) in enumerate(zip(
                    self.tokens, self.origins, self.q, self.p, self.margins, evidence,
                    strict=True))]

    def count(self, stats: GenerationStats) -> None:
        """Add this step's speculative counters, per draft position too, to `stats`."""
        stats.proposed_tokens += self.proposed
        stats.judged_tokens += self.judged
        stats.accepted += self.accepted
        grow = self.proposed - len(stats.drafted_per_position)
        if grow > 0:
            stats.drafted_per_position.extend([0] * grow)
            stats.accepted_per_position.extend([0] * grow)
        for j in range(self.judged):
            stats.drafted_per_position[j] += 1
        for j in range(self.accepted):
            stats.accepted_per_position[j] += 1


@dataclass(frozen=True, slots=True)
class StepOutcome:
    rows: dict[int, RowStep]  # active rows only
    n: int  # draft tokens every active row accepted; each row commits n + 1 tokens
    gamma: int  # the depth asked of the proposer
    draft_forwards: int  # draft-model forwards spent proposing
    distributions: torch.Tensor | None  # (B, n+1, V) float32 on CPU when recording
    draft_s: float  # wall time of the proposal
    verify_s: float  # wall time of the target forward and the accept/resample decisions
    verified_at: float  # time.perf_counter() when the step's tokens were known
    # (B, n+1, V) float32 on CPU: the full q each position's proposal was sampled from
    # (zeros where none / a point mass), recorded for sampled runs that record distributions.
    draft_distributions: torch.Tensor | None = None
    # row -> each kept token's top-k (id, p) under the distribution it was chosen from, when
    # the request asked for them (`DecodeRequest.alternatives`)
    alternatives: dict[int, list[tuple[tuple[int, float], ...]]] | None = None

    @property
    def judged(self) -> int:
        return sum(r.judged for r in self.rows.values())

    @property
    def accepted(self) -> int:
        return sum(r.accepted for r in self.rows.values())


_NAN = float("nan")


def _opt(x: float) -> float | None:
    return None if x != x else x  # NaN marks "not recorded"


@dataclass(frozen=True, slots=True)
class HostVerdict:
    """The verifier's per-row results, copied to the host in one transfer."""

    n: list[int]  # n_i: draft tokens row i accepted
    own: list[list[int]]  # row i's one-row output: accepted prefix + its next token at n_i
    p: list[list[float]]  # p(own) (gamma+1)
    q: list[list[float]]  # q(own) (gamma; the last column is padding)
    margins: list[list[float]]  # (gamma+1)
    # Evidence columns (gamma+1 each; NaN = not recorded): target top-1/top-2 ids and raw
    # logits, log softmax of own, the proposed token, its recorded q, Σ min(p, q).
    top1: list[list[float]] | None = None
    top2: list[list[float]] | None = None
    top1_logit: list[list[float]] | None = None
    top2_logit: list[list[float]] | None = None
    logprob: list[list[float]] | None = None
    proposed: list[list[float]] | None = None
    proposed_q: list[list[float]] | None = None
    expected: list[list[float]] | None = None

    @classmethod
    def copy(cls, n_row: torch.Tensor, own: torch.Tensor, p_x: torch.Tensor,
             q_x: torch.Tensor, margin: torch.Tensor,
             evidence: dict[str, torch.Tensor] | None = None) -> HostVerdict:
        """(B,), (B, g+1), (B, g+1), (B, g), (B, g+1) tensors -> host lists.

        One device->host copy for the step (float64 holds ids < 2^53 and float32 exactly).
        `evidence`: optional (B, g+1) tensors (or (B, g), padded with NaN) named like the
        evidence fields.
        """
        columns = [n_row.unsqueeze(1).expand_as(own), own, p_x,
                   torch.nn.functional.pad(q_x, (0, 1)), margin]
        names = list(evidence or {})
        width = own.shape[1]
        for name in names:
            col = evidence[name].double()  # type: ignore[index]
            if col.shape[1] < width:
                col = torch.nn.functional.pad(col, (0, width - col.shape[1]), value=_NAN)
            columns.append(col)
        n, own_l, p_l, q_l, m_l, *extra = torch.stack([c.double() for c in columns]).tolist()
        return cls([int(r[0]) for r in n], [[int(t) for t in r] for r in own_l], p_l, q_l, m_l,
                   **dict(zip(names, extra, strict=True)))

    def row(self, i: int, n: int, proposed: int) -> RowStep:
        """Row i's share of a step that commits n + 1 tokens per row."""
        # A row cut short by the batch's common n had its token at position n accepted too.
        accepted = n + 1 if self.n[i] > n else n
        origins: list[Origin] = ["accepted" if j < accepted else
                                 "resampled" if j < proposed else "bonus" for j in range(n + 1)]
        return RowStep(tokens=self.own[i][:n + 1], origins=origins, p=self.p[i][:n + 1],
                       q=[None if o == "bonus" else self.q[i][j] for j, o in enumerate(origins)],
                       margins=self.margins[i][:n + 1], proposed=proposed,
                       judged=min(n + 1, proposed), accepted=accepted,
                       evidence=self._evidence(i, origins))

    def _evidence(self, i: int, origins: list[Origin]) -> list[dict[str, float | int | None]] | None:
        if self.top1 is None:
            return None
        out: list[dict[str, float | int | None]] = []
        for j, origin in enumerate(origins):
            judged = origin != "bonus"
            prop = self.proposed[i][j] if judged and self.proposed else _NAN
            out.append({
                "top1_id": int(self.top1[i][j]),
                "top2_id": int(self.top2[i][j]) if self.top2 else None,
                "top1_logit": self.top1_logit[i][j] if self.top1_logit else None,
                "top2_logit": self.top2_logit[i][j] if self.top2_logit else None,
                "target_logprob": _opt(self.logprob[i][j]) if self.logprob else None,
                "proposed_token": None if prop != prop else int(prop),
                "proposed_q": _opt(self.proposed_q[i][j]) if judged and self.proposed_q else None,
                "accept_expected": _opt(self.expected[i][j]) if judged and self.expected else None,
            })
        return out


def top_alternatives(wanted: dict[int, tuple[torch.Tensor, int]],
                     ) -> dict[int, list[tuple[tuple[int, float], ...]]]:
    """Each wanting row's top-k (id, probability) at each of its positions, best first, with
    one device->host copy for them all: {row: (probs (n, V), k)} -> {row: [position 0's
    alternatives, ...]} (`TokenTrace.alternatives`: OpenAI's `top_logprobs`)."""
    if not wanted:
        return {}
    kmax = max(k for _, k in wanted.values())
    parts = []
    for probs, _k in wanted.values():
        top = torch.topk(probs, kmax, dim=-1)
        parts.append(torch.stack([top.indices.double(), top.values.double()]))  # (2, n, kmax)
    ids, values = torch.cat(parts, dim=1).tolist()
    out, at = {}, 0
    for i, (probs, k) in wanted.items():
        n = probs.shape[0]
        out[i] = [tuple((int(t), float(v)) for t, v in zip(ids[at + j][:k], values[at + j][:k],
                                                             strict=True))
                  for j in range(n)]
        at += n
    return out


def with_alternatives(traces: list[TokenTrace],
                      alternatives: list[tuple[tuple[int, float], ...]] | None,
                      ) -> list[TokenTrace]:
    """`traces` carrying their positions' alternatives (unchanged when there are none)."""
    if alternatives is None:
        return traces
    return [dataclasses.replace(t, alternatives=a)
            for t, a in zip(traces, alternatives, strict=False)]


def record_step(batch: Batch, outcome: StepOutcome, step: int) -> None:
    """Append each active row's tokens (with their traces) and add its counters."""
    dists, qdists = outcome.distributions, outcome.draft_distributions
    alternatives = outcome.alternatives or {}
    for i, row_step in outcome.rows.items():
        row = batch.rows[i]
        traces = with_alternatives(row_step.traces(len(row.completion.token_ids), step),
                                   alternatives.get(i))
        row.completion.extend(row_step.tokens, traces, dists[i] if dists is not None else None,
                              qdists[i] if qdists is not None else None)
        stats = row.stats
        stats.steps += 1
        stats.draft_forwards += outcome.draft_forwards
        stats.target_forwards += 1
        stats.draft_time_s += outcome.draft_s
        stats.verify_time_s += outcome.verify_s
        row_step.count(stats)

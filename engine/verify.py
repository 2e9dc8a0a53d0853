"""The verifier, written once: a verify forward's logits judged against what was proposed.

Both engines hand it the target's logits over every row's `[last] + proposal` and get back
each row's accepted count n_i, its one-row output (the accepted prefix, then the resampled
or bonus token at n_i), p and q of that output, the target's margins and the evidence
columns of the trace, copied to the host in one transfer (`HostVerdict`). The one-at-a-time
loop (`engine.decode.speculative_step`) judges its batch as one `Judging` (one set of
sampling parameters, one generator); the continuous engine judges each row as its own (its
own parameters and generator, so a seeded row draws the same numbers in a batch as alone).

Per judging group: greedy rows accept while the proposal equals the target's argmax (the
argmax row *is* the output, so p(x) needs no gather); sampled rows go through
`engine.rejection.rejection_sample` over the group's own width (its longest proposal), so
the order and count of its random draws do not depend on the rest of the batch. A row
that proposed nothing takes one plain target token. What the caller does with n_i - commit
a common n (one-at-a-time) or each row's own (continuous) - is not the verifier's business.

`isolate`: a fault inside one group (its sampling parameters, its generator) is returned in
`Verdict.faults` for its rows, and their results fall back to the greedy reading (they are
failed, never committed); without it the fault propagates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import torch

from engine.rejection import greedy_accept, rejection_sample
from engine.sampling import SamplingParams, process_logits, token_probs
from engine.step import HostVerdict, top_alternatives

__all__ = ["Judging", "Verdict", "verify"]

Alternatives = list[tuple[tuple[int, float], ...]]


@dataclass(frozen=True, slots=True)
class Judging:
    """Rows judged together: one set of sampling parameters, one generator, one proposal."""

    rows: list[int]  # rows of the verify forward, ascending
    params: SamplingParams
    generator: torch.Generator | None = None
    # (len(rows), g, V) processed distributions the proposal was sampled from (a sampled
    # draft model); None: a point mass δ_x (prompt lookup) or a greedy draft.
    q: torch.Tensor | None = None
    # (len(rows), g, V) raw logits of a greedy draft, read only for the trace's q(x)
    # (its softmax at temperature 1); verification does not read them.
    draft_logits: torch.Tensor | None = None
    keep_p: bool = False  # return the processed target distributions (records)
    alternatives: int = 0  # top-k (id, p) per emitted position; 0: none


@dataclass(frozen=True, slots=True)
class Verdict:
    host: HostVerdict
    own: torch.Tensor  # (B, T) on the device: row i's output at [0, n_i] (`host.own`)
    # row -> (g + 1, V) processed target distributions at its positions, for the rows of
    # groups that asked (`keep_p` or `alternatives`); g is the group's width
    p: dict[int, torch.Tensor]
    alternatives: dict[int, Alternatives]  # row -> each position's top-k, where asked
    faults: dict[int, BaseException]  # row -> what failed it (`isolate` only)


def verify(logits: torch.Tensor, x: torch.Tensor, lengths: list[int], groups: list[Judging],
           *, isolate: bool = False) -> Verdict:
    """Judge `logits` (B, T, V) - row i scored `[last] + x[i, :lengths[i]]` at its first
    lengths[i] + 1 positions; x (B, T - 1) is padded past each length - by `groups`.

    Rows in no group are read greedily and judged by no one: a caller leaves them out when
    they failed earlier in the step, and never commits them."""
    b, t = logits.shape[0], logits.shape[1]
    dev = logits.device
    top = torch.topk(logits, 2, dim=-1)  # argmax and top-2 margin in one pass
    margin = (top.values[..., 0] - top.values[..., 1]).float()  # (B, T)
    lse = torch.logsumexp(logits.float(), dim=-1)  # (B, T)
    own = top.indices[..., 0].clone()  # greedy rows: the argmax row is the output
    n_row, _ = greedy_accept(x, own)
    # positions a row did not propose are never accepted
    n_row = torch.minimum(n_row, torch.tensor(lengths, device=dev))
    p_x = torch.exp(top.values[..., 0].float() - lse)
    q_x = torch.zeros((b, t - 1), device=dev)
    prop_q = torch.full((b, t - 1), float("nan"), device=dev)
    expected = torch.full((b, t - 1), float("nan"), device=dev)
    kept: dict[int, torch.Tensor] = {}
    wanted: dict[int, tuple[torch.Tensor, int]] = {}
    faults: dict[int, BaseException] = {}
    for group in groups:
        try:
            out = _judge(group, logits, x, lengths, own)
        except Exception as exc:
            if not isolate:
                raise
            faults.update(dict.fromkeys(group.rows, exc))
            continue
        rows, g, p, n_g, own_g, p_g, q_g, prop_g, exp_g = out
        if n_g is not None:  # a sampled group: its own counts, outputs and p(x)
            n_row[rows] = n_g
            own[rows, :g + 1] = own_g
            p_x[rows, :g + 1] = p_g
        q_x[rows, :g] = q_g
        prop_q[rows, :g] = prop_g
        if exp_g is not None:
            expected[rows, :g] = exp_g
        if p is not None and (group.keep_p or group.alternatives):
            for j, i in enumerate(group.rows):
                kept[i] = p[j]
                if group.alternatives:
                    wanted[i] = (p[j], min(group.alternatives, p.shape[-1]))
    logprob = logits.float().gather(-1, own.unsqueeze(-1)).squeeze(-1) - lse
    evidence = {"top1": top.indices[..., 0], "top2": top.indices[..., 1],
                "top1_logit": top.values[..., 0], "top2_logit": top.values[..., 1],
                "logprob": logprob, "proposed": x, "proposed_q": prop_q, "expected": expected}
    host = HostVerdict.copy(n_row, own, p_x, q_x, margin, evidence)
    return Verdict(host, own, kept, top_alternatives(wanted), faults)


def _rows(rows: list[int], total: int, device: torch.device) -> slice | torch.Tensor:
    """An index for `rows`: a slice where they are consecutive (a view, no copy)."""
    if rows == list(range(rows[0], rows[0] + len(rows))):
        return slice(rows[0], rows[0] + len(rows)) if len(rows) < total else slice(None)
    return torch.tensor(rows, device=device)


class _Judged(NamedTuple):
    """One group's results, to be written back into the batch's tensors at `rows`."""

    rows: slice | torch.Tensor
    g: int  # the group's width: its longest proposal
    p: torch.Tensor | None  # (R, g+1, V) processed target distributions, where computed
    # (R,) accepted counts, (R, g+1) outputs and their p; None: the greedy reading stands
    n: torch.Tensor | None
    own: torch.Tensor | None
    p_x: torch.Tensor | None
    q_x: torch.Tensor  # (R, g)
    proposed_q: torch.Tensor  # (R, g)
    expected: torch.Tensor | None  # (R, g) Σ min(p, q), sampled rows only


def _judge(group: Judging, logits: torch.Tensor, x: torch.Tensor, lengths: list[int],
           own: torch.Tensor) -> _Judged:
    """One group's verdict, computed before anything is written back (a fault leaves the
    batch's tensors as they were)."""
    rows = _rows(group.rows, logits.shape[0], logits.device)
    params = group.params
    g = max(lengths[i] for i in group.rows)
    sub = logits[rows, :g + 1]  # (R, g+1, V)
    xg = x[rows, :g]  # (R, g)
    q = None if group.q is None else group.q[:, :g]
    want_p = group.keep_p or group.alternatives > 0
    p = n_g = p_g = expected = None
    if params.greedy:  # the batch's greedy reading (argmax, its p) is this group's
        own_g = own[rows, :g + 1]
        if want_p:
            p = process_logits(sub, params)
    else:
        p = process_logits(sub, params)  # (R, g+1, V)
        short = [lengths[i] for i in group.rows]
        lens = None if all(n == g for n in short) else torch.tensor(short, device=x.device)
        n_g, nxt = rejection_sample(xg, q, p, group.generator, lens)
        # The row's one-row output: its accepted prefix, then the resampled / bonus token
        # at n_i (later columns are junk and never read).
        own_g = torch.cat([xg, nxt.unsqueeze(1)], dim=1)
        own_g.scatter_(1, n_g.unsqueeze(1), nxt.unsqueeze(1))
        p_g = p.gather(-1, own_g.unsqueeze(-1)).squeeze(-1)
        if g:
            expected = (torch.minimum(p[:, :g], q.float()).sum(dim=-1) if q is not None
                        else p[:, :g].gather(-1, xg.unsqueeze(-1)).squeeze(-1))
    drafts = own_g[:, :g]
    if q is not None:
        q_g = q.gather(-1, drafts.unsqueeze(-1)).squeeze(-1)
        prop_g = q.gather(-1, xg.unsqueeze(-1)).squeeze(-1)
    elif group.draft_logits is not None:
        q_g = token_probs(group.draft_logits[:, :g], drafts)
        prop_g = token_probs(group.draft_logits[:, :g], xg)
    else:  # a point mass: q(x) = 1, q(anything else) = 0
        q_g = (drafts == xg).float()
        prop_g = torch.ones_like(q_g)
    return _Judged(rows, g, p, n_g, None if n_g is None else own_g, p_g, q_g, prop_g, expected)

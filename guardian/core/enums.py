"""The sidecar's vocabulary as types: one module for every closed set of names.

Used in code, DB columns, metric attributes and dashboard labels alike (../shared/DESIGN.md).
The engine, which imports nothing from guardian, declares the two sets it needs itself
(`engine.controllers.GammaStrategy`, `engine.proposers.ProposerKind`); a test keeps them equal
to the ones here.
"""

from __future__ import annotations

from typing import Literal, get_args

# How a route serves: target-only decoding, speculative decoding, or not at all.
Mode = Literal["target_only", "speculative", "off"]
# A decoding path the sidecar runs: the one that served, or the other one, run in shadow.
DecodePath = Literal["target_only", "speculative"]
# What actually produced a response (`external`: a mirrored primary response).
ServedPath = Literal["target_only", "speculative", "external"]
# How much of a prompt/completion the audit trail keeps.
Redaction = Literal["full", "hashed", "redacted", "none"]
# A shadow comparison's outcome (see DESIGN.md "The core promise: equivalence").
Verdict = Literal["match", "near_tie", "divergence", "distribution_ok", "distribution_mismatch"]
# How gamma is chosen per step.
GammaStrategy = Literal["constant", "heuristic", "goodput"]
# What proposes draft tokens: a small draft model, or n-gram prompt lookup (no model).
ProposerKind = Literal["draft_model", "ngram"]
# Token origins in a trace; "upstream": emitted by an upstream pool (an OpenAI-compatible
# server), known only through its logprobs.
Origin = Literal["accepted", "resampled", "bonus", "target", "upstream"]
# A measurement of a trigger or gate check (Argo Rollouts' Successful/Failed/Inconclusive).
Outcome = Literal["pass", "fail", "inconclusive"]

MODES: tuple[str, ...] = get_args(Mode)
REDACTIONS: tuple[str, ...] = get_args(Redaction)
VERDICTS: tuple[str, ...] = get_args(Verdict)
GAMMA_STRATEGIES: tuple[str, ...] = get_args(GammaStrategy)
PROPOSER_KINDS: tuple[str, ...] = get_args(ProposerKind)

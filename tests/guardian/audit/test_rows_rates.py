"""Acceptance columns of audit rows come from the stats' counters through SpecCounters."""

from __future__ import annotations

import dataclasses

from guardian.audit.rows import Sealer
from guardian.audit.testing import request_event, shadow_event


def _sealed(stats: dict):
    ev = dataclasses.replace(request_event(4), stats=stats)
    return Sealer("c/1", salt=b"k", copy_lines=False).seal([ev]).requests[0]


def test_acceptance_rate_is_accepted_over_proposed_and_alpha_stays_in_the_stats() -> None:
    stats = {"proposed_tokens": 20, "judged_tokens": 10, "accepted": 8, "steps": 5, "alpha": 0.8}
    row = _sealed(stats)
    assert row["acceptance_rate"] == 0.4  # vLLM: accepted / proposed, not accepted / judged
    assert row["mean_acceptance_length"] == 1 + 8 / 5
    assert row["stats"] == stats  # raw counters kept as given (hash-covered)


def test_legacy_stats_and_stats_without_counters() -> None:
    legacy = _sealed({"draft_tokens": 16, "accepted": 12, "steps": 4})
    assert legacy["acceptance_rate"] == 0.75 and legacy["mean_acceptance_length"] == 4.0
    mirrored = _sealed({})  # a mirrored request carries no counters: NULL, not 0
    assert mirrored["acceptance_rate"] is None and mirrored["mean_acceptance_length"] is None
    bare = dataclasses.replace(shadow_event("r"), stats={"acceptance_rate": 0.75})
    shadow = Sealer("c/1", salt=b"k", copy_lines=False).seal([bare]).shadow[0]
    assert shadow["acceptance_rate"] is None  # a ratio without its counters is not trusted

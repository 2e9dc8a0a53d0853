"""`effective_mode`: the one rule for the mode in force, and the resolver serving asks."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from guardian.governance.modes import effective_mode, route_modes
from guardian.governance.routestate import ModeResolver, RouteStatus
from tests.support.governance import governed_policy


def state(mode: str, pair: str | None = "pair-a") -> RouteStatus:
    return RouteStatus("default", mode, pair, None, "drill", 1, datetime.now(UTC), "cli:ops")


def test_policy_off_wins_over_any_database_state() -> None:
    d = effective_mode("off", state("speculative"), pair_hash="pair-a")
    assert (d.mode, d.source) == ("off", "policy_off")


def test_database_state_wins_over_the_file_and_says_who_set_it() -> None:
    d = effective_mode("speculative", state("target_only"), pair_hash="pair-a")
    assert d.mode == "target_only" and d.source == "database" and "cli:ops: drill" in d.reason


def test_a_promotion_of_another_pair_does_not_make_this_pair_speculative() -> None:
    d = effective_mode("target_only", state("speculative", pair="pair-b"), pair_hash="pair-a")
    assert (d.mode, d.source) == ("target_only", "other_pair")
    assert effective_mode("target_only", state("speculative", pair="pair-b")).mode == "speculative"


def test_a_file_speculative_is_held_to_the_gate_and_the_gate_is_asked_lazily() -> None:
    asked: list[int] = []

    def refuse() -> str:
        asked.append(1)
        return "no gate report"

    assert effective_mode("target_only", None, gate=refuse).mode == "target_only"
    assert asked == []  # not needed for a target_only file
    d = effective_mode("speculative", None, gate=refuse)
    assert (d.mode, d.reason, asked) == ("target_only", "no gate report", [1])
    assert effective_mode("speculative", None, gate=lambda: None).mode == "speculative"


def test_route_modes_lists_database_only_routes_and_asks_the_gate_once_per_pair() -> None:
    policy = governed_policy(mode="speculative")
    asked: list[str] = []

    def refusal(pair: str) -> str | None:
        asked.append(pair)
        return None

    out = route_modes(policy, {"gone": state("speculative")}, pair_hash="pair-a",
                      gate_refusal=refusal)
    assert out["gone"].mode is None and out["gone"].source == "not_in_policy"
    assert out["default"].mode == "speculative" and asked == ["pair-a"]


@pytest.mark.parametrize("mode", ["speculative", "target_only", "off"])
def test_the_resolver_answers_with_effective_mode(store, mode) -> None:
    store.set_mode("default", mode, actor="cli:ops", reason="drill", pair_hash="pair-a")
    resolver = ModeResolver(store, pair_hash="pair-a")
    for policy_mode in ("speculative", "target_only", "off"):
        expected = effective_mode(policy_mode, store.get("default"), pair_hash="pair-a")
        assert resolver.decide("default", policy_mode) == expected
        assert resolver.mode("default", policy_mode) == expected.mode

"""The trigger table: one entry per trigger (name -> evaluator, policy section, failure
limit), checked against the policy schema when a policy loads."""

from __future__ import annotations

import pytest

from guardian.governance import triggers
from guardian.governance.triggers.registry import TRIGGERS, Trigger
from guardian.policy import (
    AcceptanceTrigger,
    DivergenceTrigger,
    DriftTrigger,
    LatencyTrigger,
    PolicyError,
    TriggerPolicy,
    load_policy_file,
)

GOOD = "routes:\n  default:\n    mode: speculative\n"


@pytest.fixture
def policy_file(tmp_path):
    path = tmp_path / "policy.yaml"
    path.write_text(GOOD)
    return path


def test_every_trigger_takes_its_failure_limit_from_its_own_section() -> None:
    policy = TriggerPolicy(acceptance=AcceptanceTrigger(failure_limit=7),
                           divergence=DivergenceTrigger(failure_limit=1),
                           latency=LatencyTrigger(failure_limit=5), drift=DriftTrigger(failure_limit=9))
    limits = {name: triggers.failure_limit(policy, name) for name in TRIGGERS}
    assert limits == {"acceptance": 7, "divergence": 1, "latency": 5, "drift_acceptance": 9,
                      "drift_tokens": 9, "near_tie": 2}


def test_an_unregistered_trigger_has_no_limit_rather_than_another_triggers() -> None:
    with pytest.raises(KeyError):
        triggers.failure_limit(TriggerPolicy(), "latency_p99")


def test_a_registered_trigger_without_a_policy_section_fails_the_policy_load(
        policy_file, monkeypatch) -> None:
    monkeypatch.setitem(TRIGGERS, "queue_depth", Trigger("queue_depth", "queue",
                                                         lambda window, section: None))
    with pytest.raises(PolicyError, match=r"trigger 'queue_depth' reads section triggers\.queue"):
        load_policy_file(policy_file)


def test_a_policy_section_without_a_registered_trigger_fails_the_policy_load(
        policy_file, monkeypatch) -> None:
    monkeypatch.delitem(TRIGGERS, "latency")
    with pytest.raises(PolicyError, match=r"section triggers\.latency configures no registered"):
        load_policy_file(policy_file)


def test_the_shipped_table_matches_the_schema(policy_file) -> None:
    triggers.check_sections()
    assert set(TriggerPolicy().model_dump()) >= {t.section for t in TRIGGERS.values()}
    assert load_policy_file(policy_file).route("default").mode == "speculative"


def test_a_disabled_section_turns_its_triggers_off(clock) -> None:
    from guardian.governance.windows import RouteWindow

    policy = TriggerPolicy(drift=DriftTrigger(enabled=False), latency=LatencyTrigger(enabled=False))
    measured = triggers.evaluate_triggers(RouteWindow("default", clock=clock), policy)
    assert set(measured) == {"acceptance", "divergence", "near_tie"}
    assert {m.outcome for m in measured.values()} <= {"pass", "fail", "inconclusive"}

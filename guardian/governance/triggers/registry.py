"""The trigger table: name -> evaluator, policy section, failure limit. The ONE place a
trigger is wired in.

A trigger is a module with an `evaluate(window, section) -> Measurement` function plus one
`Trigger` entry below. Its `section` names the field of the route's `triggers:` policy
(`guardian.policy.triggers.TriggerPolicy`) that configures it: the section's `enabled` turns
it off and its `failure_limit` says after how many consecutive failing evaluations it fires.
Several triggers may read one section (drift measures two distributions).

`check_sections` refuses a table and a schema that disagree — a trigger whose section the
schema lacks, or a section no trigger reads — when this module is imported and again on
every policy load (`guardian.policy.register_check`), so nothing falls back to another
trigger's settings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from guardian.governance.stats import Measurement
from guardian.governance.triggers import acceptance, divergence, drift, latency, near_tie
from guardian.governance.windows import RouteWindow
from guardian.policy import Policy, PolicyError, TriggerPolicy, TriggerSection

Evaluator = Callable[[RouteWindow, Any], Measurement]


@dataclass(frozen=True, slots=True)
class Trigger:
    name: str  # as recorded in rollback evidence, metrics and the `trigger:` actor
    section: str  # the TriggerPolicy field that configures it (enabled, failure_limit, ...)
    evaluate: Evaluator  # pure over the window: pass / fail / inconclusive

    def config(self, policy: TriggerPolicy) -> TriggerSection:
        return policy.section(self.section)

    def failure_limit(self, policy: TriggerPolicy) -> int:
        return self.config(policy).failure_limit


TRIGGERS: dict[str, Trigger] = {t.name: t for t in (
    Trigger("acceptance", "acceptance", acceptance.evaluate),
    Trigger("divergence", "divergence", divergence.evaluate),
    Trigger("latency", "latency", latency.evaluate),
    Trigger("drift_acceptance", "drift", drift.evaluate_accepted_lengths),
    Trigger("drift_tokens", "drift", drift.evaluate_tokens),
    Trigger("near_tie", "near_tie", near_tie.evaluate),
)}


def check_sections(triggers: Iterable[Trigger] | None = None,
                   sections: Iterable[str] | None = None) -> None:
    """PolicyError unless every trigger has a section and every section has a trigger."""
    table = list(TRIGGERS.values() if triggers is None else triggers)
    schema = set(TriggerPolicy.section_names() if sections is None else sections)
    used = {t.section for t in table}
    problems = [f"trigger {t.name!r} reads section triggers.{t.section}, which the policy "
                f"schema does not have (sections: {', '.join(sorted(schema))})"
                for t in table if t.section not in schema]
    problems += [f"policy section triggers.{s} configures no registered trigger; register one "
                 "in guardian.governance.triggers.registry or remove the section"
                 for s in sorted(schema - used)]
    if problems:
        raise PolicyError("trigger registry and policy schema disagree: " + "; ".join(problems))


def check_policy(policy: Policy) -> None:
    """The load-time check (`guardian.policy.register_check`): the table against the schema
    and against every route's loaded `triggers:` section."""
    check_sections()
    for name, route in policy.routes.items():
        for t in TRIGGERS.values():
            if not isinstance(getattr(route.triggers, t.section, None), TriggerSection):
                raise PolicyError(f"routes.{name}.triggers.{t.section}: no configuration for "
                                  f"trigger {t.name!r}")


def evaluate_triggers(window: RouteWindow, policy: TriggerPolicy, now: float | None = None,
                      table: Mapping[str, Trigger] | None = None) -> dict[str, Measurement]:
    """Measure every enabled trigger on the window (pruned to `policy.window_s` first).

    Pure over the window: deciding whether a failure *fires* (failure limits, only counting
    evaluations that saw new data, cool-down) is the rollback controller's job."""
    window.window_s = policy.window_s
    window.prune(now)
    return {t.name: t.evaluate(window, t.config(policy))
            for t in (TRIGGERS if table is None else table).values() if t.config(policy).enabled}


def failure_limit(policy: TriggerPolicy, name: str) -> int:
    """Consecutive failing evaluations after which trigger `name` fires (KeyError: unknown)."""
    return TRIGGERS[name].failure_limit(policy)

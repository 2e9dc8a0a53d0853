"""guardian.core.enums is the one vocabulary: the engine's own copies must say the same."""

from __future__ import annotations

from typing import get_args

from guardian.core import enums


def test_engine_gamma_strategies_are_guardians() -> None:
    from engine.controllers import GammaStrategy

    assert get_args(GammaStrategy) == get_args(enums.GammaStrategy)


def test_audit_events_use_the_enums() -> None:
    from guardian.audit import events

    assert events.Mode is enums.Mode and events.Redaction is enums.Redaction
    assert events.Verdict is enums.Verdict

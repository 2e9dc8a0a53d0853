"""Route policy: what mode each traffic slice runs in and how it is checked.

A package of its own, below governance (it imports nothing from `guardian.governance`):
- `base`     strict models and `PolicyError`
- `triggers` the `triggers:` schema of a route (continuous checks that roll it back)
- `gate`     the `gate:` schema of a route (what a pair must show before promotion)
- `model`    `Policy` / `RoutePolicy` and the content hash
- `loading`  reading a YAML file with file:line errors, load-time checks, hot reload
"""

from __future__ import annotations

from guardian.core.enums import Mode
from guardian.policy.base import PolicyError
from guardian.policy.gate import GatePolicy
from guardian.policy.loading import PolicyReloader, load_policy, load_policy_file, register_check
from guardian.policy.model import (
    DEFAULT_POLICY_FILE,
    REDACTION_PROTECTION,
    CanaryPolicy,
    GammaPolicy,
    Policy,
    RoutePolicy,
    ShadowPolicy,
    SloPolicy,
)
from guardian.policy.triggers import (
    AcceptanceTrigger,
    DivergenceTrigger,
    DriftTrigger,
    LatencyTrigger,
    NearTieTrigger,
    TriggerPolicy,
    TriggerSection,
)

__all__ = [
    "DEFAULT_POLICY_FILE",
    "REDACTION_PROTECTION",
    "AcceptanceTrigger",
    "CanaryPolicy",
    "DivergenceTrigger",
    "DriftTrigger",
    "GammaPolicy",
    "GatePolicy",
    "LatencyTrigger",
    "Mode",
    "NearTieTrigger",
    "Policy",
    "PolicyError",
    "PolicyReloader",
    "RoutePolicy",
    "ShadowPolicy",
    "SloPolicy",
    "TriggerPolicy",
    "TriggerSection",
    "load_policy",
    "load_policy_file",
    "register_check",
]

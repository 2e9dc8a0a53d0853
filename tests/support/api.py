"""Helpers shared by the tests (from tests/guardian/api/conftest.py, where its fixtures stay)."""

from __future__ import annotations

from guardian.policy import Policy, RoutePolicy, ShadowPolicy
from guardian.security.auth import ROLES, KeyStore

KEYS = {role: f"sg-test-{role}" for role in ROLES}


def policy(mode: str = "target_only", sample_rate: float = 0.0, **route: object) -> Policy:
    return Policy(routes={
        "default": RoutePolicy(mode=mode, shadow=ShadowPolicy(sample_rate=sample_rate), **route),
        "canary": RoutePolicy(mode="speculative", models=["fake-canary"],
                              shadow=ShadowPolicy(sample_rate=sample_rate)),
    })


def keystore() -> KeyStore:
    store = KeyStore()
    for role, key in KEYS.items():
        store.add(key, f"{role}-key", role)  # type: ignore[arg-type]
    return store


def auth(role: str = "inference") -> dict[str, str]:
    return {"Authorization": f"Bearer {KEYS[role]}"}

"""The policy in force as the dashboard reads it, and what the pages take from it.
(Split out of `dashboard.data`, which re-exports these names.)

The policy is the newest load the sidecars recorded (`policy_loads` + `policy_versions`,
written by `guardian.policy.loading.record_policy_load`), else the file this dashboard is
configured with (`policy_in_force`). SLO targets come from its `slo:` section, drift
thresholds from the default route's `triggers.drift` (what the rollback trigger uses),
acceptance floors from each route's `triggers.acceptance.min_alpha`, the pool-hour price
from `cost:`; else the documented defaults in `dashboard.slo` / `dashboard.drift`.
"""

from __future__ import annotations

import logging
from typing import Any

import streamlit as st

from dashboard import queries
from dashboard.connection import CACHE_TTL_S, database_url, db_for
from dashboard.drift import DriftThresholds
from dashboard.slo import SloTargets

log = logging.getLogger(__name__)


def _parse_policy(text: str) -> tuple[Any, str | None]:
    """(Policy, None) from a recorded policy text (YAML or JSON), else (None, why)."""
    import yaml
    from pydantic import ValidationError

    from guardian.policy import Policy

    try:
        return Policy.model_validate(yaml.safe_load(text) or {}), None
    except (yaml.YAMLError, ValidationError, TypeError) as exc:
        return None, str(exc).splitlines()[0]


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def policy_in_force(url: str) -> dict[str, Any]:
    """The policy in force: the one the sidecars loaded last (`policy_loads` + its recorded
    content in `policy_versions`), else the file this dashboard is configured with.

    {'source' ('database' | 'file'), 'path', 'hash', 'yaml', 'policy' (dict), 'error',
    'loaded_at', 'loaded_by', 'file_hash' (this host's file), 'tampered' (the recorded content
    does not hash to its recorded hash: someone edited the table)}.
    """
    from guardian.policy import DEFAULT_POLICY_FILE, PolicyError, load_policy
    from guardian.settings import Settings

    path = Settings().policy_file or DEFAULT_POLICY_FILE
    try:
        file_policy, file_error = load_policy(path), None
    except PolicyError as exc:
        file_policy, file_error = None, str(exc)
    out: dict[str, Any] = {"source": "file", "path": str(path), "error": file_error,
                           "hash": file_policy.content_hash if file_policy else None,
                           "yaml": path.read_text() if file_policy else None,
                           "policy": file_policy.model_dump(mode="json") if file_policy else None,
                           "loaded_at": None, "loaded_by": None, "tampered": False,
                           "file_hash": file_policy.content_hash if file_policy else None}
    try:
        loads = queries.policy_versions(db_for(url), limit=1)
    except Exception as exc:  # the file still says something useful
        log.warning("cannot read policy versions: %s", exc)
        return out
    if loads.empty or not isinstance(loads.iloc[0]["content"], str):
        return out
    row = loads.iloc[0]
    policy, error = _parse_policy(row["content"])
    out.update(source="database", path=row["policy_file"], hash=row["policy_hash"],
               yaml=row["content"], loaded_at=row["loaded_at"], loaded_by=row["loaded_by"],
               policy=policy.model_dump(mode="json") if policy else None,
               error=None if policy else f"the recorded policy does not parse: {error}",
               tampered=policy is not None and policy.content_hash != row["policy_hash"])
    return out


def active_policy() -> dict[str, Any]:
    """`policy_in_force` of the configured database."""
    return policy_in_force(database_url())


def slo_targets() -> SloTargets:
    pol = active_policy().get("policy") or {}
    return SloTargets.from_mapping(pol.get("slo"))


def drift_thresholds() -> DriftThresholds:
    """The default route's `triggers.drift` (the rollback trigger's thresholds), else defaults."""
    pol = active_policy().get("policy") or {}
    route = (pol.get("routes") or {}).get(pol.get("default_route"), {})
    return DriftThresholds.from_trigger((route.get("triggers") or {}).get("drift"))


def acceptance_floors(routes: list[str]) -> dict[str, float]:
    """route -> its acceptance trigger's floor (`triggers.acceptance.min_alpha`) where enabled."""
    pol_routes = (active_policy().get("policy") or {}).get("routes") or {}
    out = {}
    for name in routes:
        acc = ((pol_routes.get(name) or {}).get("triggers") or {}).get("acceptance") or {}
        if acc.get("enabled", True) and acc.get("min_alpha") is not None:
            out[name] = float(acc["min_alpha"])
    return out


def pool_price() -> tuple[float | None, str]:
    """(price of a pool-hour, currency) from the policy's `cost:` section; (None, "") without."""
    cost = (active_policy().get("policy") or {}).get("cost") or {}
    return (float(cost["pool_hour"]), str(cost.get("currency") or "")) if cost else (None, "")

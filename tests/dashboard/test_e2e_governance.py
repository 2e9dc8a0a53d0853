"""A dashboard that never breaks, in a real browser: every governance act first, through the
real commands (manual rollback `guardian route disable`, re-enable `guardian route enable`,
promotion `guardian route promote`, canary steps `guardian canary start|advance`, a policy
reload through `PolicyReloader`), then every page
opened in headless Chromium (Debian's `chromium`) from a real `streamlit run`: no exception,
no error element, a chart / figure wherever the acts and the seeded traffic left data, and a
screenshot per page under artifacts/screenshots/governance-*.png.

The dashboard runs WITHOUT the served policy file: the pages must show the policy the
sidecar put in force (recorded on load / reload), not the file on the dashboard's host.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.dashboard.test_e2e_chromium import (  # noqa: F401 - `browser` is a fixture
    Cdp,
    _open,
    _shot,
    browser,
    streamlit,
)
from tests.support.dashboard import KeysFile, seed

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

SERVED_POLICY = """
default_route: chat
cost: {pool_hour: 3.0, currency: USD}
routes:
  chat: {mode: speculative, shadow: {sample_rate: 0.5}, canary: {steps: [10, 50, 100]}}
  code: {mode: target_only}
  drifty: {mode: speculative}
"""
PAGES = {"overview": "Overview / SLOs", "acceptance": "Acceptance & drift",
         "shadow": "Shadow equivalence", "audit": "Audit explorer",
         "pairs": "Pairs, promotions & rollbacks", "policy": "Policy",
         "executive": "Executive: cost & speedup"}


@dataclass
class Acted:
    url: str
    keys: KeysFile
    policy_hash: str  # the policy in force after the reload


def _cli(*args: str) -> str:
    from guardian.cli import app

    res = CliRunner().invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.output


def _record_gate_report(url: str, pair: str, policy_hash: str) -> None:
    """A passing gate report for `pair` under the served policy (as `guardian gate` records)."""
    from guardian.audit.events import GovernanceEvent
    from guardian.audit.writer import AuditWriter
    from guardian.governance.reportsig import current_signer, sign_report

    writer = AuditWriter(url, spool_dir=Path(url.removeprefix("sqlite:///")).parent / "spool")
    details = {"pair_hash": pair, "policy_hash": policy_hash, "route": "chat", "passed": True,
               "created_at": datetime.now(UTC).isoformat(), "golden_sha256": "0" * 64,
               "checks": [{"name": "greedy_equivalence", "outcome": "pass", "value": 1.0,
                           "threshold": 1.0, "detail": "10/10 identical"}]}
    signer = current_signer("test")  # signed like `guardian gate`'s: an unsigned row counts for nothing
    assert signer is not None
    writer.submit(GovernanceEvent(
        event_id=f"gov-{uuid.uuid4().hex}", created_at=datetime.now(UTC), kind="gate_result",
        route="chat", pair_hash=pair, policy_hash=policy_hash, actor="api-key:release-1",
        details=sign_report(details, signer)))
    writer.close()


@pytest.fixture(scope="module")
def acted(tmp_path_factory: pytest.TempPathFactory, dashboard_keys: KeysFile) -> Iterator[Acted]:
    """Seeded traffic, then every governance act, then `streamlit run` on the result."""
    from guardian.audit.writer import AuditWriter
    from guardian.core.db import make_engine
    from guardian.devtools.benchmarks.dashboard_bench import PAIR
    from guardian.policy import PolicyReloader, load_policy

    tmp = tmp_path_factory.mktemp("governance")
    url = f"sqlite:///{tmp / 'guardian.db'}"
    seed(url, requests=600, incident=False, divergences=False)
    served = tmp / "served.yaml"
    served.write_text(SERVED_POLICY)
    keys = dashboard_keys.keys
    common = ["--keys-file", str(dashboard_keys.path), "--url", url, "--policy", str(served)]
    # The sidecar starts with the served policy (recorded as loaded).
    db = make_engine(url)
    sink = AuditWriter(url, spool_dir=tmp / "spool")
    reloader = PolicyReloader(served, lambda p: None, sink=sink, db=db, actor="replica:e2e-1")
    _record_gate_report(url, PAIR, load_policy(served).content_hash)
    # 1. manual rollback (on-call), 2. re-enable (on-call, the gate report above), 3. promotion.
    _cli("route", "disable", "chat", "--reason", "e2e: manual rollback", "--key",
         keys["oncall"], *common)
    _cli("route", "enable", "chat", "--reason", "e2e: cause fixed", "--key", keys["oncall"],
         *common)
    _cli("route", "promote", "code", "--pair", PAIR[:16], "--reason", "e2e: promotion", "--key",
         keys["release"], *common)
    # 4. canary steps (release): start at the first step, widen one step by hand.
    _cli("canary", "start", "chat", "--pair", PAIR[:16], "--reason", "e2e: canary", "--key",
         keys["release"], *common)
    _cli("canary", "advance", "chat", "--reason", "e2e: widen", "--key", keys["release"],
         *common)
    # 5. policy reload: the file changes under the running sidecar's reloader.
    served.write_text(SERVED_POLICY.replace("sample_rate: 0.5", "sample_rate: 0.75"))
    changed, new_hash = reloader.reload(actor="api-key:oncall-1")
    assert changed, new_hash
    sink.close()
    db.dispose()

    env = {**os.environ, "GUARDIAN_DATABASE_URL": url,
           "GUARDIAN_API_KEYS_FILE": str(dashboard_keys.path)}
    for name in ("GUARDIAN_DASHBOARD_DEV", "GUARDIAN_POLICY_FILE"):
        env.pop(name, None)  # the dashboard host has the default file, not the served one
    with streamlit(env) as base:
        yield Acted(base, dashboard_keys, new_hash)


TEXT = "JSON.stringify(document.body.innerText)"


def _text(cdp: Cdp) -> str:
    import json

    return json.loads(cdp.call("Runtime.evaluate", expression=TEXT, returnByValue=True)
                      ["result"]["value"])


@pytest.mark.parametrize("page", list(PAGES))
def test_every_page_after_every_governance_act(acted: Acted, browser: Cdp,  # noqa: F811
                                               page: str) -> None:
    path = "" if page == "overview" else page
    state = _open(browser, acted, f"{path}?range=3d", "admin", PAGES[page])  # type: ignore[arg-type]
    _shot(browser, f"governance-{page}")
    state = browser.probe()
    assert state["exceptions"] == 0 and state["errors"] == 0, state
    assert not state["not_found"], state
    assert state["metrics"] > 0, state
    if page != "policy":
        assert state["charts"] > 0 or page == "audit", state
    text = _text(browser)
    policy_hash = acted.policy_hash
    if page == "overview":
        # Route states and active incidents first: drifty's seeded trigger rollback is open;
        # chat was rolled back by hand and re-enabled, so it is not.
        assert text.index("Routes now") < text.index("Active incidents") < text.index("Requests")
        assert "Route drifty rolled back" in text and "Route chat rolled back" not in text
    elif page == "pairs":
        for kind in ("Rollbacks** (2)", "Re-enables** (1)", "Promotions** (2)",
                     "Canary steps** (2)"):
            assert kind.replace("**", "") in text, kind
        assert "e2e: manual rollback" in text or "by api-key:oncall-1" in text
        assert "canary 50%" in text  # chat's canary, widened one step: a share, not the route
    elif page == "policy":
        assert policy_hash[:12] in text and "api-key:oncall-1" in text
        assert "not the policy in force" in text  # the host's own file differs
    elif page == "executive":
        assert "pool-hour 3 USD" in text and "Speedup" in text
    elif page == "acceptance":
        assert "Drift triggers that fired" in text and "accepted_length_drift" in text

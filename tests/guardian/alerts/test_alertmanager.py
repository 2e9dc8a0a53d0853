"""A trigger's rollback reaches a real Alertmanager (v2 API) and a generic webhook; a dead
receiver is only a log line. Alertmanager is Debian's `prometheus-alertmanager`, started on
a free port with a temporary config."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest

from guardian.alerts.alertmanager import AlertSender, parse_labels, rollback_alerts
from guardian.audit import upgrade
from guardian.audit.events import ShadowEvent
from guardian.audit.memory import MemorySink
from guardian.core.db import make_engine
from guardian.governance.rollback import RollbackController
from guardian.governance.routestate import RouteStateStore
from guardian.policy import Policy, RoutePolicy, TriggerPolicy

BINARY = shutil.which("prometheus-alertmanager") or shutil.which("alertmanager")
CONFIG = """route:
  receiver: blackhole
  group_wait: 1s
receivers:
  - name: blackhole
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.loads(r.read() or b"null")


@pytest.fixture
def alertmanager(tmp_path: Path) -> Iterator[str]:
    if BINARY is None:
        pytest.skip("prometheus-alertmanager not installed (.ci/run installs it)")
    (tmp_path / "am.yml").write_text(CONFIG)
    port = _free_port()
    proc = subprocess.Popen(
        [BINARY, f"--config.file={tmp_path / 'am.yml'}", f"--storage.path={tmp_path / 'am-data'}",
         f"--web.listen-address=127.0.0.1:{port}", "--cluster.listen-address="],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                _get(url + "/api/v2/status")
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
                assert time.monotonic() < deadline, "alertmanager did not start"
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def webhook() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    received: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            received.append(json.loads(body))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook", received
    server.shutdown()


@pytest.fixture
def db_engine(sqlite_url):  # type: ignore[no-untyped-def]
    upgrade(sqlite_url)
    engine = make_engine(sqlite_url)
    yield engine
    engine.dispose()


def _divergence() -> ShadowEvent:
    return ShadowEvent(request_id="req-d", created_at=datetime.now(UTC), route="default",
                       pair_hash="pair-a", policy_hash="p", shadow_path="target_only",
                       verdict="divergence", first_divergence_position=2,
                       margin_at_divergence=3.0, tolerance=0.5, stats={},
                       shadow_compute_time_s=0.1)


def _wait(pred, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_rollback_is_posted_to_alertmanager_and_the_webhook(
        alertmanager, webhook, db_engine, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    hook_url, received = webhook
    monkeypatch.setenv("GUARDIAN_ALERTMANAGER_URL", alertmanager)
    monkeypatch.setenv("GUARDIAN_ALERT_LABELS", "cluster=eu-1")
    store = RouteStateStore(db_engine)
    store.set_mode("default", "speculative", actor="api-key:rel", reason="promoted",
                   pair_hash="pair-a")
    policy = Policy(routes={"default": RoutePolicy(
        mode="speculative", triggers=TriggerPolicy(webhook_url=hook_url))})
    ctl = RollbackController(store, MemorySink(), lambda: policy, pair_hash="pair-a")
    assert ctl.alerts is not None  # from the environment
    ctl.observe(_divergence())
    assert ctl.evaluate("default").action == "rolled_back"

    def ours() -> list[dict[str, Any]]:
        return [a for a in _get(alertmanager + "/api/v2/alerts")
                if a["labels"].get("service") == "spec-guardian"]
    _wait(lambda: len(ours()) == 2)
    by_name = {a["labels"]["alertname"]: a for a in ours()}
    fired = by_name["GuardianTriggerFired"]["labels"]
    assert fired["trigger"] == "divergence" and fired["route"] == "default"
    assert fired["cluster"] == "eu-1" and fired["severity"] == "critical"
    assert by_name["GuardianRouteRolledBack"]["status"]["state"] == "active"
    assert "divergence" in by_name["GuardianRouteRolledBack"]["annotations"]["description"]
    # the generic webhook got the full evidence
    _wait(lambda: len(received) == 1)
    assert received[0]["route"] == "default" and received[0]["fired"] == ["divergence"]
    assert received[0]["new_mode"] == "target_only"


def test_alertmanager_refuses_a_malformed_alert_and_we_post_valid_ones(alertmanager) -> None:  # type: ignore[no-untyped-def]
    from urllib.error import HTTPError

    from guardian.alerts.alertmanager import post_alerts

    with pytest.raises(HTTPError):  # the real API validates: labels are required
        post_alerts(alertmanager, [{"annotations": {"x": "y"}}], 5)
    alerts = rollback_alerts("chat", ["latency", "drift"], "p95 ratio 1.4 vs 1.1",
                             pair_hash="abcdef0123456789", generator_url="http://sg/x")
    assert post_alerts(alertmanager, alerts, 5) == 200
    names = sorted(a["labels"]["alertname"] + ":" + a["labels"].get("trigger", "")
                   for a in _get(alertmanager + "/api/v2/alerts"))
    assert names == ["GuardianRouteRolledBack:", "GuardianTriggerFired:drift",
                     "GuardianTriggerFired:latency"]


def test_a_dead_alertmanager_is_only_a_log_line(caplog) -> None:  # type: ignore[no-untyped-def]
    port = _free_port()  # nothing listens there
    sender = AlertSender([f"http://127.0.0.1:{port}"], timeout_s=0.5)
    started = time.monotonic()
    threads = sender.rollback("default", ["divergence"], "x", pair_hash=None)
    assert time.monotonic() - started < 0.2  # posting never blocks the caller
    for t in threads:
        t.join(5)
    assert any("posting 2 alerts failed" in r.message for r in caplog.records)


def test_configuration_from_the_environment(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("GUARDIAN_ALERTMANAGER_URL", raising=False)
    assert AlertSender.from_env() is None
    monkeypatch.setenv("GUARDIAN_ALERTMANAGER_URL", "http://a:9093, http://b:9093")
    monkeypatch.setenv("GUARDIAN_ALERTMANAGER_TIMEOUT_S", "oops")
    sender = AlertSender.from_env()
    assert sender is not None and sender.urls == ["http://a:9093", "http://b:9093"]
    assert sender.timeout_s == 2.0
    assert parse_labels("a=1, b = 2,junk,=x") == {"a": "1", "b": "2"}


def test_url_credentials_become_basic_auth_and_never_print() -> None:
    import base64
    import http.server
    import threading

    from typer.testing import CliRunner

    from guardian.alerts.alertmanager import post_alerts, redact_url
    from guardian.cli import app

    seen: list[tuple[str, str | None]] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            seen.append((self.path, self.headers.get("Authorization")))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://am%40ops:s3cr%3At@127.0.0.1:{server.server_port}"
        assert post_alerts(url, [], 5) == 200
        assert seen[-1] == ("/api/v2/alerts",
                            "Basic " + base64.b64encode(b"am@ops:s3cr:t").decode())
        out = CliRunner().invoke(app, ["alerts", "test-send", "--url", url])
        assert out.exit_code == 0 and "s3cr" not in out.output and "***@127.0.0.1" in out.output
    finally:
        server.shutdown()
    assert redact_url("https://u:p@h:1/x") == "https://***@h:1/x"
    assert redact_url("https://h/x") == "https://h/x"
    # Tokens in a query string or fragment (webhook URLs carry them there) are hidden too.
    assert redact_url("https://u:p@h/x?token=s3cret&a=1#k") == "https://***@h/x?***#***"
    assert "s3cret" not in redact_url("http://h:9093/api?token=s3cret")


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://h/x", "notaurl", "http://"])
def test_only_http_urls_are_posted_to(url: str) -> None:
    from typer.testing import CliRunner

    from guardian.alerts.alertmanager import post_alerts
    from guardian.cli import app

    with pytest.raises(ValueError, match="http"):
        post_alerts(url, [], 1)
    out = CliRunner().invoke(app, ["alerts", "test-send", "--url", url])
    assert out.exit_code == 2 and "Traceback" not in out.output


@pytest.mark.parametrize("timeout", ["nan", "-1", "0", "1000"])
def test_test_send_timeout_is_bounded(timeout: str) -> None:
    from typer.testing import CliRunner

    from guardian.cli import app

    out = CliRunner().invoke(app, ["alerts", "test-send", "--url", "http://127.0.0.1:1",
                                   "--timeout", timeout])
    assert out.exit_code == 2 and "--timeout" in out.output

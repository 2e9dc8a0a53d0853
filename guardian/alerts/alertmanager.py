"""Pushing governance alerts to Alertmanager's v2 API (`POST /api/v2/alerts`).

`AlertSender` turns a trigger firing or a rollback into Alertmanager alerts and POSTs them on
its own daemon thread with a bounded timeout, so a slow or dead Alertmanager never delays
serving or the next trigger evaluation (failures are logged, never raised).

Configured by environment (read when the rollback controller starts):
- `GUARDIAN_ALERTMANAGER_URL`: Alertmanager's base URL (e.g. `http://alertmanager:9093`);
  several, comma-separated, for an HA pair (each gets every alert, as Prometheus does);
- `GUARDIAN_ALERTMANAGER_TIMEOUT_S` (default 2): per POST;
- `GUARDIAN_ALERT_LABELS`: extra labels for every alert, `k=v,k2=v2` (e.g. `cluster=eu-1`).

Alerts sent (label `alertname`): `GuardianTriggerFired` {route, trigger, pair} per fired
trigger, and `GuardianRouteRolledBack` {route, pair} — `severity: critical`, with the
reason and evidence summary as annotations. `endsAt` is left out: Alertmanager resolves
them after its `resolve_timeout`; the state itself stays in the gauges
(`guardian_route_rolled_back`) and the rules of `guardian alerts rules`.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import threading
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

logger = logging.getLogger(__name__)

URL_ENV = "GUARDIAN_ALERTMANAGER_URL"
TIMEOUT_ENV = "GUARDIAN_ALERTMANAGER_TIMEOUT_S"
LABELS_ENV = "GUARDIAN_ALERT_LABELS"


def parse_labels(text: str | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in (text or "").split(","):
        if "=" in part:
            k, v = part.split("=", 1)
            if k.strip():
                out[k.strip()] = v.strip()
    return out


def rollback_alerts(route: str, fired: Sequence[str], reason: str, *, pair_hash: str | None,
                    generator_url: str = "", extra_labels: Mapping[str, str] | None = None,
                    now: datetime | None = None) -> list[dict[str, Any]]:
    """Alertmanager v2 `postableAlerts` for one rollback (see the module docstring)."""
    starts = (now or datetime.now(UTC)).isoformat()
    base = {**(extra_labels or {}), "route": route, "pair": (pair_hash or "")[:12],
            "severity": "critical", "service": "spec-guardian"}
    alerts = [{"labels": {**base, "alertname": "GuardianTriggerFired", "trigger": name},
               "annotations": {"summary": f"trigger {name} fired on route {route}",
                               "description": reason},
               "startsAt": starts} for name in fired]
    alerts.append({"labels": {**base, "alertname": "GuardianRouteRolledBack"},
                   "annotations": {"summary": f"route {route} rolled back to target_only",
                                   "description": reason},
                   "startsAt": starts})
    for alert in alerts:
        if generator_url:
            alert["generatorURL"] = generator_url
    return alerts


def redact_url(url: str) -> str:
    """`url` fit for a log line or an error: credentials in it (user:password, and a query
    string or fragment, where tokens travel: `?token=...`) replaced by ***."""
    try:
        parts = urlsplit(url)
    except ValueError:  # e.g. an unbalanced IPv6 bracket: say nothing of it
        return "***"
    if "@" in parts.netloc:
        parts = parts._replace(netloc="***@" + parts.netloc.rsplit("@", 1)[1])
    if parts.query:
        parts = parts._replace(query="***")
    if parts.fragment:
        parts = parts._replace(fragment="***")
    return urlunsplit(parts)


def _endpoint(url: str) -> tuple[str, dict[str, str]]:
    """The alerts endpoint of an http(s) base URL and its headers: credentials in the URL
    (`https://user:pass@am:9093`, Alertmanager behind basic auth) become an Authorization
    header instead of a host name. Anything but http(s) with a host is refused (urllib would
    also open file:// and ftp:// URLs)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http:// or https:// URL with a host: {redact_url(url)!r}")
    headers = {"Content-Type": "application/json"}
    netloc = parts.netloc
    if "@" in netloc:
        user, password = unquote(parts.username or ""), unquote(parts.password or "")
        headers["Authorization"] = "Basic " + base64.b64encode(
            f"{user}:{password}".encode()).decode()
        netloc = netloc.rsplit("@", 1)[1]
    base = urlunsplit(parts._replace(netloc=netloc)).rstrip("/")
    return base + "/api/v2/alerts", headers


def post_alerts(url: str, alerts: list[dict[str, Any]], timeout_s: float) -> int:
    """POST to `<url>/api/v2/alerts`; the HTTP status (raises on transport errors and on a
    URL that is not http(s))."""
    endpoint, headers = _endpoint(url)
    req = urllib.request.Request(endpoint, data=json.dumps(alerts).encode(), method="POST",
                                 headers=headers)
    with urllib.request.urlopen(req, timeout=timeout_s) as resp:
        return int(resp.status)


class AlertSender:
    """Sends alerts to every configured Alertmanager, off the calling thread."""

    def __init__(self, urls: Sequence[str], *, timeout_s: float = 2.0,
                 labels: Mapping[str, str] | None = None,
                 post: Callable[[str, list[dict[str, Any]], float], int] = post_alerts) -> None:
        self.urls, self.timeout_s, self.labels = list(urls), timeout_s, dict(labels or {})
        self._post = post

    @classmethod
    def from_env(cls) -> AlertSender | None:
        urls = [u.strip() for u in os.environ.get(URL_ENV, "").split(",") if u.strip()]
        if not urls:
            return None
        try:
            timeout = float(os.environ.get(TIMEOUT_ENV, "2"))
        except ValueError:
            logger.warning("%s is not a number; using 2 s", TIMEOUT_ENV)
            timeout = 2.0
        return cls(urls, timeout_s=timeout, labels=parse_labels(os.environ.get(LABELS_ENV)))

    def rollback(self, route: str, fired: Sequence[str], reason: str, *,
                 pair_hash: str | None, wait: bool = False) -> list[threading.Thread]:
        alerts = rollback_alerts(route, fired, reason, pair_hash=pair_hash,
                                 extra_labels=self.labels)
        threads = [threading.Thread(target=self._send, args=(url, alerts), daemon=True,
                                    name="alertmanager-post") for url in self.urls]
        for t in threads:
            t.start()
        if wait:
            for t in threads:
                t.join(self.timeout_s + 1)
        return threads

    def _send(self, url: str, alerts: list[dict[str, Any]]) -> None:
        try:
            status = self._post(url, alerts, self.timeout_s)
            logger.info("alertmanager %s accepted %d alerts (%s)", redact_url(url), len(alerts),
                        status)
        except Exception as exc:  # a dead Alertmanager is only worth a log line
            logger.warning("alertmanager %s: posting %d alerts failed: %s", redact_url(url),
                           len(alerts), exc)

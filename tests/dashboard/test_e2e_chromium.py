"""Each page loaded in a real headless Chromium (Debian's `chromium`) from a real
`streamlit run`: a screenshot per page under artifacts/screenshots/ and no exception or error
element on the page; and the login per role (a screenshot each: login-*.png): compliance and
admin read the seeded prompt's e-mail address, card number and SSN, on-call and release never
get them in the page, an inference key and a wrong key stay on the login form. Driven over the
DevTools protocol with `websockets` (a Streamlit dependency), so no browser-automation package
is needed. A browser reload is a new Streamlit session, so every navigation logs in again."""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.dashboard import APP, LOGIN_ROLES, PII, KeysFile, add_pii_request, seed

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--window-size=1440,2200"]
PAGES = {"overview": "Overview / SLOs", "acceptance": "Acceptance & drift",
         "shadow": "Shadow equivalence", "audit": "Audit explorer",
         "pairs": "Pairs, promotions & rollbacks", "policy": "Policy"}
PROBE = """JSON.stringify({
  title: (document.querySelector('h1') || {}).innerText || null,
  running: !!document.querySelector('[data-testid="stStatusWidget"]'),
  skeleton: document.querySelectorAll('[data-testid="stSkeleton"]').length,
  exceptions: document.querySelectorAll('[data-testid="stException"]').length,
  errors: document.querySelectorAll('[data-testid="stAlertContentError"]').length,
  charts: document.querySelectorAll('[data-testid="stVegaLiteChart"], .vega-embed').length,
  metrics: document.querySelectorAll('[data-testid="stMetric"]').length,
  not_found: !!document.body && document.body.innerText.includes('Page not found'),
  login_form: !!document.querySelector('input[type="password"]'),
  alerts: [...document.querySelectorAll('[data-testid="stAlertContainer"]')].map(e => e.innerText),
  leaks: PII.filter(v => document.documentElement.innerHTML.includes(v)),
})"""
LOGIN_TITLE = "spec-guardian · log in"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_http(url: str, timeout_s: float, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} exited with {proc.returncode}")
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=2) as r:
            if r.status == 200:
                return
        time.sleep(0.3)
    raise TimeoutError(f"{url} did not answer in {timeout_s:.0f} s")


@dataclass
class Server:
    url: str
    keys: KeysFile
    pii_request: str  # a request whose prompt holds PII


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, dashboard_keys: KeysFile) -> Iterator[Server]:
    """`streamlit run dashboard/app.py` (login with `dashboard_keys`) on seeded data without
    incident or divergence, plus one request holding PII."""
    url = f"sqlite:///{tmp_path_factory.mktemp('e2e') / 'guardian.db'}"
    seed(url, requests=900, incident=False, divergences=False)
    rid = add_pii_request(url)
    env = {**os.environ, "GUARDIAN_DATABASE_URL": url,
           "GUARDIAN_API_KEYS_FILE": str(dashboard_keys.path)}
    env.pop("GUARDIAN_DASHBOARD_DEV", None)
    with streamlit(env) as base:
        yield Server(base, dashboard_keys, rid)


class Cdp:
    """Minimal DevTools-protocol client over one page target."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.ids = itertools.count(1)

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        msg_id = next(self.ids)
        self.ws.send(json.dumps({"id": msg_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv(timeout=60))
            if msg.get("id") == msg_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg["result"]

    def probe(self) -> dict[str, Any]:
        res = self.call("Runtime.evaluate", returnByValue=True,
                        expression=f"(() => {{ const PII = {json.dumps(list(PII))}; "
                                   f"return {PROBE}; }})()")
        value = res.get("result", {}).get("value")  # none while the document is being replaced
        return json.loads(value) if value else {"title": None}


@contextlib.contextmanager
def streamlit(env: dict[str, str]) -> Iterator[str]:
    """`streamlit run dashboard/app.py` on a free loopback port with `env`: its base URL once
    it answers its health check; stopped on exit."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", APP, "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false"], env=env, cwd=ROOT,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_http(f"http://127.0.0.1:{port}/_stcore/health", 60, proc)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(10)


@contextlib.contextmanager
def chromium(profile: Path, *flags: str) -> Iterator[Cdp]:
    """Headless Chromium (FLAGS, then `flags`) with the fresh `profile` directory, driven over
    the DevTools protocol on its one page; skips the test where there is no Chromium."""
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH: install Debian's `chromium` package "
                    "(apt-get install chromium) to run the browser tests")
    port = _free_port()
    proc = subprocess.Popen(
        [CHROMIUM, *FLAGS, *flags, f"--user-data-dir={profile}",
         f"--remote-debugging-port={port}", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_http(f"http://127.0.0.1:{port}/json/version", 30, proc)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as r:
            target = next(t for t in json.load(r) if t["type"] == "page")
        from websockets.sync.client import connect

        with connect(target["webSocketDebuggerUrl"], max_size=64 * 1024 * 1024) as ws:
            cdp = Cdp(ws)
            cdp.call("Page.enable")
            yield cdp
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cdp]:
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as cdp:
        yield cdp


def _shot(cdp: Cdp, name: str) -> None:
    time.sleep(1.0)  # let Vega finish drawing before the screenshot
    SHOTS.mkdir(parents=True, exist_ok=True)
    png = cdp.call("Page.captureScreenshot", format="png")["data"]
    (SHOTS / f"{name}.png").write_bytes(base64.b64decode(png))


def _open(cdp: Cdp, server: Server, path: str, role: str | None, title: str,
          key: str | None = None) -> dict[str, Any]:
    """Navigate to `path` (a new session: the login form), log in with the key of `role` (or
    `key`), and wait until the page titled `title` has rendered."""
    cdp.call("Page.navigate", url=f"{server.url}/{path}")
    _settle(cdp, LOGIN_TITLE)
    cdp.call("Runtime.evaluate", expression="document.querySelector('input[type=\"password\"]')"
                                            ".focus()")
    cdp.call("Input.insertText", text=key if key is not None else server.keys.keys[str(role)])
    cdp.call("Runtime.evaluate", expression="[...document.querySelectorAll('button')]"
                                            ".find(b => b.innerText.trim() === 'Log in').click()")
    time.sleep(1.0)  # the submit's rerun starts; _settle then waits for it to finish
    return _settle(cdp, title)


def _settle(cdp: Cdp, title: str, timeout_s: float = 60) -> dict[str, Any]:
    """Poll until the page shows `title` and Streamlit has stopped running, twice in a row."""
    deadline, stable, last = time.monotonic() + timeout_s, 0, {}
    while time.monotonic() < deadline:
        last = cdp.probe()
        done = last["title"] == title and not last.get("running") and not last.get("skeleton")
        stable = stable + 1 if done else 0
        if stable >= 2:
            return last
        time.sleep(0.5)
    raise AssertionError(f"page {title!r} did not finish rendering: {last}")


@pytest.mark.parametrize("page", list(PAGES))
def test_page_renders_in_chromium(server: Server, browser: Cdp, page: str) -> None:
    path = "" if page == "overview" else page  # the default page lives at the root
    _open(browser, server, f"{path}?range=24h", "admin", PAGES[page])
    _shot(browser, page)
    state = browser.probe()
    assert state["exceptions"] == 0, state
    assert state["errors"] == 0, state
    assert not state["not_found"], state
    if page in ("overview", "acceptance", "shadow", "pairs"):
        assert state["charts"] > 0, state
    if page in ("overview", "acceptance", "shadow", "pairs", "policy"):
        assert state["metrics"] > 0, state


@pytest.mark.parametrize("role", [r for r in LOGIN_ROLES if r != "inference"])
def test_login_per_role_in_chromium(server: Server, browser: Cdp, role: str) -> None:
    """Log in on the audit explorer at the PII request: text for compliance / admin only."""
    state = _open(browser, server, f"audit?request_id={server.pii_request}", role,
                  PAGES["audit"])
    assert not state["login_form"] and state["exceptions"] == 0, state
    if role in ("compliance", "admin"):  # open the "Prompt and completion" expander
        browser.call("Runtime.evaluate", expression="document.querySelector("
                     "'[data-testid=\"stExpander\"] summary').click()")
        time.sleep(0.5)
    _shot(browser, f"login-{role}")
    state = browser.probe()
    if role in ("compliance", "admin"):
        assert sorted(state["leaks"]) == sorted(PII), state
    else:
        assert state["leaks"] == [], state
        assert any(f"Text hidden for role {role}" in a for a in state["alerts"]), state
    assert state["exceptions"] == 0 and state["errors"] == 0, state


@pytest.mark.parametrize("who", ["inference", "wrong-key"])
def test_refused_logins_in_chromium(server: Server, browser: Cdp, who: str) -> None:
    key = server.keys.keys["inference"] if who == "inference" else "sg-" + "x" * 43
    state = _open(browser, server, f"audit?request_id={server.pii_request}", None, LOGIN_TITLE,
                  key=key)
    time.sleep(1.5)  # the failed-login delay
    state = _settle(browser, LOGIN_TITLE)
    _shot(browser, f"login-refused-{who}")
    want = "role cannot open the dashboard" if who == "inference" else "this key is not accepted"
    assert state["login_form"] and any(want in a for a in state["alerts"]), state
    assert state["leaks"] == [] and state["metrics"] == 0, state

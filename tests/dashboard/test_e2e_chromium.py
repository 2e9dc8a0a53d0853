"""Each page loaded in a real headless Chromium (Debian's `chromium`) from a real
`streamlit run`: a screenshot per page under artifacts/screenshots/ and no exception or error
element on the page. Driven over the DevTools protocol with `websockets` (a Streamlit
dependency), so no browser-automation package is needed."""

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
from pathlib import Path
from typing import Any

import pytest

from tests.dashboard.conftest import APP, seed

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
})"""


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


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`streamlit run dashboard/app.py` on seeded data without incident or divergence."""
    url = f"sqlite:///{tmp_path_factory.mktemp('e2e') / 'guardian.db'}"
    seed(url, requests=900, incident=False, divergences=False)
    port = _free_port()
    env = {**os.environ, "GUARDIAN_DATABASE_URL": url}
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
        res = self.call("Runtime.evaluate", expression=PROBE, returnByValue=True)
        value = res.get("result", {}).get("value")  # none while the document is being replaced
        return json.loads(value) if value else {"title": None}


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cdp]:
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH: install Debian's `chromium` package "
                    "(apt-get install chromium) to run the browser tests")
    port = _free_port()
    proc = subprocess.Popen(
        [CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
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
def test_page_renders_in_chromium(server: str, browser: Cdp, page: str) -> None:
    path = "" if page == "overview" else page  # the default page lives at the root
    browser.call("Page.navigate", url=f"{server}/{path}?range=24h")
    state = _settle(browser, PAGES[page])
    time.sleep(1.0)  # let Vega finish drawing before the screenshot
    SHOTS.mkdir(parents=True, exist_ok=True)
    png = browser.call("Page.captureScreenshot", format="png")["data"]
    (SHOTS / f"{page}.png").write_bytes(base64.b64decode(png))
    state = browser.probe()
    assert state["exceptions"] == 0, state
    assert state["errors"] == 0, state
    assert not state["not_found"], state
    if page in ("overview", "acceptance", "shadow", "pairs"):
        assert state["charts"] > 0, state
    if page in ("overview", "acceptance", "shadow", "pairs", "policy"):
        assert state["metrics"] > 0, state

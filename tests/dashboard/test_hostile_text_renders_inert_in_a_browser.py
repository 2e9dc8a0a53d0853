"""Hostile text and hostile pages against a real `streamlit run` in a real headless Chromium
(helpers of test_e2e_chromium.py):

* an on-call key holder's rollback reason, a prompt, a finish reason and a link's request id
  that hold Markdown links and images pointing at a local "beacon" server: the compliance
  officer's browser renders none of them as a link or image and never fetches the beacon
  (before `dashboard.plain`, the reason's image was fetched as soon as the Overview opened);
* DNS rebinding against `--dev` (no login, loopback): Chromium resolves `rebound.test` to
  127.0.0.1 (`--host-resolver-rules`), as a rebinding attacker's name would, so its page is
  same-origin with the dashboard; the dev session is refused (`dashboard.auth.browser_refusal`)
  while http://127.0.0.1:PORT/ itself still opens. Screenshots: hostile-*.png."""

from __future__ import annotations

import http.server
import json
import os
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from tests.dashboard.test_e2e_chromium import (
    PAGES,
    Cdp,
    Server,
    _open,
    _settle,
    _shot,
    chromium,
    streamlit,
)
from tests.dashboard.test_untrusted_text import write_hostile
from tests.support.dashboard import KeysFile, seed

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

REBOUND = "rebound.test"
DOM = """JSON.stringify({
  links: [...document.querySelectorAll('a[href*="beacon"], img[src*="beacon"]')].map(e => e.outerHTML),
  text: document.body.innerText,
})"""


class _Beacon(http.server.BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.hits.append(self.path)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def beacon() -> Iterator[tuple[str, list[str]]]:
    """(base URL, paths fetched) of a local server standing in for the attacker's."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Beacon)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/beacon-", _Beacon.hits
    server.shutdown()


@pytest.fixture(scope="module")
def hostile_server(tmp_path_factory: pytest.TempPathFactory, dashboard_keys: KeysFile,
                   beacon: tuple[str, list[str]]) -> Iterator[tuple[Server, str, Path]]:
    """Login-mode and dev-mode dashboards over seeded data plus `write_hostile`:
    (login server, dev-mode base URL, policy file)."""
    root = tmp_path_factory.mktemp("e2e-hostile")
    url = f"sqlite:///{root / 'guardian.db'}"
    seed(url, requests=300, incident=False, divergences=False)
    rid = write_hostile(url, root / "policy.yaml", beacon[0])
    env = {**os.environ, "GUARDIAN_DATABASE_URL": url,
           "GUARDIAN_POLICY_FILE": str(root / "policy.yaml")}
    env.pop("GUARDIAN_DASHBOARD_DEV", None)
    env.pop("GUARDIAN_API_KEYS_FILE", None)
    with streamlit({**env, "GUARDIAN_API_KEYS_FILE": str(dashboard_keys.path)}) as login, \
            streamlit({**env, "GUARDIAN_DASHBOARD_DEV": "1"}) as dev:
        yield Server(login, dashboard_keys, rid), dev.removeprefix("http://"), root


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cdp]:
    """Chromium that resolves REBOUND to 127.0.0.1, as a DNS-rebinding attacker arranges."""
    with chromium(tmp_path_factory.mktemp("chromium-hostile"),
                  f"--host-resolver-rules=MAP {REBOUND} 127.0.0.1") as cdp:
        yield cdp


def _dom(cdp: Cdp) -> dict[str, object]:
    res = cdp.call("Runtime.evaluate", returnByValue=True, expression=DOM)
    return json.loads(res["result"]["value"])


def _expand_all(cdp: Cdp) -> None:
    cdp.call("Runtime.evaluate", expression="document.querySelectorAll("
             "'[data-testid=\"stExpander\"] summary').forEach(s => s.click())")
    time.sleep(1.0)


def test_hostile_text_renders_as_text(hostile_server, browser: Cdp, beacon) -> None:  # type: ignore[no-untyped-def]
    server, _, _ = hostile_server
    base, hits = beacon
    link = urllib.parse.quote(f"x ![]({base}url) [Session expired: log in]({base}url-link)")
    for name, path, page in (
            ("overview", "?range=24h", "overview"),
            ("pairs", "pairs?range=24h", "pairs"),
            ("audit", f"audit?request_id={server.pii_request}", "audit"),
            ("link", f"audit?request_id={link}", "audit")):
        _open(browser, server, path, "compliance", PAGES[page])
        _expand_all(browser)
        _shot(browser, f"hostile-{name}")
        dom = _dom(browser)
        assert dom["links"] == [], (name, dom["links"])
        if name in ("overview", "pairs"):  # the reason is on the page, as text
            assert "FAKE HEADING" in str(dom["text"]) and "⟨U+202E⟩KCOLB" in str(dom["text"])
        if name == "audit":  # the fake "COMPLETION:" sits inside the box labelled Prompt
            text = str(dom["text"])
            assert text.index("Prompt") < text.index("COMPLETION:") < text.index("Completion")
        if name == "link":
            assert "Session expired" in str(dom["text"])
    time.sleep(1.0)
    assert hits == [], hits  # nothing made the reader's browser call the attacker


def test_dev_mode_refuses_a_rebound_name(hostile_server, browser: Cdp) -> None:  # type: ignore[no-untyped-def]
    server, dev, _ = hostile_server
    port = dev.rsplit(":", 1)[1]
    rid = server.pii_request
    browser.call("Page.navigate", url=f"http://{REBOUND}:{port}/audit?request_id={rid}")
    deadline, state = time.monotonic() + 60, browser.probe()
    while not any("loopback" in a for a in state.get("alerts") or []):  # the refusal
        assert time.monotonic() < deadline, state
        time.sleep(0.5)
        state = browser.probe()
    time.sleep(2.0)  # had anything rendered past the refusal, it would be there by now
    _shot(browser, "hostile-rebound")
    state, dom = browser.probe(), _dom(browser)
    assert "COMPLETION:" not in str(dom["text"]) and state["metrics"] == 0, state
    assert state["title"] is None, state
    # The dashboard itself, opened on its loopback address, works.
    browser.call("Page.navigate", url=f"http://{dev}/audit?request_id={rid}")
    state = _settle(browser, PAGES["audit"])
    assert not state["login_form"] and state["metrics"] > 0, state

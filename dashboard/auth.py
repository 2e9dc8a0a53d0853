"""Who is looking: the dashboard's login, and what each role may see.

The mechanism is **API-key login against the sidecar's own keys file** (`guardian dashboard
--keys-file`, i.e. `GUARDIAN_API_KEYS_FILE`): a password field before any page renders; the
key is checked by `guardian.security.auth.KeyStore` (SHA-256 digests, constant-time compare), so the
dashboard has exactly the API's principals and roles, one place to add, revoke and rotate
them, and nothing else to run. Chosen over

* Streamlit's OIDC (`st.login`): needs Authlib and an identity provider, and the IdP's users
  would still have to be mapped onto the API's roles by a second list kept in step by hand;
* a reverse-proxy identity header: safe only when every path to Streamlit goes through the
  proxy - one forgotten port and anyone can send the header.

Roles (as in the API): `compliance` and `admin` see prompt and completion text, token ids and
exports; `oncall` and `release` see metadata only (ids, lengths, hashes, verdicts, timings);
`inference` and `mirror` keys - and any other role - cannot open the dashboard. What a role
may read is enforced in the data layer (`dashboard.data` / `dashboard.queries` never select
text columns for a metadata role), not only in the pages.

Sessions: the principal lives in `st.session_state` (server memory; never sent to the browser).
The key is kept there too, and re-checked on every rerun against the keys file (re-read when it
changes), so revoking or re-roling a key ends open sessions at their next interaction. Failed
logins say only "not accepted" (unknown key and refused role differ only for a *valid* key,
whose holder knows it) and each failure waits a little longer before answering - counted per
client address and per attempted key across sessions (`dashboard.backoff`).

Without a keys file the dashboard refuses to run unless `guardian dashboard --dev` started it
(`GUARDIAN_DASHBOARD_DEV=1`) on a loopback address (checked here too, against Streamlit's
`server.address`, for a hand-made `streamlit run`): then everyone is `dev` with admin's view,
under a banner "development mode: no login". There the browser connection is checked too
(`browser_refusal`), because loopback alone does not keep web pages out: a page whose domain
is re-pointed at 127.0.0.1 (DNS rebinding) is same-origin with the dashboard in the browser's
eyes, and Streamlit accepts WebSockets from any page on `localhost` / `127.0.0.1`, any port.
So a dev session needs a loopback Host and an Origin, if any, of that same host and port.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import streamlit as st

from dashboard.backoff import BACKOFF
from dashboard.plain import code, md
from guardian.security.auth import AuthConfigError, KeyStore, Principal, is_loopback

log = logging.getLogger(__name__)

TEXT_ROLES = ("compliance", "admin")  # prompt / completion text, token ids, exports
METADATA_ROLES = ("oncall", "release")  # ids, lengths, hashes, verdicts, timings
DEV_ENV = "GUARDIAN_DASHBOARD_DEV"
KEYS_ENV = "GUARDIAN_API_KEYS_FILE"
FAILURE_DELAY_S = 0.5  # first failed login waits this long; each further one doubles it ...
MAX_FAILURE_DELAY_S = 8.0  # ... up to this (per client address / attempted key)
_SESSION = "auth_access"
_KEY = "auth_key"
_FAILURES = "auth_failures"
_sleep = time.sleep  # tests replace it to record the delays


@dataclass(frozen=True)
class Access:
    """The logged-in principal and what it may read."""

    name: str
    role: str
    dev: bool = False

    @property
    def text(self) -> bool:
        """May this principal read prompt / completion text (and token ids, exports)?"""
        return self.dev or self.role in TEXT_ROLES

    @property
    def hidden_note(self) -> str:
        return (f"Text hidden for role {self.role}: prompt and completion text, token ids and "
                "exports are shown to compliance and admin only.")


def keys_file() -> Path | None:
    raw = os.environ.get(KEYS_ENV, "").strip()
    return Path(raw) if raw else None


def dev_mode() -> bool:
    return os.environ.get(DEV_ENV, "").strip().lower() in ("1", "true", "yes")


@st.cache_resource(show_spinner=False, max_entries=4)
def _store(path: str, mtime_ns: int, size: int) -> KeyStore:
    """The keys file as a KeyStore, re-read whenever it changes (keyed on its stat)."""
    return KeyStore.from_file(path)


def key_store(path: Path) -> KeyStore:
    stat = path.stat()
    return _store(str(path), stat.st_mtime_ns, stat.st_size)


def access_for(principal: Principal | None) -> Access | None:
    """The dashboard access of an authenticated principal; None if its role may not open it."""
    if principal is None or principal.role not in TEXT_ROLES + METADATA_ROLES:
        return None
    return Access(principal.name, principal.role)


def failure_delay(failures: int) -> float:
    """Seconds to wait before answering the `failures`-th failed login of a session."""
    return 0.0 if failures < 1 else min(FAILURE_DELAY_S * 2 ** (failures - 1), MAX_FAILURE_DELAY_S)


def browser_refusal(headers: Mapping[str, str]) -> str | None:
    """Why the browser connection (its WebSocket's `headers`) may not see a no-login session,
    or None: its Host must be loopback (not a rebound domain) and its Origin, when it sends one,
    that same host and port (not another page on localhost). No headers (a test harness, a
    non-browser client): None."""
    host, origin = headers.get("Host"), headers.get("Origin")
    if host is not None:
        try:
            name = urlsplit(f"//{host}").hostname or ""
        except ValueError:
            name = ""
        if not is_loopback(name):
            return f"the page was opened as {code(host)}, not a loopback address"
    if origin is not None:
        try:
            netloc = urlsplit(origin).netloc
        except ValueError:
            netloc = ""
        if not netloc or netloc.lower() != (host or "").lower():
            return f"the connection comes from the web page {code(origin)}, not from this dashboard"
    return None


def current() -> Access:
    """The access of this session (pages call this; `gate` ran first in the entry point)."""
    access = st.session_state.get(_SESSION)
    if not isinstance(access, Access):  # a page run without the entry point: refuse, not leak
        st.error("Not logged in.")
        st.stop()
    return access


def logged_in() -> bool:
    """Has this session logged in, or is there no login (dev mode)? Not re-checked here: `gate`
    does that."""
    if keys_file() is None:
        return dev_mode()
    return isinstance(st.session_state.get(_SESSION), Access)


def logout() -> None:
    for k in (_SESSION, _KEY):
        st.session_state.pop(k, None)


def gate() -> Access:
    """Return this session's access, or render the login form (or a refusal) and stop."""
    path = keys_file()
    if path is None:
        if not dev_mode():
            st.error("No API keys file: the dashboard shows audit data only after a login with a "
                     "sidecar API key. Start it with `guardian dashboard --keys-file FILE` (or "
                     f"set {KEYS_ENV}); for a local try-out without login use "
                     "`guardian dashboard --dev`.")
            st.stop()
        address = st.get_option("server.address")  # None: all interfaces
        if not (address and is_loopback(address)):
            st.error("Development mode (no login) serves a loopback address only, and this "
                     f"server listens on {address or 'all interfaces'}: start it with "
                     "`guardian dashboard --dev` (127.0.0.1), or give it a keys file.")
            st.stop()
        refusal = browser_refusal(st.context.headers)
        if refusal is not None:
            log.warning("dev-mode dashboard refused a browser connection: %s", refusal)
            st.error(f"Development mode (no login) serves pages opened from this machine's "
                     f"loopback address only, and {refusal}. Open the dashboard at "
                     "`http://127.0.0.1:PORT` (or localhost) itself, or give it a keys file.")
            st.stop()
        access = Access("dev", "admin", dev=True)
        st.session_state[_SESSION] = access
        st.warning("development mode: no login - anyone who can reach this port sees everything, "
                   "prompt and completion text included.", icon=":material/lock_open:")
        return access
    try:
        store = key_store(path)
    except (OSError, AuthConfigError) as exc:
        log.error("dashboard keys file unusable: %s", exc)
        logout()
        st.error(f"The API keys file cannot be read, so nobody can log in: {md(exc)}")
        st.stop()
    key = st.session_state.get(_KEY)
    if key is not None:
        access = access_for(store.authenticate(key))
        if access is not None:
            st.session_state[_SESSION] = access
            return access
        logout()  # revoked or re-roled since login
        st.warning("Your key is no longer accepted (revoked or its role changed): log in again.")
    _login_form(store)
    st.stop()
    raise AssertionError("unreachable")  # st.stop() raises


def _login_form(store: KeyStore) -> None:
    st.title("spec-guardian · log in")
    st.caption("Log in with your sidecar API key (the keys file of `guardian dashboard "
               "--keys-file`). compliance and admin keys see prompt and completion text; "
               "on-call and release keys see metadata only.")
    with st.form("login", clear_on_submit=True):
        key = st.text_input("API key", type="password", key="login_key",
                            placeholder="sg-…", autocomplete="current-password")
        submitted = st.form_submit_button("Log in", type="primary")
    if not submitted:
        return
    principal = store.authenticate(key.strip())
    access = access_for(principal)
    if access is None:
        address = _client_address()
        # Per client address and attempted key across sessions (dashboard.backoff): a new
        # browser session no longer starts again at no delay. Keys are 256-bit random, so
        # this is belt and braces.
        failures = BACKOFF.failed(address, key.strip())
        st.session_state[_FAILURES] = int(st.session_state.get(_FAILURES, 0)) + 1
        _sleep(failure_delay(failures))
        if principal is None:
            log.warning("dashboard login failed (%d from %s)", failures, address or "unknown")
            st.error("Login failed: this key is not accepted. Check it and try again.")
        else:
            log.warning("dashboard login refused for %s (role %s)", principal.name, principal.role)
            st.error("This key's role cannot open the dashboard (it needs a compliance, admin, "
                     "oncall or release key).")
        return
    log.info("dashboard login: %s (role %s)", access.name, access.role)
    BACKOFF.succeeded(key.strip())
    st.session_state[_FAILURES] = 0
    st.session_state[_KEY] = key.strip()
    st.session_state[_SESSION] = access
    st.rerun()


def _client_address() -> str | None:
    """The browser's address as Streamlit saw it (None when unknown, e.g. under AppTest)."""
    try:
        address = st.context.ip_address
    except Exception:  # no script run context: unknown (one name shared by all such)
        return None
    return address if isinstance(address, str) and address else None  # AppTest: a mock


def sidebar(access: Access) -> None:
    """Who is logged in, what they may see, and the logout button."""
    with st.sidebar:
        if access.dev:
            st.caption("development mode: no login")
            return
        st.caption(f"Logged in as **{md(access.name)}** · role {code(access.role)}"
                   + ("" if access.text else " · metadata only"))
        if st.button("Log out", key="auth_logout", icon=":material/logout:"):
            log.info("dashboard logout: %s", access.name)
            logout()
            st.rerun()

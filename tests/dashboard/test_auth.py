"""The dashboard's login and least privilege (AppTest): no page before a login with an accepted
key; compliance and admin read prompt and completion text; on-call and release read metadata
only - the seeded e-mail address, card number and SSN appear nowhere in what any page sends to
their browser, nor in what the data layer returns to them; other roles and wrong keys are refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
import yaml
from typer.testing import CliRunner

from dashboard import auth
from guardian.audit.chain import ESCAPE_MARK
from guardian.devtools.benchmarks.dashboard_bench import PAGES
from guardian.security.auth import ROLES, Principal
from tests.support.dashboard import APP, PII, KeysFile, add_pii_request, login, rendered, seed

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def pii_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """(url, request id): seeded traffic plus the request holding PII."""
    url = f"sqlite:///{tmp_path_factory.mktemp('pii') / 'guardian.db'}"
    seed(url, requests=120, incident=False)
    return url, add_pii_request(url)


@pytest.fixture
def app_test(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """app_test(url, keys_file | None, dev=False) -> a run, not logged-in AppTest."""
    import streamlit as st
    from streamlit import config
    from streamlit.testing.v1 import AppTest

    saved = st.get_option("server.address")
    auth.BACKOFF.clear()  # failures of earlier tests' sessions must not slow this one

    def run(url: str, keys_file: Path | None, dev: bool = False,
            address: str | None = "127.0.0.1") -> AppTest:
        config.set_option("server.address", address)
        monkeypatch.setenv("GUARDIAN_DATABASE_URL", url)
        if keys_file is None:
            monkeypatch.delenv("GUARDIAN_API_KEYS_FILE", raising=False)
        else:
            monkeypatch.setenv("GUARDIAN_API_KEYS_FILE", str(keys_file))
        if dev:
            monkeypatch.setenv("GUARDIAN_DASHBOARD_DEV", "1")
        else:
            monkeypatch.delenv("GUARDIAN_DASHBOARD_DEV", raising=False)
        st.cache_data.clear()
        at = AppTest.from_file(APP, default_timeout=60)  # a new browser session
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    yield run
    config.set_option("server.address", saved)
    st.cache_data.clear()


def _sent(node: object) -> Iterator[bytes]:
    """Every protobuf message of an AppTest tree: what Streamlit would send to the browser
    (dataframes and charts included, as Arrow bytes in which strings are plain UTF-8)."""
    proto = getattr(node, "proto", None)
    if proto is not None and hasattr(proto, "SerializeToString"):
        yield proto.SerializeToString()
    children = getattr(node, "children", None) or {}
    for child in children.values():
        yield from _sent(child)


def _leaks(at: object) -> list[str]:
    sent = b"".join(_sent(at._tree))  # type: ignore[attr-defined]
    return [v for v in PII if v.encode() in sent]


def _on_login_form(at: object) -> bool:
    return any(t.value == "spec-guardian · log in" for t in at.title)  # type: ignore[attr-defined]


# --- who gets in ---------------------------------------------------------------------------
def test_login_form_comes_before_any_page(pii_db, app_test, dashboard_keys) -> None:  # type: ignore[no-untyped-def]
    at = app_test(pii_db[0], dashboard_keys.path)
    assert _on_login_form(at)
    assert at.text_input(key="login_key").proto.type == at.text_input(key="login_key").proto.PASSWORD
    assert not at.metric and not at.dataframe and not at.get("vega_lite_chart")
    assert "auth_access" not in at.session_state and "filters" not in at.session_state
    assert _leaks(at) == []


def test_wrong_key_is_refused_and_slowed_down(pii_db, app_test, dashboard_keys,  # type: ignore[no-untyped-def]
                                              monkeypatch) -> None:
    delays: list[float] = []
    monkeypatch.setattr(auth, "_sleep", delays.append)
    at = app_test(pii_db[0], dashboard_keys.path)
    login(at, "sg-not-a-key")
    assert [e.value for e in at.error] == ["Login failed: this key is not accepted. Check it and "
                                           "try again."]
    login(at, dashboard_keys.keys["admin"] + "x")
    assert _on_login_form(at) and "auth_access" not in at.session_state
    assert delays == [auth.failure_delay(1), auth.failure_delay(2)] and delays[1] > delays[0] > 0
    login(at, dashboard_keys.keys["oncall"])  # a right key still gets in, and resets the count
    assert at.session_state["auth_access"].role == "oncall" and at.session_state["auth_failures"] == 0


def test_a_new_session_does_not_restart_the_backoff(pii_db, app_test, dashboard_keys,  # type: ignore[no-untyped-def]
                                                   monkeypatch) -> None:
    """The delay counted failures per browser session: a fresh session (a reload without the
    cookie, a script) started again at no delay. Now per client address and attempted key."""
    delays: list[float] = []
    monkeypatch.setattr(auth, "_sleep", delays.append)
    first = app_test(pii_db[0], dashboard_keys.path)
    login(first, "sg-guess-1")
    login(first, "sg-guess-2")
    fresh = app_test(pii_db[0], dashboard_keys.path)  # another browser session
    assert "auth_failures" not in fresh.session_state
    login(fresh, "sg-guess-3")
    assert delays == [auth.failure_delay(1), auth.failure_delay(2), auth.failure_delay(3)]
    login(fresh, dashboard_keys.keys["oncall"])  # a right key still gets in
    assert fresh.session_state["auth_access"].role == "oncall"


def test_failure_delay_grows_and_is_capped() -> None:
    steps = [auth.failure_delay(n) for n in range(12)]
    assert steps[0] == 0 and steps[1] == auth.FAILURE_DELAY_S
    assert steps == sorted(steps) and steps[-1] == auth.MAX_FAILURE_DELAY_S


def test_inference_key_is_refused(pii_db, app_test, dashboard_keys) -> None:  # type: ignore[no-untyped-def]
    at = app_test(pii_db[0], dashboard_keys.path)
    login(at, dashboard_keys.keys["inference"])
    assert any("this key's role cannot open the dashboard" in e.value.lower() for e in at.error)
    assert _on_login_form(at) and "auth_access" not in at.session_state
    assert not at.metric and _leaks(at) == []


@pytest.mark.parametrize("role", sorted({*ROLES, "mirror"}))
def test_only_the_four_dashboard_roles_get_access(role: str) -> None:
    access = auth.access_for(Principal("x", role))  # type: ignore[arg-type]
    if role in ("compliance", "admin"):
        assert access is not None and access.text
    elif role in ("oncall", "release"):
        assert access is not None and not access.text
    else:
        assert access is None  # inference, mirror (and any role added later) stay out


def test_no_keys_file_refuses_to_show_anything(pii_db, app_test) -> None:  # type: ignore[no-untyped-def]
    at = app_test(pii_db[0], None)
    assert "No API keys file" in at.error[0].value and "--dev" in at.error[0].value
    assert not at.metric and not at.dataframe and _leaks(at) == []


def test_dev_mode_shows_a_banner_and_no_login(pii_db, app_test) -> None:  # type: ignore[no-untyped-def]
    at = app_test(pii_db[0], None, dev=True)
    assert any("development mode: no login" in w.value for w in at.warning)
    assert at.metric and not _on_login_form(at)


def test_dev_mode_is_refused_on_all_interfaces(pii_db, app_test) -> None:  # type: ignore[no-untyped-def]
    at = app_test(pii_db[0], None, dev=True, address=None)  # `streamlit run`'s default
    assert "loopback" in at.error[0].value and "all interfaces" in at.error[0].value
    assert not at.metric and _leaks(at) == []


def test_logout_returns_to_the_login_form(pii_db, app_test, dashboard_keys) -> None:  # type: ignore[no-untyped-def]
    at = login(app_test(pii_db[0], dashboard_keys.path), dashboard_keys.keys["compliance"])
    assert any("compliance-1" in rendered(c.value) for c in at.sidebar.caption)
    at.sidebar.button(key="auth_logout").click().run()
    assert _on_login_form(at) and "auth_access" not in at.session_state
    assert "auth_key" not in at.session_state and not at.metric


def test_a_revoked_key_ends_its_open_session(pii_db, app_test, dashboard_keys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    keys = tmp_path / "keys.yaml"
    keys.write_text(dashboard_keys.path.read_text())
    at = login(app_test(pii_db[0], keys), dashboard_keys.keys["release"])
    assert at.metric
    raw = yaml.safe_load(keys.read_text())
    raw["keys"] = [k for k in raw["keys"] if k["role"] != "release"]
    keys.write_text(yaml.safe_dump(raw) + "\n")  # a different size: the stat changes
    at.run()
    assert _on_login_form(at) and any("no longer accepted" in w.value for w in at.warning)
    assert not at.metric


# --- what each role reads --------------------------------------------------------------------
@pytest.mark.parametrize("role", ["oncall", "release"])
def test_metadata_roles_never_receive_the_text(pii_db, open_page, role) -> None:  # type: ignore[no-untyped-def]
    url, rid = pii_db
    for page in PAGES:
        at = open_page(url, page, role=role)
        assert _leaks(at) == [], page
    for page in ("audit", "shadow"):  # the PII request itself, picked by id
        at = open_page(url, page, role=role, request_id=rid)
        assert rid in rendered(" ".join([*(m.value for m in at.markdown),
                                         *(h.value for h in at.subheader)])), page
        assert _leaks(at) == [], page
    audit = open_page(url, "audit", role=role, request_id=rid)
    assert any(f"Text hidden for role {role}" in i.value for i in audit.info)
    assert "audit_export" not in [b.key for b in audit.button]  # no export: it holds text
    assert not audit.get("download_button")
    tokens = audit.dataframe[1].value
    assert "token_id" not in tokens.columns and len(tokens) > 0
    # The walk reads dataframes too (Arrow bytes): the per-token table's origins are in it.
    assert b"resampled" in b"".join(_sent(audit._tree))


@pytest.mark.parametrize("role", ["compliance", "admin"])
def test_text_roles_read_the_decoded_text(pii_db, open_page, role) -> None:  # type: ignore[no-untyped-def]
    url, rid = pii_db
    at = open_page(url, "audit", role=role, request_id=rid)
    assert sorted(_leaks(at)) == sorted(PII)  # the same walk finds it when it is shown
    box = at.expander[0]
    assert [m.value.split(" · ")[0] for m in box.markdown] == ["**Prompt**", "**Completion**"]
    shown = [c.value for c in box.code]
    assert shown[0] == f"Refund {PII[0]}, card {PII[1]}, SSN {PII[2]}."
    # decoded (not the stored escape form), and the NUL written out, not hidden
    assert shown[1] == f"Refunded card {PII[1]}⟨U+0000⟩ for {PII[0]}."
    assert not any(ESCAPE_MARK in s for s in shown)
    assert "token_id" in at.dataframe[1].value.columns
    at.button(key="audit_export").click().run()
    assert at.get("download_button")


def test_data_layer_never_selects_text_for_metadata_roles(pii_db, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from dashboard import data, queries

    url, rid = pii_db
    monkeypatch.setenv("GUARDIAN_DATABASE_URL", url)
    rec = data.request_record(url, rid, text=False)
    assert not set(queries.TEXT_COLUMNS["audit_requests"]) & set(rec["request"])
    assert "token_id" not in rec["tokens"].columns
    assert not any(v in repr(rec) for v in PII)
    full = data.request_record(url, rid, text=True)
    assert PII[2] in full["request"]["prompt_text"] and full["request"]["params"]["stop"] == [PII[0]]
    with pytest.raises(data.TextNotAllowed):
        data.export_records(None, None, None, rid, "jsonl", text=False)


# --- `guardian dashboard` --------------------------------------------------------------------
def _cli() -> typer.Typer:
    from guardian.cli import dashboard

    app = typer.Typer()
    app.add_typer(dashboard.app, name="dashboard")
    return app


@pytest.fixture
def fake_streamlit(monkeypatch: pytest.MonkeyPatch) -> dict:
    import guardian.cli.dashboard as mod

    seen: dict = {}
    monkeypatch.setattr(mod.subprocess, "call", lambda cmd, env: seen.update(cmd=cmd, env=env) or 0)
    monkeypatch.delenv("GUARDIAN_API_KEYS_FILE", raising=False)
    monkeypatch.setenv("GUARDIAN_DASHBOARD_DEV", "1")  # inherited: must not turn login off
    return seen


def test_cli_without_keys_file_refuses_to_start(pii_db, fake_streamlit) -> None:  # type: ignore[no-untyped-def]
    res = CliRunner().invoke(_cli(), ["dashboard", "--url", pii_db[0]])
    assert res.exit_code == 2 and "--keys-file" in res.output and "--dev" in res.output
    assert not fake_streamlit


def test_cli_dev_mode_is_loopback_only_and_says_so(pii_db, fake_streamlit) -> None:  # type: ignore[no-untyped-def]
    res = CliRunner().invoke(_cli(), ["dashboard", "--url", pii_db[0], "--dev",
                                      "--address", "0.0.0.0"])
    assert res.exit_code != 0 and "loopback" in res.output and not fake_streamlit
    res = CliRunner().invoke(_cli(), ["dashboard", "--url", pii_db[0], "--dev"])
    assert res.exit_code == 0 and "DEVELOPMENT MODE: no login" in res.output
    assert fake_streamlit["env"]["GUARDIAN_DASHBOARD_DEV"] == "1"
    assert "GUARDIAN_API_KEYS_FILE" not in fake_streamlit["env"]


def test_cli_keys_file_turns_login_on(pii_db, fake_streamlit, dashboard_keys: KeysFile,  # type: ignore[no-untyped-def]
                                      tmp_path) -> None:
    res = CliRunner().invoke(_cli(), ["dashboard", "--url", pii_db[0], "--keys-file",
                                      str(dashboard_keys.path), "--dev"])
    assert res.exit_code != 0 and not fake_streamlit  # login on and off at once: say which
    bad = tmp_path / "bad.yaml"
    bad.write_text("keys: [{name: x, role: superuser, sha256: " + "0" * 64 + "}]\n")
    res = CliRunner().invoke(_cli(), ["dashboard", "--url", pii_db[0], "--keys-file", str(bad)])
    assert res.exit_code != 0 and "superuser" in res.output and not fake_streamlit
    res = CliRunner().invoke(_cli(), ["dashboard", "--url", pii_db[0], "--keys-file",
                                      str(dashboard_keys.path)])
    assert res.exit_code == 0 and "login with API keys" in res.output
    assert "GUARDIAN_DASHBOARD_DEV" not in fake_streamlit["env"]


def _allowed_hosts(cmd: list[str]) -> list[str]:
    return [cmd[i + 1] for i, arg in enumerate(cmd) if arg == "--server.allowedHosts"]


def test_cli_tells_streamlit_which_host_names_to_serve(pii_db, fake_streamlit,  # type: ignore[no-untyped-def]
                                                       dashboard_keys: KeysFile) -> None:
    """DNS rebinding: a page whose name re-points at 127.0.0.1 reaches the dashboard with its
    own name as Host; Streamlit refuses WebSockets whose Host is not in server.allowedHosts."""
    res = CliRunner().invoke(_cli(), ["dashboard", "--url", pii_db[0], "--dev"])
    assert res.exit_code == 0, res.output
    assert _allowed_hosts(fake_streamlit["cmd"]) == ["localhost", "127.0.0.1", "::1"]
    fake_streamlit.clear()
    res = CliRunner().invoke(_cli(), ["dashboard", "--url", pii_db[0], "--dev",
                                      "--allowed-host", "evil.example"])
    assert res.exit_code != 0 and "loopback" in res.output and not fake_streamlit
    keys = ["dashboard", "--url", pii_db[0], "--keys-file", str(dashboard_keys.path)]
    res = CliRunner().invoke(_cli(), [*keys, "--allowed-host", "dash.internal",
                                      "--allowed-host", "*.corp.example"])
    assert res.exit_code == 0, res.output
    assert _allowed_hosts(fake_streamlit["cmd"]) == ["dash.internal", "*.corp.example"]
    fake_streamlit.clear()
    res = CliRunner().invoke(_cli(), [*keys, "--allowed-host", "--server.port"])
    assert res.exit_code != 0 and "not a host name" in res.output and not fake_streamlit
    res = CliRunner().invoke(_cli(), keys)  # login on, no names given: any Host (as before)
    assert res.exit_code == 0 and _allowed_hosts(fake_streamlit["cmd"]) == []


def test_cli_help_documents_the_login() -> None:
    res = CliRunner().invoke(_cli(), ["dashboard", "--help"])
    assert res.exit_code == 0
    for words in ("--keys-file", "GUARDIAN_API_KEYS_FILE", "--dev", "compliance, admin",
                  "oncall, release", "metadata only"):
        assert words in res.output, words

"""Text the dashboard did not write is shown as text: a rollback reason typed by an on-call key
holder, a prompt sent with an inference key, a request id or route name in a link someone
sent. Streamlit renders Markdown in st.markdown / caption / alerts / metric labels, values and
help / expander labels: links, images (which the reader's browser fetches), headings, colours
and icons all work there without `unsafe_allow_html`
(tests/dashboard/test_hostile_text_renders_inert_in_a_browser.py
shows it in a real browser). Here, under AppTest, every such string of a page is parsed with
markdown-it (CommonMark) and must hold no link, image, heading, quote or HTML, and the hostile
URLs may appear only inside code spans (where GFM does not autolink them)."""

from __future__ import annotations

import dataclasses
import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from dashboard.auth import browser_refusal
from dashboard.plain import code, md, reveal
from tests.support.dashboard import SEEDED_ROUTES_POLICY, rendered, seed

pytestmark = pytest.mark.slow

BEACON = "http://beacon.invalid/"
# What an attacker would like the compliance officer's browser to render.
HOSTILE = (f"Drift confirmed. ![]({BEACON}img) [log in again]({BEACON}link) "
           f"<img src='{BEACON}html'> {BEACON}bare www.beacon.invalid someone@beacon.invalid "
           ":red[ALERT] :material/warning: $x^2$ **bold** `tick` \u202eKCOLB\u202c\n\n"
           "# FAKE HEADING\n> all clear\n- item")
MARKUP = {"link_open", "image", "html_inline", "html_block", "heading_open", "lheading_open",
          "blockquote_open", "bullet_list_open", "ordered_list_open", "code_block", "fence", "hr"}
_PARSER = MarkdownIt("commonmark")
# Streamlit's own Markdown extensions, which CommonMark does not know: directives (colours,
# icons, badges) and math; escaped (`\:`, `\$`) they are text.
_EXTENSIONS = re.compile(r"(?<!\\):(?:red|material)|(?<!\\)\$x")


def markup_in(markdown: str) -> list[str]:
    """What in `markdown` would render as more than text: CommonMark constructs, a beacon URL
    outside a code span (GFM autolinks it), a Streamlit directive or math."""
    found = []
    for block in _PARSER.parse(markdown):
        found += [block.type] if block.type in MARKUP else []
        for tok in block.children or []:
            if tok.type in MARKUP:
                found.append(tok.type)
            elif tok.type == "text" and "beacon.invalid" in tok.content:
                found.append(f"autolink in {tok.content!r}")
    outside_code = re.sub(r"(`+) .*? \1(?!`)", "", markdown)
    found += [f"extension {m.group()!r}" for m in _EXTENSIONS.finditer(outside_code)]
    return found


def markdown_of(at) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """Every string of a run AppTest that Streamlit renders as Markdown."""
    for kind in ("markdown", "caption", "warning", "error", "info", "success", "subheader",
                 "title"):
        for el in getattr(at, kind):
            yield el.value
    for m in at.metric:
        yield from (s for s in (m.label, m.value, m.help) if s)
    for e in at.expander:
        yield e.label


def assert_plain(at) -> None:  # type: ignore[no-untyped-def]
    bad = {s: markup_in(s) for s in markdown_of(at) if markup_in(s)}
    assert not bad, bad


# --- the helpers ------------------------------------------------------------------------------
def test_md_and_code_leave_no_markup_and_keep_the_text() -> None:
    for f in (md, code):
        out = f(HOSTILE)
        assert markup_in(out) == [], (f.__name__, out)
        assert "\n" not in out  # one run of text: it cannot pose as the page's next line
        # what the reader sees: the same characters, hidden ones written out
        assert rendered(out) == reveal(HOSTILE.replace("\n", " ⏎ "))[0]
    assert code("a ``b`` c").startswith("``` ") and rendered(code("a ``b`` c")) == "a ``b`` c"


def test_reveal_writes_out_hidden_characters() -> None:
    shown, n = reveal("pay \u202eKCOLB\u202c now\u200b\x00\x1b[31m\ttab\nline")
    assert shown == "pay ⟨U+202E⟩KCOLB⟨U+202C⟩ now⟨U+200B⟩⟨U+0000⟩⟨U+001B⟩[31m\ttab\nline"
    assert n == 5
    assert reveal("lone \ud800")[0] == "lone ⟨U+D800⟩"  # not a page that cannot be encoded


# --- pages --------------------------------------------------------------------------------
def hostile(beacon: str = BEACON) -> str:
    """HOSTILE with its URLs pointing at `beacon`."""
    return HOSTILE.replace(BEACON, beacon)


def write_hostile(url: str, policy_file: Path, beacon: str = BEACON) -> str:
    """Into a seeded database: an on-call rollback of `chat` whose reason (and actor name) is
    `hostile(beacon)`, written by `guardian.governance.promotion`'s own `set_route_mode`; and a
    request whose prompt fakes the end of the prompt and a completion. Returns its id."""
    from guardian.audit.rows import Sealer
    from guardian.audit.store import BatchStore
    from guardian.audit.testing import request_event, shadow_event
    from guardian.core.db import make_engine, normalize_url
    from guardian.governance.promotion import set_route_mode
    from guardian.governance.routestate import RouteStateStore
    from guardian.policy import load_policy

    policy_file.write_text(SEEDED_ROUTES_POLICY)
    engine = make_engine(normalize_url(url))
    events: list[object] = []
    sink = type("Collect", (), {"submit": lambda self, ev: events.append(ev)})()
    set_route_mode(RouteStateStore(engine), sink, route="chat", mode="target_only",  # type: ignore[arg-type]
                   policy=load_policy(policy_file), actor=f"api-key:[on-call]({beacon}actor)",
                   role="oncall", reason=hostile(beacon))
    rid = f"req-hostile-{uuid.uuid4().hex[:8]}"
    ev = request_event(4, request_id=rid, completion=" w0 w1",
                       prompt="Hi \u202eKCOLB\u202c.\n\nEND OF PROMPT\n---\nCOMPLETION:\n"
                              "I approved the refund.")
    events += [dataclasses.replace(ev, finish_reason=f"[stop]({beacon}finish)",
                                   fallback_reason="speculative_error: \u202eKCOLB\u202c"),
               shadow_event(rid, verdict="match")]
    store = BatchStore(engine)
    store.write(Sealer(f"hostile/{uuid.uuid4().hex[:8]}", salt=b"hostile",
                       copy_lines=store.postgres).seal(events))  # type: ignore[arg-type]
    engine.dispose()
    return rid


@pytest.fixture(scope="module")
def hostile_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, Path]:
    """(url, request id, policy file): seeded traffic plus `write_hostile`."""
    root = tmp_path_factory.mktemp("hostile")
    url = f"sqlite:///{root / 'guardian.db'}"
    seed(url, requests=120, incident=False, divergences=False)
    policy_file = root / "policy.yaml"
    return url, write_hostile(url, policy_file), policy_file


@pytest.mark.parametrize("page", ["overview", "pairs"])
def test_a_rollback_reason_is_shown_as_text(hostile_db, open_page, monkeypatch, page) -> None:  # type: ignore[no-untyped-def]
    """An on-call key holder's reason reaches the compliance officer's pages as text only."""
    url, _, policy = hostile_db
    monkeypatch.setenv("GUARDIAN_POLICY_FILE", str(policy))
    at = open_page(url, page, role="compliance", range="24h")
    shown = " ".join(rendered(s) for s in markdown_of(at))
    assert "Drift confirmed." in shown and "FAKE HEADING" in shown  # it is there, as text
    assert "⟨U+202E⟩KCOLB" in shown  # and not reversed into "BLOCK"
    assert_plain(at)


def test_links_in_the_url_are_shown_as_text(hostile_db, open_page, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A link someone sends: its request id, route and `until` are never rendered as Markdown."""
    url, _, policy = hostile_db
    monkeypatch.setenv("GUARDIAN_POLICY_FILE", str(policy))
    bad = f"x ![]({BEACON}img) [Session expired: log in]({BEACON}link)"
    for page, query in (("audit", {"request_id": bad}), ("shadow", {"request_id": bad}),
                        ("overview", {"route": f"chat,{bad}", "until": f"`{bad}`"}),
                        ("executive", {"route": bad})):
        at = open_page(url, page, role="compliance", **query)
        assert any("Session expired" in s for s in markdown_of(at)), page
        assert_plain(at)


def _texts(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _texts(k)
            yield from _texts(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _texts(v)


def table_texts(at) -> list[str]:  # type: ignore[no-untyped-def]
    """Every string in every dataframe of a run AppTest: cells (JSON ones too), column
    names, index labels."""
    out: list[str] = []
    for el in at.dataframe:
        df = el.value
        out += [*_texts(list(df.columns)), *_texts(list(df.index))]
        for col in df.columns:
            out += list(_texts(df[col].tolist()))
    return out


def test_table_cells_reveal_hidden_characters(hostile_db, open_page, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A data grid renders no markup, but a bidi override in a cell (here a fallback reason)
    would still reorder what the reader sees: every table cell is revealed as well."""
    url, rid, policy = hostile_db
    monkeypatch.setenv("GUARDIAN_POLICY_FILE", str(policy))
    at = open_page(url, "audit", role="compliance", request_id=rid)
    texts = table_texts(at)
    assert any("⟨U+202E⟩KCOLB⟨U+202C⟩" in t for t in texts)  # the reason is there, revealed
    for page, query in (("audit", {"request_id": rid}), ("pairs", {"range": "24h"}),
                        ("policy", {}), ("shadow", {"range": "24h"}),
                        ("acceptance", {"range": "24h"})):
        at = open_page(url, page, role="compliance", **query)
        hidden = [t for t in table_texts(at) if reveal(t)[1]]
        assert not hidden, (page, hidden[:3])


def test_prompt_and_completion_are_labelled_boxes(hostile_db, open_page) -> None:  # type: ignore[no-untyped-def]
    """A prompt that writes its own "COMPLETION:" stays inside the box labelled Prompt, with
    the direction override written out; the finish reason is text."""
    url, rid, _ = hostile_db
    at = open_page(url, "audit", role="compliance", request_id=rid)
    assert_plain(at)
    box = at.expander[0]
    labels = [m.value for m in box.markdown]
    assert labels[0].startswith("**Prompt**") and labels[1].startswith("**Completion**")
    assert "2 control, invisible or direction-changing character(s)" in labels[0]
    prompt, completion = (c.value for c in box.code)
    assert prompt.startswith("Hi ⟨U+202E⟩KCOLB⟨U+202C⟩.\n") and "COMPLETION:" in prompt
    assert completion == " w0 w1"


# --- dev mode: only this machine's own pages ---------------------------------------------------
@pytest.mark.parametrize(("headers", "refused"), [
    ({}, False),  # no browser (AppTest, curl)
    ({"Host": "127.0.0.1:8501", "Origin": "http://127.0.0.1:8501"}, False),
    ({"Host": "localhost:8501", "Origin": "http://localhost:8501"}, False),
    ({"Host": "[::1]:8501", "Origin": "http://[::1]:8501"}, False),
    ({"Host": "127.0.0.1:8501"}, False),
    # DNS rebinding: the attacker's name now resolves to 127.0.0.1, same-origin to the browser
    ({"Host": "evil.example:8501", "Origin": "http://evil.example:8501"}, True),
    # another page on localhost (Streamlit admits any localhost origin to its WebSocket)
    ({"Host": "127.0.0.1:8501", "Origin": "http://localhost:9999"}, True),
    ({"Host": "127.0.0.1:8501", "Origin": "http://127.0.0.1:9999"}, True),
    ({"Host": "127.0.0.1:8501", "Origin": "null"}, True),  # a file:// or sandboxed page
    ({"Host": "127.0.0.1.evil.example:8501"}, True),
])
def test_dev_mode_serves_only_loopback_pages_of_its_own(headers, refused) -> None:  # type: ignore[no-untyped-def]
    why = browser_refusal(headers)
    assert (why is not None) == refused, why

"""Entry point of the on-call dashboard: `streamlit run dashboard/app.py` (or `guardian dashboard`).

Runs on every rerun of every page: page config, navigation, the login gate (`dashboard.auth`:
nothing below it runs for a session that has not logged in with an accepted key), the shared
filters (sidebar and URL), the database check; then the selected page renders.
"""

from __future__ import annotations

import sys
from pathlib import Path

# `streamlit run dashboard/app.py` puts dashboard/ (not the repo root) on sys.path.
_ROOT = str(Path(__file__).resolve().parents[1])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

import streamlit as st  # noqa: E402

from dashboard import auth, data, filters  # noqa: E402

# Not "pages/": a pages/ directory beside the entry point switches Streamlit to its legacy
# multipage mode, which runs a page without this entry script (no filters, no DB check).
VIEWS_DIR = Path(__file__).parent / "views"

st.set_page_config(page_title="spec-guardian", page_icon=":material/shield:", layout="wide")

pages = [
    st.Page(VIEWS_DIR / "overview.py", title="Overview / SLOs", icon=":material/monitoring:",
            url_path="overview", default=True),
    st.Page(VIEWS_DIR / "acceptance.py", title="Acceptance & drift", icon=":material/target:",
            url_path="acceptance"),
    st.Page(VIEWS_DIR / "shadow.py", title="Shadow equivalence", icon=":material/balance:",
            url_path="shadow"),
    st.Page(VIEWS_DIR / "audit.py", title="Audit explorer", icon=":material/search:", url_path="audit"),
    st.Page(VIEWS_DIR / "pairs.py", title="Pairs, promotions & rollbacks", icon=":material/swap_horiz:",
            url_path="pairs"),
    st.Page(VIEWS_DIR / "policy.py", title="Policy", icon=":material/policy:", url_path="policy"),
    st.Page(VIEWS_DIR / "executive.py", title="Executive: cost & speedup",
            icon=":material/payments:", url_path="executive"),
]
# Navigation first, hidden until logged in: it resolves the page the URL names, so the rerun
# after a login lands on that page (a deep link survives the login), not on the default one.
page = st.navigation(pages, position="sidebar" if auth.logged_in() else "hidden")
access = auth.gate()  # stops here (login form / refusal) until this session is logged in
auth.sidebar(access)

try:
    data.get_db()
except data.DashboardDataError as exc:
    st.error(str(exc))
    st.stop()

st.session_state["filters"] = filters.sidebar(data.known_routes(data.database_url()))
page.run()

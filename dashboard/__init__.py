"""On-call dashboard (Streamlit): reads the audit store; of the inference package it uses only
`engine.metrics` (torch-free ratios of the stored counters; tests/dashboard/test_imports.py).

Module map: `app` (entry point, navigation, login gate, shared filters) -> `auth` (API-key
login with the sidecar's keys file; which roles read text) -> `views/*` (pages that only
render) -> `data` (read-only audit database, cached queries, derived frames) -> `queries` (SQL
aggregates); pure math in `slo` (burn-rate alerts) and `drift` (JS / PSI); `charts` (Altair);
`plain` (text from the database or the URL shown as text, never as Markdown).
"""

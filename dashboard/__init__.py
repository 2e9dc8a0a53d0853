"""On-call dashboard (Streamlit): reads the audit store, never the engine.

Module map: `app` (entry point, navigation, shared filters) -> `views/*` (pages that only
render) -> `data` (read-only engine, cached queries, derived frames) -> `queries` (SQL
aggregates); pure math in `slo` (burn-rate alerts) and `drift` (JS / PSI); `charts` (Altair).
"""

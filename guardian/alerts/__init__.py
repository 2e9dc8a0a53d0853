"""Alerts out of the sidecar: Prometheus alerting rules (`rules`) and pushes to
Alertmanager's v2 API (`alertmanager`). Nothing here imports torch."""

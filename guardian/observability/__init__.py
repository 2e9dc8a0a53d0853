"""Telemetry: OpenTelemetry metrics and traces (telemetry) and the per-request hot-path
instruments (hotmetrics)."""

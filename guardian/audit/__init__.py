"""Audit store: per-token audit trail, tamper-evident, written off the request path."""

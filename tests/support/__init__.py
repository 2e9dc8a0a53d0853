"""Helpers for tests that need real outside things (factories, launchers); not fixtures."""

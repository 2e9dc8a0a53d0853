"""Helpers and factories shared by the tests (imported, unlike conftest fixtures)."""

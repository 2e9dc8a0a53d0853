"""Helpers shared by tests (factories, external tools), imported explicitly - not fixtures."""

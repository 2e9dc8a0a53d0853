"""Helpers and factories shared by the tests (imported, unlike conftest fixtures), and
launchers of real outside things (the llama.cpp server)."""

"""Tests of the on-call dashboard (dashboard/)."""

"""Fault-injection suite: realistic speculative-decoding faults run through the real serving and
shadow path on the demo pair (see docs/guides/compliance.md; `python -m tests.faults --full`)."""

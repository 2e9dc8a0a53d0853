"""PII masking and redaction-mode rules (no database)."""

from __future__ import annotations

import pytest

from guardian.audit.redaction import check_redaction, mask_pii, redact_params, redact_text


@pytest.mark.parametrize(("text", "secret"), [
    ("mail alice.smith@example.com now", "alice.smith@example.com"),
    ("call +1 415-555-0123 today", "415-555-0123"),
    ("card 4111 1111 1111 1111 exp", "4111 1111 1111 1111"),
    ("ssn 123-45-6789.", "123-45-6789"),
    ("from 192.168.10.254 at", "192.168.10.254"),
    ("v6 2001:0db8:85a3:0000:0000:8a2e:0370:7334 x", "2001:0db8:85a3:0000:0000:8a2e:0370:7334"),
])
def test_common_pii_is_masked(text: str, secret: str) -> None:
    out = mask_pii(text)
    assert secret not in out and "[" in out


def test_ordinary_text_is_kept() -> None:
    assert mask_pii("Revenue grew 12% in Q3 2025.") == "Revenue grew 12% in Q3 2025."


def test_modes() -> None:
    assert redact_text("full", b"k", "hi") == ("hi", None)
    stored, digest = redact_text("hashed", b"k", "hi")
    assert stored is None and digest and "hi" not in digest
    assert redact_text("hashed", b"other", "hi")[1] != digest  # keyed
    assert redact_text("none", b"k", "hi") == (None, None)
    assert redact_params("none", {"temperature": 0.5, "stop": ["secret"]}) == {"temperature": 0.5}
    with pytest.raises(ValueError, match="use one of"):
        check_redaction("partial")

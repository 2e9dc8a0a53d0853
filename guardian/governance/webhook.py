"""The rollback webhook: a rollback's evidence POSTed as JSON to the policy's `webhook_url`.

Owns `post_webhook`, the default sender of `guardian.governance.rollback.RollbackController`
(which calls it on its own thread with the policy's `webhook_timeout_s`).
"""

from __future__ import annotations

import json
import logging
import urllib.request
from typing import Any

# The controller's logger: its records keep the name they had before the split.
logger = logging.getLogger("guardian.governance.rollback")


def post_webhook(url: str, payload: dict[str, Any], timeout_s: float) -> None:
    """POST JSON; failures are logged, never raised (runs on its own thread)."""
    body = json.dumps(payload, default=str).encode()
    req = urllib.request.Request(url, data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout_s) as resp:
            logger.info("rollback webhook %s answered %s", url, resp.status)
    except Exception as exc:  # any failure is only worth a log line
        logger.warning("rollback webhook %s failed: %s", url, exc)

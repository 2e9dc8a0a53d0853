"""Upstream faults: `UpstreamError`, an OpenAI-style 502/504 naming the pool and the fault
(the audit record of a request that failed on its pool: guardian.serving.recorder).

A fault is never hidden: the client gets the error with its request id, the audit trail gets
a request event with `finish_reason="error"` and the fault in `fallback_reason`; a fault that
was failed over to the target-only pool is audited on the served request instead
(`fallback_reason="speculative_error: UpstreamError: ..."`, by guardian.serving.core).
"""

from __future__ import annotations

from typing import Literal

from guardian.core.errors import ServingError

Fault = Literal["refused", "timeout", "status", "malformed", "truncated", "circuit_open",
                "not_configured", "rejected"]
_STATUS: dict[str, int] = {"timeout": 504}
# Faults whose detail is the upstream's own answer (an HTTP status and its message, what was
# wrong in the body it sent) or the sidecar's own reason (breaker open, no pool): shown.
_SHOWN = frozenset({"status", "rejected", "malformed", "circuit_open", "not_configured"})


class UpstreamError(ServingError):
    """An upstream pool failed a request. `no_fallback`: the serving core must not re-serve it
    target-only (failover off, text already streamed, or already the target-only pool)."""

    def __init__(self, fault: Fault, pool: str, detail: str, *, no_fallback: bool = True,
                 status: int | None = None, shown: str | None = None) -> None:
        code = f"upstream_{fault}"
        if status is None:
            status = _STATUS.get(fault, 502)
        # The client reads what the upstream *answered* (its HTTP status and message); how a
        # connection failed names internal hosts and ports, so that detail goes only to the
        # audit record and the log (`detail`), never into the response.
        # `shown`: what of the detail the client may read, where only part of it may.
        visible = f": {shown if shown is not None else detail}" if fault in _SHOWN else ""
        message = f"upstream pool {pool} failed ({fault}){visible}"
        type_ = "invalid_request_error" if status < 500 else "upstream_error"
        super().__init__(status, message, code=code, type_=type_)
        self.fault, self.pool, self.no_fallback, self.detail = fault, pool, no_fallback, detail

    def with_request_id(self, request_id: str) -> UpstreamError:
        if request_id not in self.message:
            self.message = f"{self.message} (request {request_id})"
        return self

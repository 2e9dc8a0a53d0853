"""W3C trace context for the sidecar: which caller headers reach the propagator, and the
sampling a caller cannot steer. (Split out of `guardian.observability.telemetry`, which
re-exports these names and builds its tracer provider with `CallerSamplingGuard`.)

`TraceContextMiddleware` extracts a W3C `traceparent` / `tracestate` from the
incoming request, so the request's span joins the caller's trace. Those headers come from
any caller, signed in or not, so they are screened first (`trace_headers`): an oversized or
malformed value is dropped silently, never logged (the propagator would log it, raw, at
WARNING for every request). The caller picks the trace id, never the sampling: a span whose
parent is remote is sampled as a new trace would be (`CallerSamplingGuard`: the sampler the
environment configures, `OTEL_TRACES_SAMPLER`, fed a trace id of our own), so neither the
caller's sampled flag nor a trace id chosen to pass a ratio sampler can raise the share of
requests exported, and a caller cannot hide its requests from traces with an unsampled flag.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from typing import Any

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.sdk.trace.sampling import ALWAYS_ON, ParentBased, Sampler, SamplingResult
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator


class CallerSamplingGuard(Sampler):
    """Sampling that a caller cannot steer (see the module docstring).

    A span whose parent is local (a child of the sidecar's own span) follows `inner` as
    usual. A span whose parent is remote (a caller's `traceparent`) is decided as a root
    span: `inner` sees no parent and a random trace id, so a caller's sampled flag, or a
    trace id chosen to fall under a `traceidratio` threshold, changes nothing. The span keeps
    the caller's trace id and tracestate (its trace is continued; only the decision is ours).
    """

    def __init__(self, inner: Sampler) -> None:
        self.inner = inner
        self._rng = random.Random()

    def should_sample(self, parent_context: otel_context.Context | None, trace_id: int,
                      name: str, kind: trace.SpanKind | None = None, attributes: Any = None,
                      links: Any = None, trace_state: Any = None) -> SamplingResult:
        parent = trace.get_current_span(parent_context).get_span_context()
        if not (parent.is_valid and parent.is_remote):
            return self.inner.should_sample(parent_context, trace_id, name, kind, attributes,
                                            links, trace_state)
        result = self.inner.should_sample(otel_context.Context(), self._rng.getrandbits(128) or 1,
                                          name, kind, attributes, links)
        return SamplingResult(result.decision, result.attributes, parent.trace_state)

    def get_description(self) -> str:
        return f"CallerSamplingGuard{{{self.inner.get_description()}}}"


def _configured_sampler() -> Sampler:
    """The sampler `OTEL_TRACES_SAMPLER` / `OTEL_TRACES_SAMPLER_ARG` configure (the SDK's
    default, parent-based always-on, without them)."""
    try:
        from opentelemetry.sdk.trace.sampling import _get_from_env_or_default
    except ImportError:  # pragma: no cover - an SDK without the helper
        return ParentBased(ALWAYS_ON)
    return _get_from_env_or_default()


# W3C Trace Context: a version-00 traceparent is 55 characters (later versions may append
# fields; the propagator reads at most 512). tracestate: at most 32 members; 512 characters
# is what every vendor must pass on, and all this sidecar keeps.
MAX_TRACEPARENT = 512
MAX_TRACESTATE = 512
MAX_TRACESTATE_MEMBERS = 32
_TRACESTATE_KEY = (r"(?:[a-z][_0-9a-z\-\*\/]{0,255}"
                   r"|[a-z0-9][_0-9a-z\-\*\/]{0,240}@[a-z][_0-9a-z\-\*\/]{0,13})")
_TRACESTATE_MEMBER = re.compile(
    _TRACESTATE_KEY + r"=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]")


def trace_headers(headers: Iterable[tuple[bytes, bytes]]) -> dict[str, str]:
    """The request's `traceparent` / `tracestate` as the propagator may read them, or nothing.

    A traceparent over `MAX_TRACEPARENT` characters is dropped (the propagator's format
    check drops any other malformed one); a tracestate that is not valid W3C - too long, too
    many members, a malformed or repeated member - is dropped whole, as the specification
    says. Silently: the values are the caller's, and the propagator would write each one,
    raw, into a WARNING log line. A repeated traceparent makes the context invalid."""
    parents: list[bytes] = []
    states: list[bytes] = []
    for k, v in headers:
        name = k.lower()
        if name == b"traceparent":
            parents.append(v)
        elif name == b"tracestate":
            states.append(v)
    if len(parents) != 1 or len(parents[0]) > MAX_TRACEPARENT:
        return {}
    carrier = {"traceparent": parents[0].decode("latin-1")}
    state = b",".join(states)
    if state and len(state) <= MAX_TRACESTATE:
        members = [m.strip(" \t") for m in state.decode("latin-1").split(",")]
        members = [m for m in members if m]
        keys = [m.split("=", 1)[0] for m in members]
        if (len(members) <= MAX_TRACESTATE_MEMBERS and len(set(keys)) == len(keys)
                and all(_TRACESTATE_MEMBER.fullmatch(m) for m in members)):
            carrier["tracestate"] = ",".join(members)
    return carrier


class TraceContextMiddleware:
    """ASGI middleware: the request runs in the context of its `traceparent` header (W3C Trace
    Context), so spans opened while serving it are children of the caller's span. A missing
    or malformed header starts a new trace (`trace_headers`; the propagator ignores the rest);
    whether the span is sampled is the sidecar's own decision (`CallerSamplingGuard`)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.propagator = TraceContextTextMapPropagator()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        carrier = trace_headers(scope.get("headers") or [])
        if not carrier:
            await self.app(scope, receive, send)
            return
        token = otel_context.attach(self.propagator.extract(carrier))
        try:
            await self.app(scope, receive, send)
        finally:
            otel_context.detach(token)

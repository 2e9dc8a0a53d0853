"""The one fallback rule of the serving path, for sync (engine-thread) and async (upstream)
backends alike: what a speculative attempt that failed may do next, and what the client sees.

- A speculative attempt that raises (anything but a cancel) is retried target-only, its reason
  recorded as `speculative_error: <type>: <message>`, unless the fault is marked `no_fallback`
  (an upstream pool with no failover, or one that already streamed: its own rule).
- Text already streamed cannot be taken back. The target-only retry is streamed from where the
  client is: its text must begin with what was sent, and only the rest is sent. A retry whose
  text departs from it (a sampled request, a near tie) fails the request with `Diverged` (an
  in-band error on a stream, never a spliced answer of two generations).

`Stream` owns the callbacks both attempts stream through and what was handed out (the text
the client received, the tokens of the attempt in flight: a cancel's partial record).
"""

from __future__ import annotations

from collections.abc import Callable

from guardian.backends import OnText, TraceToken
from guardian.backends.base import watch_only
from guardian.core.errors import ServingError

Emit = Callable[[str, list[TraceToken]], None]


class Diverged(ServingError):
    """The target-only retry's text departed from the text the failed attempt streamed."""

    def __init__(self) -> None:
        super().__init__(502, "the speculative run failed after streaming, and the target-only "
                         "retry did not continue the text already sent; the request is ended "
                         "rather than splice two answers", code="fallback_diverged",
                         type_="server_error")


def may_fall_back(exc: BaseException) -> bool:
    """Whether a failed speculative attempt may be retried target-only."""
    return not getattr(exc, "no_fallback", False)


def reason_of(exc: BaseException) -> str:
    """The recorded fallback reason (capped: it is also shown to the client)."""
    return f"speculative_error: {type(exc).__name__}: {exc}"[:500]


class Stream:
    """The streaming callbacks of one request's attempts.

    `first()` returns the speculative attempt's callback; `retry()` the target-only
    attempt's, which sends only what follows the text already streamed and checks that it
    continues it; `finish()` after the retry raises `Diverged` when the retry ended short of
    what was sent. Without `on_text` (not streamed) both only watch (`watch_only`)."""

    def __init__(self, check: Callable[[], None], on_text: OnText | None) -> None:
        self._check, self._on_text = check, on_text
        self.sent: list[str] = []  # the text the client received
        self.emitted: list[TraceToken] = []  # the tokens of the attempt in flight
        self._pending = ""  # streamed by the failed attempt, not yet matched by the retry

    @property
    def text(self) -> str:
        return "".join(self.sent)

    def first(self) -> Emit:
        def emit(delta: str, traces: list[TraceToken]) -> None:
            self._check()  # called after every engine step: the cancellation point
            self.sent.append(delta)
            self.emitted.extend(traces)
            if self._on_text is not None:
                self._on_text(delta, traces)

        return emit if self._on_text is not None else watch_only(emit)

    def retry(self) -> Emit:
        # Only a client that was streamed to holds text the retry must continue; without a
        # stream nobody saw the failed attempt's text, so what was handed out restarts.
        if self._on_text is None:
            self.sent = []
        self._pending = self.text
        self.emitted = []  # the retry's tokens are the ones audited

        def rest(delta: str, traces: list[TraceToken]) -> None:
            self._check()
            self.emitted.extend(traces)
            if self._pending:
                n = min(len(self._pending), len(delta))
                if delta[:n] != self._pending[:n]:
                    raise Diverged()
                delta, self._pending = delta[n:], self._pending[n:]
            if delta:
                self.sent.append(delta)
                if self._on_text is not None:
                    self._on_text(delta, traces)

        return rest if self._on_text is not None else watch_only(rest)

    def finish(self) -> None:
        if self._pending:
            raise Diverged()

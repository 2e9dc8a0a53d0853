"""The OpenAI wire format toward an upstream: request bodies, and answers (whole or SSE)
parsed into the contract's values (text, finish reason, trace rows, usage, spec stats).

Every token row comes from the upstream's logprobs (asked with at least two alternatives):
p(x) = exp(logprob), the top-2 margin = top-1 minus top-2 logprob (equal to the raw logit
margin when the upstream returns the model's own log-softmax, vLLM's default), origin
`upstream`. A token's id is known only when the upstream sends it (vLLM's
`return_tokens_as_token_ids`: "token_id:123"); else -1.

Malformed input raises `WireError` (the caller turns it into a 502 `upstream_malformed`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from guardian.api.schemas import valid_unicode
from guardian.backends.base import LOGPROB_FLOOR, BackendRequest, TokenLogprob, TraceToken

AUDIT_TOP = 2  # alternatives always asked for: the top-2 margin of each token row


class WireError(ValueError):
    """The upstream's answer is not the OpenAI format the sidecar asked for."""


def request_body(req: BackendRequest, model: str, *, stream: bool, token_ids: bool,
                 ) -> tuple[str, dict[str, Any]]:
    """(path, JSON body) for the upstream: the client's fields that the sidecar validated,
    the pool's model name, logprobs with max(2, asked) alternatives."""
    s = req.sampling
    body: dict[str, Any] = {"model": model, "temperature": s.temperature, "top_p": s.top_p,
                            "stream": stream}
    if req.max_new_tokens > 0:
        body["max_tokens"] = req.max_new_tokens
    if s.top_k > 0:
        body["top_k"] = s.top_k  # a vLLM / SGLang extension, sent only when set
    if req.seed is not None:
        body["seed"] = req.seed
    if req.stop:
        body["stop"] = list(req.stop)
    if stream:
        body["stream_options"] = {"include_usage": True}
    if token_ids:
        body["return_tokens_as_token_ids"] = True
    k = max(AUDIT_TOP, req.top_logprobs)
    if req.messages is not None:
        body["messages"] = [{"role": r, "content": c} for r, c in req.messages]
        body.update(logprobs=True, top_logprobs=k)
        return "/chat/completions", body
    body["prompt"] = req.prompt_text if req.prompt_text else list(req.prompt_ids)
    body["logprobs"] = k
    return "/completions", body


def _token_id(token: str) -> int:
    if token.startswith("token_id:"):
        try:
            return int(token[9:])
        except ValueError:
            return -1
    return -1


def _text(value: str, where: str) -> str:
    """Upstream text must be valid Unicode: it is answered as JSON and audited verbatim."""
    try:
        return valid_unicode(value)
    except ValueError as exc:
        raise WireError(f"{where} {exc}") from None


def _logprob(value: Any, where: str) -> float:
    """A log-probability in [LOGPROB_FLOOR, 0] (JSON may carry NaN / Infinity; refused /
    clamped so p(x) stays a probability)."""
    if not isinstance(value, int | float) or isinstance(value, bool) or math.isnan(value):
        raise WireError(f"{where}: logprob {value!r} is not a number")
    return min(0.0, max(float(value), LOGPROB_FLOOR))


def _row(position: int, token: str, logprob: Any, alts: list[TokenLogprob]) -> TraceToken:
    token = _text(token, f"logprobs token {position}")
    lp = _logprob(logprob, f"token {position}")
    alts.sort(key=lambda a: a.logprob, reverse=True)
    margin = alts[0].logprob - alts[1].logprob if len(alts) >= 2 else 0.0
    return TraceToken(position=position, token_id=_token_id(token), origin="upstream",
                      draft_prob=None, target_prob=math.exp(lp), target_margin=max(margin, 0.0),
                      step=position, gamma=0, token=token, top_logprobs=tuple(alts))


def _alt(token: Any, logprob: Any) -> TokenLogprob:
    if not isinstance(token, str):
        raise WireError(f"alternative {token!r}: {logprob!r} is not (text, number)")
    return TokenLogprob(_text(token, "alternative"), _logprob(logprob, "alternative"),
                        _token_id(token) if token.startswith("token_id:") else None)


def trace_rows(logprobs: Any, start: int) -> list[TraceToken]:
    """Token rows from a choice's `logprobs` (either shape), positions from `start`."""
    if logprobs is None:
        return []
    if not isinstance(logprobs, dict):
        raise WireError("choices[0].logprobs is not an object")
    rows: list[TraceToken] = []
    if "content" in logprobs:  # chat
        for i, item in enumerate(logprobs["content"] or []):
            if not isinstance(item, dict) or not isinstance(item.get("token"), str):
                raise WireError("logprobs.content[] needs {token, logprob, top_logprobs}")
            alts = [_alt(a.get("token"), a.get("logprob"))
                    for a in item.get("top_logprobs") or [] if isinstance(a, dict)]
            rows.append(_row(start + i, item["token"], item.get("logprob"), alts))
        return rows
    tokens, lps = logprobs.get("tokens"), logprobs.get("token_logprobs")
    tops = logprobs.get("top_logprobs") or [None] * len(tokens or [])
    if not isinstance(tokens, list) or not isinstance(lps, list) or len(tokens) != len(lps) \
            or len(tops) != len(tokens):
        raise WireError("logprobs needs tokens and token_logprobs of the same length")
    for i, (tok, lp, top) in enumerate(zip(tokens, lps, tops, strict=True)):
        if not isinstance(tok, str):
            raise WireError(f"logprobs.tokens[{i}] is not a string")
        alts = [_alt(t, v) for t, v in (top or {}).items()]
        rows.append(_row(start + i, tok, lp, alts))
    return rows


def choice_text(choice: dict[str, Any], *, delta: bool) -> str:
    if "text" in choice:
        text = choice["text"]
    else:
        msg = choice.get("delta" if delta else "message") or {}
        text = msg.get("content") if isinstance(msg, dict) else None
    if text is None and delta:
        return ""
    if not isinstance(text, str):
        raise WireError("choices[0] has no text / message.content string")
    return _text(text, "the answer's text")


@dataclass(slots=True)
class Answer:
    """An upstream answer accumulated (whole, or chunk by chunk)."""

    text: list[str] = field(default_factory=list)
    trace: list[TraceToken] = field(default_factory=list)
    finish_reason: str | None = None
    usage: dict[str, Any] | None = None
    spec: dict[str, Any] | None = None  # per-request speculative stats, where returned
    upstream_id: str | None = None

    def add(self, data: Any, *, delta: bool) -> tuple[str, list[TraceToken]]:
        """Fold one response object (or one SSE chunk) in; the new text and rows."""
        if not isinstance(data, dict):
            raise WireError("the answer is not a JSON object")
        if "error" in data and not data.get("choices"):
            err = data["error"]
            raise WireError(f"in-band error: {err.get('message') if isinstance(err, dict) else err}")
        self.upstream_id = self.upstream_id or data.get("id")
        if isinstance(data.get("usage"), dict):
            self.usage = data["usage"]
        spec = spec_stats(data)
        if spec is not None:
            self.spec = spec
        choices = data.get("choices")
        if not isinstance(choices, list):
            raise WireError("the answer has no choices list")
        if not choices:  # the usage-only last chunk
            return "", []
        choice = choices[0]
        if not isinstance(choice, dict):
            raise WireError("choices[0] is not an object")
        text = choice_text(choice, delta=delta)
        rows = trace_rows(choice.get("logprobs"), len(self.trace))
        self.text.append(text)
        self.trace.extend(rows)
        if choice.get("finish_reason"):
            self.finish_reason = str(choice["finish_reason"])
        return text, rows


def spec_stats(data: dict[str, Any]) -> dict[str, Any] | None:
    """Per-request speculative statistics an upstream returned: a guardian pool's
    `spec_guardian.stats`, or a `spec_decode` / `speculative_stats` object (None: none)."""
    ext = data.get("spec_guardian")
    if isinstance(ext, dict) and isinstance(ext.get("stats"), dict):
        return {**ext["stats"], "served_path": ext.get("served_path")}
    for key in ("spec_decode", "speculative_stats", "spec_decode_stats"):
        if isinstance(data.get(key), dict):
            return dict(data[key])
    return None


class SSEFeed:
    """Incremental SSE parser: `feed(line)` returns the JSON objects of the `data:` events
    that line completes; `done` once `data: [DONE]` came; `end()` raises WireError (with
    `truncated`) when the stream ended before it."""

    def __init__(self) -> None:
        self._buf: list[str] = []
        self.done = False

    def feed(self, line: str) -> list[Any]:
        if self.done:
            return []
        if line.startswith("data:"):
            self._buf.append(line[5:].lstrip(" "))
            return []
        if line or not self._buf:  # comments (":"), event:/id:/retry:, keep-alive blanks
            return []
        payload, self._buf = "\n".join(self._buf), []
        if payload.strip() == "[DONE]":
            self.done = True
            return []
        try:
            return [json.loads(payload)]
        except ValueError:
            raise WireError(f"an SSE event is not JSON: {payload[:80]!r}") from None

    def end(self) -> None:
        if not self.done and self._buf:
            self.feed("")
        if not self.done:
            err = WireError("the stream ended before data: [DONE]")
            err.truncated = True  # type: ignore[attr-defined]
            raise err


def sse_events(lines: Iterator[str]) -> Iterator[Any]:
    """JSON objects of an SSE stream's `data:` events, until `data: [DONE]` (SSEFeed)."""
    feed = SSEFeed()
    for line in lines:
        yield from feed.feed(line)
        if feed.done:
            return
    feed.end()

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

from guardian.backends.base import LOGPROB_FLOOR, BackendRequest, TokenLogprob, TraceToken
from guardian.core.limits import MAX_NEW_TOKENS
from guardian.core.text import valid_unicode

AUDIT_TOP = 2  # alternatives always asked for: the top-2 margin of each token row
# At most this many alternatives are kept per token (top-20, the most a client may ask for,
# plus the sampled token vLLM adds): an upstream cannot grow each audited row without bound.
MAX_ALTERNATIVES = 21
MAX_TOKEN_ID = 1 << 31  # ids outside [0, this) are not a vocabulary's: unknown (-1)
# finish_reason values an upstream may answer, as recorded (TGI names its own); anything else
# (vLLM's "abort", "content_filter", "tool_calls", ...) is not a completion the sidecar can
# record as stop/length: a malformed answer, not a silent "stop".
FINISH_REASONS = {"stop": "stop", "length": "length", "eos_token": "stop",
                  "stop_sequence": "stop", "tool_calls": "tool_calls"}
MAX_TOOL_CALLS = 128  # in one answer (as many as a request may offer tools)
_MAX_EVENT = 1 << 20  # one SSE event's data (all its data: lines together)
# An answer to a request that set no max_tokens (chat's default) is held to the sidecar's own
# ceiling: no more token rows than any client may ask for (the API's MAX_NEW_TOKENS), and no
# more logprob entries (a row's token plus its alternatives) than such rows carry with the
# audited top-2 and vLLM's sampled token. A hostile pool's many tiny rows / alternatives
# each become Python objects (a 25-byte row kept costs ~250 bytes, an alternative ~150):
# without these, one answer within the 256 MiB byte cap took ~10x it (measured with
# tracemalloc; the whole-answer parse that was worse is avoided by `reading._streams`).
ROWS_WITHOUT_MAX_TOKENS = MAX_NEW_TOKENS
ENTRIES_WITHOUT_MAX_TOKENS = (AUDIT_TOP + 2) * MAX_NEW_TOKENS


# Fields the sidecar sets itself: a pass-through value never replaces one (the pool's model,
# the stream it reads, the logprobs every audited row needs, the prompt as validated).
OWN_FIELDS = frozenset({"model", "stream", "stream_options", "messages", "prompt",
                        "logprobs", "top_logprobs", "return_tokens_as_token_ids", "max_tokens",
                        "n", "echo", "seed", "stop", "temperature", "top_p", "top_k"})


class WireError(ValueError):
    """The upstream's answer is not the OpenAI format the sidecar asked for."""


def request_body(req: BackendRequest, model: str, *, stream: bool, token_ids: bool,
                 ) -> tuple[str, dict[str, Any]]:
    """(path, JSON body) for the upstream: the client's fields that the sidecar validated,
    the pool's model name, logprobs with max(2, asked) alternatives. The sampling controls
    that are on and every pass-through field (tools, response_format, ...) go as the client
    sent them; they never replace what the sidecar sets itself (`OWN_FIELDS`)."""
    s = req.sampling
    body: dict[str, Any] = {"model": model, "temperature": s.temperature, "top_p": s.top_p,
                            "stream": stream, **s.controls()}
    body.update({k: v for k, v in req.passthrough.items() if k not in OWN_FIELDS})
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
        body["messages"] = req.passthrough.get("messages") or [
            {"role": r, "content": c} for r, c in req.messages]
        # llama.cpp refuses logprobs on a streamed request with tools (a 400): the audit's own
        # are not asked there (no token rows; pool_shadow judges by text); a client's still are
        if not (stream and req.passthrough.get("tools") and req.top_logprobs == 0):
            body.update(logprobs=True, top_logprobs=k)
        return "/chat/completions", body
    body["prompt"] = req.prompt_text if req.prompt_text else list(req.prompt_ids)
    body["logprobs"] = k
    return "/completions", body


def _show(value: Any) -> str:
    """An upstream value quoted in an error message: repr'd and short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _token_id(token: str) -> int:
    if token.startswith("token_id:"):
        try:
            tid = int(token[9:])
        except ValueError:
            return -1
        return tid if 0 <= tid < MAX_TOKEN_ID else -1
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
    if isinstance(value, int) and not isinstance(value, bool):
        value = max(min(value, 0), -(1 << 30))  # a JSON integer may be too large for a float
    if not isinstance(value, int | float) or isinstance(value, bool) or math.isnan(value):
        raise WireError(f"{where}: logprob {_show(value)} is not a number")
    return min(0.0, max(float(value), LOGPROB_FLOOR))


def _given_id(value: Any) -> int:
    """A token id an upstream sent beside the text (llama.cpp's `id`); -1 when none."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < MAX_TOKEN_ID:
        return value
    return -1


def _row(position: int, token: str, logprob: Any, alts: list[TokenLogprob],
         token_id: int = -1) -> TraceToken:
    token = _text(token, f"logprobs token {position}")
    lp = _logprob(logprob, f"token {position}")
    alts.sort(key=lambda a: a.logprob, reverse=True)
    del alts[MAX_ALTERNATIVES:]
    margin = alts[0].logprob - alts[1].logprob if len(alts) >= 2 else 0.0
    tid = token_id if token_id >= 0 else _token_id(token)
    return TraceToken(position=position, token_id=tid, origin="upstream",
                      draft_prob=None, target_prob=math.exp(lp), target_margin=max(margin, 0.0),
                      step=position, gamma=0, token=token, top_logprobs=tuple(alts))


def _alt(token: Any, logprob: Any, token_id: Any = None) -> TokenLogprob:
    if not isinstance(token, str):
        raise WireError(f"alternative {_show(token)}: {_show(logprob)} is not (text, number)")
    given = _given_id(token_id)
    return TokenLogprob(_text(token, "alternative"), _logprob(logprob, "alternative"),
                        given if given >= 0 else
                        _token_id(token) if token.startswith("token_id:") else None)


def _too_many(start: int, n: int, limit: int) -> None:
    """Refuse `n` more token rows after `start` past `limit` (0: none): counted before any
    row is built, so an oversized answer costs no Python objects for its rows."""
    if limit and start + n > limit:
        raise WireError(f"the answer has more than the {limit} token rows allowed "
                        "(max_tokens; without it, the sidecar's ceiling)")


def trace_rows(logprobs: Any, start: int, limit: int = 0) -> list[TraceToken]:
    """Token rows from a choice's `logprobs` (either shape), positions from `start`; rows
    past `limit` in all (0: none) are a WireError."""
    if logprobs is None:
        return []
    if not isinstance(logprobs, dict):
        raise WireError("choices[0].logprobs is not an object")
    rows: list[TraceToken] = []
    if "content" in logprobs:  # chat
        content = logprobs["content"] or []
        _too_many(start, len(content), limit)
        for i, item in enumerate(content):
            if not isinstance(item, dict) or not isinstance(item.get("token"), str):
                raise WireError("logprobs.content[] needs {token, logprob, top_logprobs}")
            alts = [_alt(a.get("token"), a.get("logprob"), a.get("id"))
                    for a in item.get("top_logprobs") or [] if isinstance(a, dict)]
            rows.append(_row(start + i, item["token"], item.get("logprob"), alts,
                             _given_id(item.get("id"))))
        return rows
    tokens, lps = logprobs.get("tokens"), logprobs.get("token_logprobs")
    tops = logprobs.get("top_logprobs") or [None] * len(tokens or [])
    if not isinstance(tokens, list) or not isinstance(lps, list) or len(tokens) != len(lps) \
            or len(tops) != len(tokens):
        raise WireError("logprobs needs tokens and token_logprobs of the same length")
    _too_many(start, len(tokens), limit)
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
        if text is None and isinstance(msg, dict) and msg.get("tool_calls"):
            return ""  # an answer of tool calls only
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
    # llama.cpp's per-answer `timings` (prompt_n, prompt_ms, predicted_n, predicted_ms, and
    # draft_n / draft_n_accepted when it speculated), finite numbers only
    timings: dict[str, float] | None = None
    upstream_id: str | None = None
    model: str | None = None  # the model the upstream says answered (the first one named)
    limit: int = 0  # max_tokens sent (0: none): an answer with more token rows is refused
    streamed: bool = False  # read as SSE events (tokens timed as they came)
    # logprob entries (each row's token and its alternatives kept) allowed (0: any)
    max_entries: int = 0
    entries: int = 0
    tool_calls: list[dict[str, Any]] = field(default_factory=list)  # as the pool answered

    @classmethod
    def for_request(cls, max_tokens: int) -> Answer:
        """The answer to a request that sent `max_tokens` (0: none, chat's default: held to
        the sidecar's own ceiling, ROWS_ / ENTRIES_WITHOUT_MAX_TOKENS)."""
        if max_tokens > 0:
            return cls(limit=max_tokens)
        return cls(limit=ROWS_WITHOUT_MAX_TOKENS, max_entries=ENTRIES_WITHOUT_MAX_TOKENS)

    def add(self, data: Any, *, delta: bool) -> tuple[str, list[TraceToken]]:
        """Fold one response object (or one SSE chunk) in; the new text and rows. Any answer
        the parser cannot read is a WireError (a 502), never another exception (a 500, or a
        failover after text was streamed)."""
        try:
            return self._add(data, delta=delta)
        except WireError:
            raise
        except (TypeError, AttributeError, KeyError, IndexError, ValueError, OverflowError,
                RecursionError) as exc:
            raise WireError(f"unreadable answer ({type(exc).__name__})") from None

    def _add(self, data: Any, *, delta: bool) -> tuple[str, list[TraceToken]]:
        if not isinstance(data, dict):
            raise WireError("the answer is not a JSON object")
        self.streamed = self.streamed or delta
        if "error" in data and not data.get("choices"):
            err = data["error"]
            msg = err.get("message") if isinstance(err, dict) else err
            raise WireError(f"in-band error: {_show(msg)}")
        if isinstance(data.get("id"), str):
            if self.upstream_id is None:
                self.upstream_id = _text(data["id"][:200], "the answer's id")
            elif data["id"][:200] != self.upstream_id:  # chunks of another completion
                raise WireError(f"a chunk of answer {_show(data['id'])} came in answer "
                                f"{_show(self.upstream_id)}")
        if self.model is None and isinstance(data.get("model"), str):
            self.model = _text(data["model"][:200], "the answer's model")
        if isinstance(data.get("usage"), dict):
            self.usage = _usage(data["usage"])
        if isinstance(data.get("timings"), dict):
            self.timings = pool_timings(data["timings"])
        spec = spec_stats(data)
        if spec is not None:
            self.spec = spec
        choices = data.get("choices")
        if not isinstance(choices, list):
            raise WireError("the answer has no choices list")
        if not choices:  # the usage-only last chunk
            return "", []
        if len(choices) > 1:  # one choice asked for (n=1): a second cannot be recorded as it
            raise WireError(f"the answer has {len(choices)} choices (one was asked for)")
        choice = choices[0]
        if not isinstance(choice, dict):
            raise WireError("choices[0] is not an object")
        if choice.get("index", 0) not in (0, None) or isinstance(choice.get("index"), bool):
            raise WireError(f"choices[0] has index {_show(choice.get('index'))}, not 0")
        if self.finish_reason is not None and (choice.get("text") or choice.get("delta")
                                               or choice.get("logprobs")
                                               or choice.get("finish_reason")):
            raise WireError("a chunk came after the one with the finish_reason")
        text = choice_text(choice, delta=delta)
        msg = choice.get("delta" if delta else "message")
        if isinstance(msg, dict) and msg.get("tool_calls") is not None:
            self._tool_calls(msg["tool_calls"], delta=delta)
        rows = trace_rows(choice.get("logprobs"), len(self.trace), self.limit)
        if self.max_entries:
            self.entries += sum(1 + len(r.top_logprobs) for r in rows)
            if self.entries > self.max_entries:
                raise WireError(f"the answer has more than {self.max_entries} logprob "
                                "entries (the sidecar's ceiling without max_tokens)")
        self.text.append(text)
        self.trace.extend(rows)
        if choice.get("finish_reason"):
            reason = choice["finish_reason"]
            if not isinstance(reason, str) or reason not in FINISH_REASONS:
                raise WireError(f"finish_reason {_show(reason)} is not one of "
                                f"{sorted(FINISH_REASONS)}")
            self.finish_reason = reason
        return text, rows


    def _tool_calls(self, calls: Any, *, delta: bool) -> None:
        """Fold in a message's tool calls (whole), or a chunk's pieces of them (`index`,
        then name and arguments in parts, as OpenAI streams them)."""
        if not isinstance(calls, list) or not all(isinstance(c, dict) for c in calls):
            raise WireError("tool_calls is not a list of objects")
        for call in calls:
            fn = call.get("function") or {}
            if not isinstance(fn, dict):
                raise WireError("a tool call's function is not an object")
            for key in ("name", "arguments"):
                if fn.get(key) is not None and not isinstance(fn[key], str):
                    raise WireError(f"a tool call's function.{key} is not a string")
                if fn.get(key) is not None:
                    _text(fn[key], f"a tool call's {key}")
            for key in ("id", "type"):
                if call.get(key) is not None and not isinstance(call[key], str):
                    raise WireError(f"a tool call's {key} is not a string")
                if call.get(key) is not None:
                    _text(call[key][:200], f"a tool call's {key}")
            if not delta:
                self.tool_calls.append({"id": (call.get("id") or "")[:200] or None,
                                        "type": (call.get("type") or "function")[:200],
                                        "function": {"name": fn.get("name"),
                                                     "arguments": fn.get("arguments") or ""}})
            else:
                index = call.get("index", 0)
                if not isinstance(index, int) or isinstance(index, bool) or not (
                        0 <= index <= len(self.tool_calls)):
                    raise WireError(f"a tool call delta's index {_show(index)} is out of order")
                if index == len(self.tool_calls):
                    self.tool_calls.append({"id": None, "type": "function",
                                            "function": {"name": None, "arguments": ""}})
                merged = self.tool_calls[index]
                merged["id"] = merged["id"] or (call.get("id") or "")[:200] or None
                merged["type"] = (call.get("type") or "")[:200] or merged["type"]
                if fn.get("name"):
                    merged["function"]["name"] = (merged["function"]["name"] or "") + fn["name"]
                merged["function"]["arguments"] += fn.get("arguments") or ""
            if len(self.tool_calls) > MAX_TOOL_CALLS:
                raise WireError(f"the answer has more than {MAX_TOOL_CALLS} tool calls")


_USAGE = ("prompt_tokens", "completion_tokens", "total_tokens")
_COUNTERS = ("proposed_tokens", "judged_tokens", "accepted", "steps", "draft_tokens")


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 53


def _usage(usage: dict[str, Any]) -> dict[str, Any]:
    """The upstream's token counts (a claim, kept as such): non-negative integers only."""
    return {k: usage[k] for k in _USAGE if _count(usage.get(k))}


def _scalars(stats: dict[str, Any]) -> dict[str, Any] | None:
    """Spec stats as recorded: finite numbers, short strings and short lists of counts (per
    position; nothing else nested); None when the counters are not non-negative integers
    with accepted <= judged <= proposed (an upstream's counters feed the route's acceptance
    statistics)."""
    out: dict[str, Any] = {}
    for key, value in list(stats.items())[:64]:
        if not isinstance(key, str) or len(key) > 64:
            continue
        if isinstance(value, bool) or value is None:
            out[key] = value
        elif isinstance(value, int | float):
            if key in _COUNTERS and not _count(value):
                return None
            if isinstance(value, int) or math.isfinite(value):
                out[key] = value
        elif ((isinstance(value, str) and len(value) <= 200)
              or (isinstance(value, list) and len(value) <= 64  # per-position counters
                  and all(_count(v) for v in value))):
            out[key] = value
        elif key in _COUNTERS:
            return None
    accepted = out.get("accepted", 0)
    judged = out.get("judged_tokens", out.get("draft_tokens", accepted))
    proposed = out.get("proposed_tokens", out.get("draft_tokens", judged))
    return out if accepted <= judged <= proposed else None


def spec_stats(data: dict[str, Any]) -> dict[str, Any] | None:
    """Per-request speculative statistics an upstream returned: a guardian pool's
    `spec_guardian.stats`, a `spec_decode` / `speculative_stats` object, or llama.cpp's
    `timings` with draft_n (None: none). A pool's declared `acceptance` / `lossless` are
    kept as reported (guardian.serving.provenance reads them)."""
    ext = data.get("spec_guardian")
    if isinstance(ext, dict) and isinstance(ext.get("stats"), dict):
        return _scalars({**ext["stats"], "served_path": ext.get("served_path")})
    for key in ("spec_decode", "speculative_stats", "spec_decode_stats"):
        if isinstance(data.get(key), dict):
            return _scalars(data[key])
    timings = data.get("timings")  # llama.cpp's server: draft_n / draft_n_accepted
    if isinstance(timings, dict) and _count(timings.get("draft_n")):
        accepted = timings.get("draft_n_accepted")
        return _scalars({"source": "llama.cpp timings", "draft_n": timings["draft_n"],
                         "draft_n_accepted": accepted,
                         "proposed_tokens": timings["draft_n"],  # judged, steps: not said
                         "accepted": accepted if _count(accepted) else 0})
    return None


_TIMINGS = ("cache_n", "prompt_n", "prompt_ms", "predicted_n", "predicted_ms",
            "predicted_per_token_ms", "draft_n", "draft_n_accepted")


def pool_timings(timings: dict[str, Any]) -> dict[str, float] | None:
    """llama.cpp's `timings` as recorded: its known keys with finite, non-negative numbers;
    None when the draft counts are not counts with accepted <= drafted."""
    out: dict[str, float] = {}
    for key in _TIMINGS:
        v = timings.get(key)
        if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) \
                and 0 <= v < 1 << 53:
            out[key] = v
    if "draft_n" in out or "draft_n_accepted" in out:
        drafted, accepted = out.get("draft_n"), out.get("draft_n_accepted")
        if not (_count(drafted) and _count(accepted) and accepted <= drafted):  # type: ignore[operator]
            return None
    return out


def timings_spec(timings: dict[str, float] | None) -> dict[str, Any] | None:
    """Speculative counters from llama.cpp's timings (None when it did not speculate):
    `draft_n` drafted = proposed, `draft_n_accepted` = accepted. Judged positions and steps
    are not in them: left out (not reported), never 0."""
    if not timings or "draft_n" not in timings:
        return None
    return {"proposed_tokens": int(timings["draft_n"]),
            "accepted": int(timings["draft_n_accepted"]), "source": "llamacpp_timings"}


class SSEFeed:
    """Incremental SSE parser: `feed(line)` returns the JSON objects of the `data:` events
    that line completes; `done` once `data: [DONE]` came; `end()` raises WireError (with
    `truncated`) when the stream ended before it."""

    def __init__(self) -> None:
        self._buf: list[str] = []
        self._size = 0
        self.done = False
        self._first = True

    def feed(self, line: str) -> list[Any]:
        if self.done:
            return []
        if self._first:  # a leading byte-order mark is not part of the first field's name
            self._first = False
            line = line.removeprefix("\ufeff")
        if line.startswith("data:"):
            self._buf.append(line[5:].lstrip(" "))
            self._size += len(self._buf[-1]) + 1
            if self._size > _MAX_EVENT:
                raise WireError(f"an SSE event is longer than {_MAX_EVENT} characters")
            return []
        if line or not self._buf:  # comments (":"), event:/id:/retry:, keep-alive blanks
            return []
        payload, self._buf, self._size = "\n".join(self._buf), [], 0
        if payload.strip() == "[DONE]":
            self.done = True
            return []
        try:
            return [json.loads(payload)]
        except (ValueError, RecursionError):
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

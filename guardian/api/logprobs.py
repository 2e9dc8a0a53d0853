"""logprobs in the OpenAI/vLLM response shapes, from a backend's trace.

Owns the two shapes: the legacy completions one (`tokens`, `token_logprobs`, `top_logprobs`
as {token: logprob}, `text_offset`) and the chat one (`content: [{token, logprob, bytes,
top_logprobs: [{token, logprob, bytes}]}]`). A token's log-probability is log p(x) under the
distribution it was drawn from (the trace's `target_prob`: the processed target distribution
the verifier used — for greedy requests the model's own softmax); alternatives are the
trace's `top_logprobs`, cut to what the client asked for (an upstream is asked for at least
two, for the audit's top-2 margin, and the extra never reaches a client that did not ask).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from guardian.backends import ServingBackend, TraceToken
from guardian.backends.base import LOGPROB_FLOOR

__all__ = ["ChatLogprobs", "CompletionLogprobs", "token_logprob"]


def token_logprob(t: TraceToken) -> float:
    """log p(x) of the emitted token; vLLM's -9999.0 for a zero probability (JSON has no -inf)."""
    return math.log(t.target_prob) if t.target_prob > 0 else LOGPROB_FLOOR


def _text(backend: ServingBackend, t: TraceToken) -> str:
    return t.token if t.token is not None else backend.decode([t.token_id])


class CompletionLogprobs:
    """Builds `choices[].logprobs` of /v1/completions; keeps `text_offset` across chunks."""

    def __init__(self, backend: ServingBackend, k: int) -> None:
        self.backend, self.k, self.offset = backend, k, 0

    def __call__(self, trace: Sequence[TraceToken]) -> dict[str, Any]:
        tokens, logprobs, tops, offsets = [], [], [], []
        for t in trace:
            text = _text(self.backend, t)
            lp = token_logprob(t)
            top = {a.token: a.logprob for a in t.top_logprobs[:self.k]}
            top.setdefault(text, lp)  # vLLM and OpenAI list the emitted token too
            tokens.append(text)
            logprobs.append(lp)
            tops.append(top)
            offsets.append(self.offset)
            self.offset += len(text)
        return {"tokens": tokens, "token_logprobs": logprobs, "top_logprobs": tops,
                "text_offset": offsets}


class ChatLogprobs:
    """Builds `choices[].logprobs` of /v1/chat/completions."""

    def __init__(self, backend: ServingBackend, k: int) -> None:
        self.backend, self.k = backend, k

    def __call__(self, trace: Sequence[TraceToken]) -> dict[str, Any]:
        content = []
        for t in trace:
            text = _text(self.backend, t)
            content.append({
                "token": text, "logprob": token_logprob(t), "bytes": list(text.encode()),
                "top_logprobs": [{"token": a.token, "logprob": a.logprob,
                                  "bytes": list(a.token.encode())}
                                 for a in t.top_logprobs[:self.k]]})
        return {"content": content, "refusal": None}

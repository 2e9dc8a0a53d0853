"""`n` > 1: one request's choices, each a generation of its own.

Every choice is served, audited and shadow-sampled as a request of its own (request id
`<id>-<index>`, `choice_index` in its audit params), on the route's path in force, so each
one's tokens carry their own verdict; the answer's id is the first choice's. A seeded
request seeds choice i with seed + i (two choices with one seed would be one sample twice);
unseeded choices draw independently. On either backend: an upstream pool is sent n requests
of n=1 (the sidecar records one answer per generation). Streaming n > 1 is refused (a 400
naming `n`) until the chunks of several generations are interleaved.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from fastapi import Request

from guardian.api.deps import Services
from guardian.api.generation import serve_watching
from guardian.serving.admission import CancelToken
from guardian.serving.core import GenerationRequest, Served, ServingError

_INT64 = 1 << 63


def refuse_streamed(n: int, stream: bool) -> None:
    if n > 1 and stream:
        raise ServingError(400, "n > 1 is not served as a stream yet; send stream=false, or "
                           "n=1 per request", param="n", code="unsupported_parameter")


def choice_seed(seed: int | None, index: int) -> int | None:
    """Choice `index`'s seed: seed + index, wrapped into the signed 64-bit range."""
    if seed is None:
        return None
    return (seed + index + _INT64) % (2 * _INT64) - _INT64


def fan_out(req: GenerationRequest, n: int) -> list[GenerationRequest]:
    """`req` as its n choices (the first is `req` itself when n == 1)."""
    if n == 1:
        return [req]
    return [dataclasses.replace(
        req, request_id=f"{req.request_id}-{i}", seed=choice_seed(req.seed, i),
        choice_index=i, cancel=CancelToken(deadline=req.cancel.deadline))
        for i in range(n)]


async def serve_choices(services: Services, request: Request, reqs: list[GenerationRequest],
                        ) -> list[Served]:
    """Serve every choice at once; the first failure is the answer (the others still end
    and are audited as they do)."""
    if len(reqs) == 1:
        return [await serve_watching(services, request, reqs[0])]
    results: list[Any] = await asyncio.gather(
        *(serve_watching(services, request, r) for r in reqs), return_exceptions=True)
    for res in results:
        if isinstance(res, BaseException):
            raise res
    return results


def total_usage(served: list[Served], per_choice: list[dict[str, int]]) -> dict[str, int]:
    """The prompt counted once, the completions of every choice summed (OpenAI's usage)."""
    prompt = per_choice[0]["prompt_tokens"]
    completion = sum(u["completion_tokens"] for u in per_choice)
    return {"prompt_tokens": prompt, "completion_tokens": completion,
            "total_tokens": prompt + completion}

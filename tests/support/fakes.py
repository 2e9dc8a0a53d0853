"""A fake serving backend implementing the `guardian.backends.ServingBackend` contract:
deterministic, instant, and able to inject the faults the sidecar must handle (speculative
errors, flipped tokens, skewed distributions, slow steps). `FakeBackend(full_distributions=
False)` plays a remote backend that can give no distributions (shadow evidence tests)."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Sequence
from typing import Any

import torch

from engine.metrics import SpecCounters
from engine.trace import GenerationStats
from guardian.audit import MemorySink
from guardian.backends import (
    BackendRequest,
    BackendResult,
    Capabilities,
    Distributions,
    OnText,
    Sampling,
    Timings,
    TokenLogprob,
    TokenScores,
    TraceToken,
    Unsupported,
)

V = 128  # ASCII "vocabulary": token id = ord(char)
EOS = 0


def _next_token(prefix: list[int]) -> int:
    # Target's greedy choice: a letter determined by the prefix, so outputs vary with prompts.
    return ord("a") + (sum(prefix) * 31 + len(prefix)) % 26


def _dist(prefix: list[int], skew: float = 0.0) -> torch.Tensor:
    """(V,) processed distribution: mass 0.7 on the greedy token, the rest spread on letters."""
    p = torch.zeros(V)
    p[ord("a"):ord("z") + 1] = 0.3 / 26
    p[_next_token(prefix)] += 0.7
    if skew:
        p[ord("a")] += skew
        p = p / p.sum()
    return p


def _cut(text: str, stop: Sequence[str]) -> str:
    hits = [text.index(s) for s in stop if s and s in text]
    return text[:min(hits)] if hits else text


@dataclasses.dataclass(frozen=True)
class FakeIdentity:
    pair_hash: str = "f" * 64
    draft_hash: str = "d" * 64
    target_hash: str = "t" * 64
    tokenizer_hash: str = "k" * 64
    chat_template_hash: str = "c" * 64
    draft_name: str = "fake-draft"
    target_name: str = "fake-target"


class FakeBackend:
    kind = "fake"
    identity = FakeIdentity()
    pair_hash = identity.pair_hash
    model_name = "fake-target"
    vocab_size = V
    eos_token_ids = frozenset({EOS})

    def __init__(self, *, max_context: int = 256, step_s: float = 0.0, gamma: int = 4,
                 full_distributions: bool = True) -> None:
        self.capabilities = Capabilities(
            speculates=True, proposers=("draft_model", "ngram"),
            full_distributions=full_distributions, top_logprobs=5, local_tokenizer=True,
            scores_completions=full_distributions)
        self.max_context = max_context
        self.step_s = step_s
        self.gamma = gamma
        self.spec_error: Exception | None = None  # raise from speculative generate
        self.spec_flip_at: int | None = None  # speculative emits a different token here
        self.margin = 5.0  # target top-2 margin everywhere...
        self.flip_margin = 5.0  # ...except at the flipped position
        self.spec_skew = 0.0  # verifier distribution skew (a logits-processing bug)
        self.draft_q_boost = 0.0
        self.calls: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    batcher: Any = None  # one request at a time (tests set a scheduler where they batch)
    max_prompt_chars: int | None = None

    def shutdown(self) -> None:
        pass

    async def aclose(self) -> None:
        pass

    def engine_description(self) -> dict[str, Any]:
        return {"engine": "request", "batching": "off", "max_batch": 1}

    def check_sampling(self, sampling: Any) -> None:
        """The fake honours no grammar (its capabilities do not list response_format)."""

    # tokenizer ---------------------------------------------------------------------------
    def encode(self, text: str, *, prompt: bool = True) -> list[int]:
        return [min(ord(c), V - 1) for c in text]

    def decode(self, ids: Sequence[int]) -> str:
        return "".join(chr(i) for i in ids)

    def chat_prompt(self, messages: list[dict[str, Any]],
                    tools: list[dict[str, Any]] | None = None) -> str:
        return "".join(f"<{m['role']}>{m['content']}" for m in messages) + "<assistant>"

    # serving -------------------------------------------------------------------------------
    def generate(self, request: BackendRequest, on_text: OnText | None = None) -> BackendResult:
        return self._run(request, on_text, record=False)[0]

    def generate_with_evidence(self, request: BackendRequest, on_text: OnText | None = None,
                               ) -> tuple[BackendResult, Distributions]:
        self._require("full_distributions")
        result, dists = self._run(request, on_text, record=True)
        return result, Distributions(torch.stack(dists) if dists else torch.zeros(0, V))

    def _require(self, capability: str) -> None:
        if not getattr(self.capabilities, capability):
            raise Unsupported(f"fake backend without {capability}")

    def _run(self, request: BackendRequest, on_text: OnText | None, record: bool,
             ) -> tuple[BackendResult, list[torch.Tensor]]:
        speculative, prompt_ids = request.speculative, list(request.prompt_ids)
        max_new_tokens, gamma, stop = request.max_new_tokens, request.gamma, request.stop
        with self._lock:
            self.calls.append({"speculative": speculative, "max_new_tokens": max_new_tokens,
                               "record_distributions": record, "proposer": request.proposer,
                               "thread": threading.current_thread().name})
        if speculative and self.spec_error is not None:
            raise self.spec_error
        start = time.perf_counter()
        ids: list[int] = []
        trace: list[TraceToken] = []
        dists: list[torch.Tensor] = []
        stats = GenerationStats(prompt_tokens=len(prompt_ids))
        g = gamma if speculative else 1
        if speculative:
            stats.drafted_per_position = [0] * g
            stats.accepted_per_position = [0] * g
        finish = "length"
        step = 0
        while len(ids) < max_new_tokens and finish == "length":
            if self.step_s:
                time.sleep(self.step_s)
            emitted: list[TraceToken] = []
            for k in range(g if speculative else 1):
                if len(ids) >= max_new_tokens:
                    break
                prefix = prompt_ids + ids
                tok = _next_token(prefix)
                pos = len(ids)
                margin = self.margin
                if speculative and self.spec_flip_at == pos:
                    tok = ord("a") + (tok - ord("a") + 1) % 26
                if self.spec_flip_at == pos:
                    margin = self.flip_margin
                origin = "target" if not speculative else ("bonus" if k == g - 1 else "accepted")
                if speculative and k < g - 1:
                    stats.drafted_per_position[k] += 1
                    stats.accepted_per_position[k] += 1
                    stats.proposed_tokens += 1  # every fake proposal is judged and accepted
                    stats.judged_tokens += 1
                    stats.accepted += 1
                p = _dist(prefix, self.spec_skew if speculative else 0.0)
                dists.append(p)
                alts: tuple[TokenLogprob, ...] = ()
                if request.top_logprobs:  # the k most likely under p, best first
                    vals, top = torch.topk(p, request.top_logprobs)
                    alts = tuple(TokenLogprob(chr(int(i)), float(v.log()), int(i))
                                 for v, i in zip(vals, top, strict=True))
                # Evidence (issue 11): top-2 ids and raw logits; at a flipped position the two
                # paths' top-2 are swapped, `flip_margin` apart (a near tie iff within the
                # route's tolerance).
                true_tok = _next_token(prefix)
                if self.spec_flip_at == pos:
                    other = ord("a") + (true_tok - ord("a") + 1) % 26
                    top1, top2 = (other, true_tok) if speculative else (true_tok, other)
                else:
                    top1, top2 = tok, ord("a") + (tok - ord("a") + 2) % 26
                emitted.append(TraceToken(pos, tok, origin,  # type: ignore[arg-type]
                                          0.6 if origin == "accepted" else None, float(p[tok]),
                                          margin, step, g - 1 if speculative else 0,
                                          top_logprobs=alts, top1_id=top1, top2_id=top2, top1_logit=10.0,
                                          top2_logit=10.0 - margin,
                                          # at a flip, as a real near tie's: both paths'
                                          # tokens near-equally likely, so one log-sum-exp
                                          target_logprob=float(torch.log(_dist(prefix)[
                                              true_tok if self.spec_flip_at == pos else tok])),
                                          proposed_token=tok if origin == "accepted" else None,
                                          proposed_q=(float(_dist(prefix)[tok])
                                                      if origin == "accepted" else None),
                                          # q = p in the fake (draft_distributions): Σmin = 1
                                          accept_expected=(1.0 if origin == "accepted" and
                                                           not request.sampling.greedy else None)))
                ids.append(tok)
            step += 1
            trace += emitted
            text = self.decode(ids)
            if stop and any(s in text for s in stop):
                # As the engine does: keep tokens up to the one that completes the stop
                # string (one char per token here); the text is cut before it.
                cut = min(text.index(s) + len(s) for s in stop if s in text)
                ids, trace, dists = ids[:cut], trace[:cut], dists[:cut]
                finish = "stop"
            if on_text is not None:
                done = self.decode([t.token_id for t in emitted if t.position < len(ids)])
                on_text(done, emitted)
            if not stats.time_to_first_token_s:
                stats.time_to_first_token_s = time.perf_counter() - start
        stats.completion_tokens = len(ids)
        stats.steps = step
        stats.target_forwards = step + 1
        stats.draft_forwards = step * (g - 1) if speculative else 0
        stats.total_time_s = time.perf_counter() - start
        stats.verify_time_s = stats.total_time_s * (0.7 if speculative else 1.0)
        stats.draft_time_s = stats.total_time_s * 0.3 if speculative else 0.0
        raw = dataclasses.asdict(stats)
        return BackendResult(
            prompt_token_ids=prompt_ids, token_ids=ids, text=_cut(self.decode(ids), stop),
            finish_reason=finish, trace=trace, speculative=speculative,  # type: ignore[arg-type]
            counters=SpecCounters.from_stats(raw),
            timings=Timings(total_s=stats.total_time_s,
                            time_to_first_token_s=stats.time_to_first_token_s,
                            draft_s=stats.draft_time_s, verify_s=stats.verify_time_s),
            stats=raw), dists

    # shadow evidence -----------------------------------------------------------------------
    def score_target(self, prompt_ids: list[int], completion_ids: list[int],
                     sampling: Sampling) -> TokenScores:
        self._require("scores_completions")
        rows = self._rows(prompt_ids, completion_ids)
        return TokenScores([int(r.argmax()) for r in rows], [self.margin] * len(rows),
                           [float(r[t]) for r, t in zip(rows, completion_ids, strict=True)])

    def target_distributions(self, prompt_ids: list[int], completion_ids: list[int],
                             sampling: Sampling) -> Distributions:
        self._require("full_distributions")
        rows = self._rows(prompt_ids, completion_ids)
        return Distributions(torch.stack(rows) if rows else torch.zeros(0, V))

    def draft_distributions(self, prompt_ids: list[int], completion_ids: list[int],
                            sampling: Sampling) -> Distributions | None:
        return self.target_distributions(prompt_ids, completion_ids, sampling)

    @staticmethod
    def _rows(prompt_ids: list[int], completion_ids: list[int]) -> list[torch.Tensor]:
        return [_dist(prompt_ids + completion_ids[:i]) for i in range(len(completion_ids))]


class ListSink(MemorySink):
    """The audit store's MemorySink plus a filter helper."""

    def of(self, kind: type, request_id: str | None = None) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)
                and (request_id is None or e.request_id == request_id)]

    def first(self, kind: type, request_id: str, timeout_s: float = 30.0) -> Any:
        """The first event of `kind` for `request_id`, waiting up to `timeout_s` for it (a
        shadow verdict is recorded after the response)."""
        deadline = time.monotonic() + timeout_s
        while not (found := self.of(kind, request_id)):
            assert time.monotonic() < deadline, f"no {kind.__name__} for {request_id}"
            time.sleep(0.02)
        return found[0]

"""A fake engine backend with the `EngineBackend` surface: deterministic, instant, and able to
inject the faults the sidecar must handle (speculative errors, flipped tokens, skewed
distributions, slow steps)."""

from __future__ import annotations

import threading
import time
from typing import Any

import torch

from engine.trace import GenerationResult, GenerationStats, TokenTrace
from guardian.audit import MemorySink
from guardian.serving import TargetScore

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


class FakeBackend:
    pair_hash = "f" * 64
    model_name = "fake-target"
    vocab_size = V

    def __init__(self, *, max_context: int = 256, step_s: float = 0.0, gamma: int = 4) -> None:
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

    # tokenizer ---------------------------------------------------------------------------
    def encode(self, text: str, *, prompt: bool = True) -> list[int]:
        return [min(ord(c), V - 1) for c in text]

    def decode(self, ids: list[int]) -> str:
        return "".join(chr(i) for i in ids)

    def chat_prompt(self, messages: list[dict[str, str]]) -> str:
        return "".join(f"<{m['role']}>{m['content']}" for m in messages) + "<assistant>"

    # engine --------------------------------------------------------------------------------
    def generate(self, prompt_ids: list[int], *, speculative: bool, max_new_tokens: int,
                 temperature: float = 0.0, top_p: float = 1.0, top_k: int = 0, gamma: int = 4,
                 gamma_strategy: str = "constant", gamma_max: int = 8, seed: int | None = None,
                 stop: list[str] | None = None, record_distributions: bool = False,
                 on_text: Any = None) -> GenerationResult:
        with self._lock:
            self.calls.append({"speculative": speculative, "max_new_tokens": max_new_tokens,
                               "record_distributions": record_distributions,
                               "thread": threading.current_thread().name})
        if speculative and self.spec_error is not None:
            raise self.spec_error
        start = time.perf_counter()
        ids: list[int] = []
        trace: list[TokenTrace] = []
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
            emitted: list[TokenTrace] = []
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
                emitted.append(TokenTrace(pos, tok, origin,  # type: ignore[arg-type]
                                          0.6 if origin == "accepted" else None, float(p[tok]),
                                          margin, step, g - 1 if speculative else 0))
                ids.append(tok)
            step += 1
            trace += emitted
            text = self.decode(ids)
            if stop and any(s in text for s in stop):
                cut = min(text.index(s) for s in stop if s in text)
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
        return GenerationResult(
            prompt_token_ids=list(prompt_ids), token_ids=ids, text=self.decode(ids),
            finish_reason=finish, trace=trace, stats=stats, speculative=speculative,  # type: ignore[arg-type]
            target_distributions=torch.stack(dists) if record_distributions and dists else None)

    def score_target(self, prompt_ids: list[int], completion_ids: list[int], *,
                     temperature: float = 0.0, top_p: float = 1.0, top_k: int = 0) -> TargetScore:
        rows = [_dist(prompt_ids + completion_ids[:i]) for i in range(len(completion_ids))]
        dists = torch.stack(rows) if rows else torch.zeros(0, V)
        return TargetScore(dists, [int(r.argmax()) for r in rows], [self.margin] * len(rows))

    def score_draft(self, prompt_ids: list[int], completion_ids: list[int], *,
                    temperature: float = 0.0, top_p: float = 1.0, top_k: int = 0,
                    ) -> torch.Tensor | None:
        return self.score_target(prompt_ids, completion_ids).distributions


class ListSink(MemorySink):
    """The audit store's MemorySink plus a filter helper."""

    def of(self, kind: type, request_id: str | None = None) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)
                and (request_id is None or e.request_id == request_id)]

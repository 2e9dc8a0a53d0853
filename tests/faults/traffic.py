"""Request streams for the fault suite: greedy and sampled, with stop strings, EOS, top-p,
top-k, penalties and logit_bias, and response_format json_schema (a grammar).

Prompts are held-out demo-pair prompts (engine.demo_pair.corpus, never trained on). EOS
prompts are short top-level functions of held-out files cut before their last line, kept
only when the target's own greedy completion ends with EOS (screened once per run on the
loaded pair), so "ends with EOS" is a fact about the pair, not a hope. Every stream is
deterministic in its seed.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.demo_pair import corpus

STOP_CHOICES: tuple[tuple[str, ...], ...] = (("\n",), (")",), (" = ", ":"), ("self",), ("(", "\n"))
TEMPERATURES = (0.7, 1.0)
TOP_PS = (0.8, 0.9, 0.95)
TOP_KS = (10, 40)
PENALTIES = {"presence_penalty": 0.8, "frequency_penalty": 0.6, "repetition_penalty": 1.3,
             "logit_bias": {"11": 2.0}}
# A small schema every tokenizer can write: what `grammar` requests constrain their output to.
SCHEMA = {"type": "object", "additionalProperties": False, "required": ["name", "n"],
          "properties": {"name": {"type": "string", "maxLength": 12},
                         "n": {"type": "integer", "minimum": 0, "maximum": 999},
                         "ok": {"type": "boolean"}}}
RESPONSE_FORMAT = {"type": "json_schema", "json_schema": {"name": "row", "schema": SCHEMA}}
# In the mixed (clean) streams: every PENALTY_EVERY-th request of a kind carries the penalties,
# every GRAMMAR_EVERY-th the response_format.
PENALTY_EVERY, GRAMMAR_EVERY = 5, 7
MAX_TOKENS = 32
EOS_MAX_TOKENS = 40  # an EOS prompt's completion is one line, then EOS


@dataclass(frozen=True, slots=True)
class RequestSpec:
    prompt: str
    max_tokens: int
    temperature: float = 0.0
    top_p: float = 1.0
    top_k: int = 0
    stop: tuple[str, ...] = ()
    seed: int | None = None
    # eos, stop, top_p, top_k, penalties, grammar
    features: frozenset[str] = field(default_factory=frozenset)

    @property
    def kind(self) -> str:
        return "greedy" if self.temperature == 0 else "sampled"

    def body(self, model: str) -> dict[str, Any]:
        out: dict[str, Any] = {"model": model, "prompt": self.prompt,
                               "max_tokens": self.max_tokens, "temperature": self.temperature}
        if self.temperature:
            out.update(top_p=self.top_p, top_k=self.top_k, seed=self.seed)
        if self.stop:
            out["stop"] = list(self.stop)
        if "penalties" in self.features:
            out.update(PENALTIES)
        if "grammar" in self.features:
            out["response_format"] = RESPONSE_FORMAT
        return out


def eos_candidates(limit: int = 80) -> list[str]:
    """Held-out top-level functions (3-8 lines) cut before their last line, with that
    line's indentation: the completion is one line, a newline, then (on this pair) EOS."""
    out: list[str] = []
    for unit in corpus.heldout_units():
        lines = unit.rstrip("\n").split("\n")
        if not unit.startswith("def ") or not 3 <= len(lines) <= 8 or len(unit) > 400:
            continue
        last = lines[-1]
        indent = last[: len(last) - len(last.lstrip())]
        if not indent:
            continue
        prompt = "\n".join(lines[:-1]) + "\n" + indent
        if prompt in out:  # the stdlib has a few identical small functions
            continue
        out.append(prompt)
        if len(out) >= limit:
            break
    return out


def screen_eos(prompts: list[str], ends_with_eos: Callable[[str], bool], want: int = 24) -> list[str]:
    """The prompts whose target-only greedy completion ends with EOS (up to `want`)."""
    kept: list[str] = []
    for p in prompts:  # lazily: each screen is a target-only generation
        if len(kept) >= want:
            break
        if ends_with_eos(p):
            kept.append(p)
    if len(kept) < min(4, want):
        raise RuntimeError(f"only {len(kept)} of {len(prompts)} EOS candidates end with EOS on "
                           "this pair; is it the v3 demo pair (trained on units ending in EOS)?")
    return kept


@dataclass(slots=True)
class Traffic:
    """Deterministic request streams over a fixed prompt pool."""

    plain: list[str]
    eos: list[str]
    max_tokens: int = MAX_TOKENS
    eos_max_tokens: int = EOS_MAX_TOKENS
    # > 0: plain requests ask for max_tokens + (0 .. spread) tokens, varying by request (no
    # random draw: the streams' other choices are unchanged). Rows of one batch then reach
    # their last, depth-capped steps at different times (the continuous engine's suite).
    max_tokens_spread: int = 0

    @classmethod
    def build(cls, eos_prompts: list[str], n_plain: int = 48, seed: int = 0) -> Traffic:
        return cls(corpus.heldout_prompts(n_plain, seed=seed, prompt_tokens=(32, 80)), eos_prompts)

    def greedy(self, needs: tuple[str, ...] = (), seed: int = 0) -> Iterator[RequestSpec]:
        """Greedy requests: a mix of plain, stop-string and EOS prompts (or only `needs`)."""
        rng = random.Random(f"greedy-{seed}")
        shapes = [n for n in needs if n in ("plain", "stop", "eos")]
        for i in itertools.count():
            shape = shapes[0] if shapes else ("plain", "stop", "eos")[i % 3]
            yield self._one(rng, shape, i, temperature=0.0, controls=_controls(needs, i))

    def sampled(self, needs: tuple[str, ...] = (), seed: int = 0) -> Iterator[RequestSpec]:
        """Sampled requests over temperatures, top-p, top-k, stop strings and EOS prompts
        (every request uses each feature in `needs`)."""
        rng = random.Random(f"sampled-{seed}")
        for i in itertools.count():
            shape = ("eos" if "eos" in needs else "stop" if "stop" in needs
                     else ("plain", "stop", "eos", "plain")[i % 4])
            top_p = rng.choice(TOP_PS) if "top_p" in needs or i % 3 == 1 else 1.0
            top_k = rng.choice(TOP_KS) if "top_k" in needs or i % 3 == 2 else 0
            yield self._one(rng, shape, i, temperature=rng.choice(TEMPERATURES), top_p=top_p,
                            top_k=top_k, seed=seed * 100_003 + i, controls=_controls(needs, i))

    def mixed(self, seed: int = 0) -> Iterator[RequestSpec]:
        """Greedy and sampled requests alternating (the clean run and the speed-only faults),
        some with penalties and some with a response_format."""
        for g, s in zip(self.greedy(("mixed",), seed), self.sampled(("mixed",), seed),
                        strict=False):
            yield g
            yield s

    def _one(self, rng: random.Random, shape: str, i: int, *, temperature: float,
             top_p: float = 1.0, top_k: int = 0, seed: int | None = None,
             controls: frozenset[str] = frozenset()) -> RequestSpec:
        features = set(controls)
        if top_p < 1.0:
            features.add("top_p")
        if top_k:
            features.add("top_k")
        stop: tuple[str, ...] = ()
        if shape == "eos":
            prompt, max_tokens = self.eos[i % len(self.eos)], self.eos_max_tokens
            features.add("eos")
        else:
            prompt, max_tokens = rng.choice(self.plain), self.max_tokens
            if self.max_tokens_spread:
                max_tokens += (i * 5) % (self.max_tokens_spread + 1)
            if shape == "stop":
                stop = rng.choice(STOP_CHOICES)
                features.add("stop")
        return RequestSpec(prompt, max_tokens, temperature, top_p, top_k, stop, seed,
                           frozenset(features))


def _controls(needs: tuple[str, ...], i: int) -> frozenset[str]:
    """The controls request i carries: those a fault needs on every request; in the mixed
    streams, penalties and a response_format on every few."""
    if "mixed" in needs:
        return frozenset(name for name, every in (("penalties", PENALTY_EVERY),
                                                   ("grammar", GRAMMAR_EVERY))
                         if i % every == every - 1)
    return frozenset(n for n in needs if n in ("penalties", "grammar"))


def stream_for(traffic: Traffic, kind: str, needs: tuple[str, ...], seed: int = 0,
               ) -> Iterator[RequestSpec]:
    if kind == "greedy":
        return traffic.greedy(needs, seed)
    if kind == "sampled":
        return traffic.sampled(needs, seed)
    return traffic.mixed(seed)

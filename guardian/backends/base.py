"""The serving-backend contract: what the sidecar asks of whatever produces tokens.

A backend declares its `Capabilities` and serves `BackendRequest`s with `BackendResult`s:
plain Python values only (ints, floats, strings, `SpecCounters`), so a caller that only
serves (the API, the CLI, the gate's greedy checks) never sees a torch tensor and works the
same over the local engine or a remote server.

Shadow evidence is apart and capability-gated: full (T, V) distributions
(`Distributions`, from `generate_with_evidence`, `target_distributions`,
`draft_distributions`) exist only where `capabilities.full_distributions`; teacher-forced
token scores of a completion the backend did not produce (`score_target`) only where
`capabilities.scores_completions`. The shadow evaluator checks what the evidence allows
and records what it could not check.

Adding a backend kind (vLLM, SGLang, TGI, any OpenAI-compatible server) is one module that
implements `ServingBackend` plus one entry in `guardian.backends.FACTORIES`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from engine.metrics import SpecCounters
from guardian.core.enums import GammaStrategy, Origin, ProposerKind

if TYPE_CHECKING:
    from engine.identity import PairIdentity

# "tool_calls": an upstream pool's answer that ended in tool calls (BackendResult.stats)
FinishReason = Literal["stop", "length", "tool_calls"]

# log(0) in JSON: what vLLM sends for a token outside a top-k / top-p filter.
LOGPROB_FLOOR = -9999.0


# The optional request fields a backend may honour (guardian.api.surface validates them):
# sampling controls (carried in `Sampling`), fields an upstream pool is passed unchanged
# (`BackendRequest.passthrough`), and per-message fields (`messages.<name>`).
SAMPLING_CONTROLS = ("presence_penalty", "frequency_penalty", "repetition_penalty", "min_p",
                     "logit_bias")
PASSTHROUGH = ("tools", "tool_choice", "parallel_tool_calls", "functions", "function_call",
               "response_format", "best_of", "min_tokens", "guided_json", "guided_regex",
               "guided_choice", "guided_grammar", "guided_decoding_backend")
MESSAGE_FIELDS = ("tool_calls", "tool_call_id", "name")
ALL_CONTROLS = frozenset(SAMPLING_CONTROLS + PASSTHROUGH
                         + tuple(f"messages.{f}" for f in MESSAGE_FIELDS))


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a backend can do; the sidecar never asks for more than this promises."""

    speculates: bool  # can decode speculatively (else every request is served target-only)
    proposers: tuple[ProposerKind, ...] = ()  # proposers it can speculate with
    # Can produce full processed target (and, with a draft model, draft) distributions of a
    # run or of a given completion: the evidence for the sampled-decoding checks.
    full_distributions: bool = False
    top_logprobs: int = 0  # alternatives per token it can return (0: none)
    local_tokenizer: bool = False  # encode/decode run in-process (else a round trip)
    # Can score a completion it did not produce (teacher forcing: target argmax, top-2
    # margin and token probability at each position): mirror traffic, gate references.
    scores_completions: bool = False
    # Optional request fields it honours (guardian.api.surface: sampling controls, fields
    # passed through, `messages.<field>`); a request that sets another is a 400 naming it.
    controls: frozenset[str] = frozenset()
    # Serves through `agenerate` on the event loop (an upstream pool's HTTP call: no engine
    # thread to hop to); else `generate` on the serving core's engine thread.
    asynchronous: bool = False
    # Streams tool calls as `tool_calls` deltas (an upstream pool parses them itself); the
    # local engine parses them from the whole answer, so a streamed request with tools is a
    # 400 there rather than a stream of raw <tool_call> text.
    streams_tool_calls: bool = True
    # A seeded sampled request decodes to the same tokens when run again on the same path,
    # whatever else is in the batch (the local engine pins such a row's depth:
    # guardian.backends.local.seed_pins_depth); the shadow's `seed_replay` check holds it to
    # that. An upstream pool promises no such thing, so there the check is `unchecked`.
    reproducible_seeds: bool = False

    def supports(self, proposer: ProposerKind) -> bool:
        return self.speculates and proposer in self.proposers


@dataclass(frozen=True, slots=True)
class Sampling:
    temperature: float = 0.0  # 0 = greedy
    top_p: float = 1.0
    top_k: int = 0  # 0 disables
    # Sampling controls (OpenAI / vLLM semantics; off by default): penalties over the tokens
    # generated so far (presence, frequency) and over prompt + output (repetition), min_p,
    # and (token id, bias) pairs added to the logits.
    presence_penalty: float = 0.0
    frequency_penalty: float = 0.0
    repetition_penalty: float = 1.0
    min_p: float = 0.0
    logit_bias: tuple[tuple[int, float], ...] = ()
    # The output's structure from `response_format` (json_object / json_schema) as canonical
    # JSON (`structure_of`): the local engine masks decoding to it; an upstream pool is sent
    # `response_format` itself (a pass-through field), so this is not in `controls()`.
    grammar: str | None = None

    def controls(self) -> dict[str, Any]:
        """The controls that are on, by their OpenAI names (wire format, audit params)."""
        out: dict[str, Any] = {}
        for name, off in (("presence_penalty", 0.0), ("frequency_penalty", 0.0),
                          ("repetition_penalty", 1.0), ("min_p", 0.0)):
            if getattr(self, name) != off:
                out[name] = getattr(self, name)
        if self.logit_bias:
            out["logit_bias"] = {str(t): b for t, b in self.logit_bias}
        return out

    @property
    def greedy(self) -> bool:
        return self.temperature == 0.0


@dataclass(frozen=True, slots=True)
class BackendRequest:
    """One generation, already tokenized."""

    prompt_ids: list[int]
    max_new_tokens: int
    speculative: bool
    sampling: Sampling = Sampling()
    seed: int | None = None
    stop: tuple[str, ...] = ()
    proposer: ProposerKind = "draft_model"
    gamma: int = 4
    gamma_strategy: GammaStrategy = "constant"
    gamma_max: int = 8
    # Alternatives per token wanted in the trace (`TraceToken.top_logprobs`); 0: none. Never
    # more than `capabilities.top_logprobs`.
    top_logprobs: int = 0
    # For backends without a local tokenizer (`capabilities.local_tokenizer` false: upstream
    # pools): the prompt as text, or the chat messages (the upstream applies its own template).
    prompt_text: str | None = None
    messages: tuple[tuple[str, str], ...] | None = None  # (role, content)
    route: str | None = None  # the route it is served on (an upstream backend picks its pool)
    # Who asked (the API key's principal) and the route's weight: the local engine's turn to
    # join its batch (engine.fairqueue). Runs for the shadow or a gate carry none.
    principal: str | None = None
    weight: float = 1.0
    upstream: Any = None  # the route's pools (guardian.policy.model.UpstreamPools) or None
    # The client's fields forwarded unchanged to an upstream pool (guardian.api.surface:
    # tools, response_format, ...; "messages": the full messages when they carry more than
    # role and content). Only a backend whose `controls` lists them is sent any.
    passthrough: dict[str, Any] = field(default_factory=dict, compare=False)
    # Raises when the request was cancelled (client gone, deadline passed): a batching
    # backend calls it before a queued request joins the batch.
    check: Callable[[], None] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class TokenLogprob:
    """One alternative at a position: its text, log-probability and id (None: unknown)."""

    token: str
    logprob: float
    token_id: int | None = None


@dataclass(frozen=True, slots=True)
class TraceToken:
    """One emitted token (plain-Python mirror of engine.trace.TokenTrace, same fields)."""

    position: int  # index in the completion (0 = first generated token)
    token_id: int
    origin: Origin
    draft_prob: float | None  # q(x) under the processed draft distribution; None: no draft
    target_prob: float  # p(x) under the processed target distribution the verifier used
    target_margin: float  # target top-1 minus top-2 raw logit at this position (>= 0)
    step: int  # index of the target forward that emitted this token
    gamma: int  # speculation depth used at that step (0 for target-only)
    # Additive, both optional: the token's text where the backend has it (an upstream's
    # logprobs), and the most likely alternatives under the same distribution as
    # `target_prob`, best first (filled when BackendRequest.top_logprobs > 0).
    token: str | None = None
    top_logprobs: tuple[TokenLogprob, ...] = ()
    # Evidence for the shadow evaluator (engine.trace.TokenTrace documents each); None
    # where the backend does not report it.
    top1_id: int | None = None
    top2_id: int | None = None
    top1_logit: float | None = None
    top2_logit: float | None = None
    target_logprob: float | None = None
    proposed_token: int | None = None
    proposed_q: float | None = None
    accept_expected: float | None = None


# The evidence fields above, in order (for converters and tests).
TRACE_EVIDENCE_FIELDS = ("top1_id", "top2_id", "top1_logit", "top2_logit", "target_logprob",
                         "proposed_token", "proposed_q", "accept_expected")


@dataclass(frozen=True, slots=True)
class Timings:
    total_s: float = 0.0
    time_to_first_token_s: float = 0.0
    draft_s: float = 0.0  # proposing (draft forwards); 0 for target-only
    verify_s: float = 0.0  # target forwards incl. prefill (target-only: all target time)
    prefill_s: float = 0.0  # prompt processing, included in draft_s / verify_s


@dataclass(frozen=True, slots=True)
class BackendResult:
    """What a backend returns for one request: plain values only (a test checks it)."""

    prompt_token_ids: list[int]
    token_ids: list[int]
    text: str
    finish_reason: FinishReason
    trace: list[TraceToken]  # one per emitted token; empty when the backend reports none
    speculative: bool  # the path that produced it
    counters: SpecCounters  # speculative counters (all 0 for target-only)
    timings: Timings
    # The backend's raw per-request statistics, JSON-safe (the local engine: GenerationStats
    # as a dict). Stored verbatim, hash-covered, in the audit trail; ratios are never taken
    # from here by hand but through engine.metrics (`counters`).
    stats: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TokenScores:
    """Teacher-forced view of a given completion, one entry per completion position."""

    argmax_ids: list[int]  # target top-1 (raw logits)
    margins: list[float] | None  # target top-1 minus top-2 raw logit; None: not available
    token_probs: list[float] | None  # p(completion token) under the processed distribution
    # Evidence for near-tie proofs (additive; None: not available from this backend).
    runner_up_ids: list[int] | None = None  # target top-2 (raw logits)
    top1_logits: list[float] | None = None
    top2_logits: list[float] | None = None
    logprobs: list[float] | None = None  # log softmax(raw logits)[completion token]


@dataclass(frozen=True, slots=True)
class Distributions:
    """Full processed distributions, one row per completion position: shadow evidence only.

    `probs` is array-like (T, V) — a float32 CPU torch.Tensor for the local engine — and is
    consumed by guardian.equivalence.verdicts, never by serving code.
    """

    probs: Any  # (T, V)
    # (T, V) the q each position's proposal was sampled from, as recorded by the engine
    # (zero rows: none, or a point mass); None when the backend does not record it.
    draft_probs: Any = None

    def __len__(self) -> int:
        return int(self.probs.shape[0])

    def head(self, n: int) -> Distributions:
        return Distributions(self.probs[:n],
                             None if self.draft_probs is None else self.draft_probs[:n])


class Unsupported(RuntimeError):
    """The backend lacks the capability a call needs; the message names it."""


OnText = Callable[[str, list[TraceToken]], None]


def watch_only(on_text: OnText) -> OnText:
    """Mark an `on_text` that only watches a generation's progress (its cancellation point,
    the tokens handed out so far) and sends nothing to a client: a backend may then skip the
    per-step work only a stream needs (the local engine's per-step top-k scoring)."""
    on_text.streams = False  # type: ignore[attr-defined]
    return on_text


def streams(on_text: OnText | None) -> bool:
    """Whether `on_text`'s deltas reach a client as they come (see `watch_only`)."""
    return on_text is not None and getattr(on_text, "streams", True)


@runtime_checkable
class ServingBackend(Protocol):
    """Produces tokens for the sidecar. Implementations: guardian.backends.local, ..."""

    kind: str  # registry key, e.g. "local"
    capabilities: Capabilities
    identity: PairIdentity  # what gates and promotions bind to (computed by the engine)
    model_name: str  # the target's name: the default `model` clients send
    max_context: int
    vocab_size: int  # token ids accepted in a prompt are < vocab_size
    # What it declares, not probed for (the serving core, the app, /admin, /readyz, the
    # shadow and the gate read these directly):
    eos_token_ids: frozenset[int] | None  # what ends a completion (None: the engine's own)
    max_prompt_chars: int | None  # longest prompt text it tokenizes (None: no limit here)
    batcher: Any  # its continuous-batching scheduler (engine.batching); None: one at a time

    @property
    def pair_hash(self) -> str: ...

    # tokenizer -------------------------------------------------------------------------
    def encode(self, text: str, *, prompt: bool = True) -> list[int]:
        """Token ids as the backend builds them (prompt=True adds BOS unless the text, a
        rendered chat, already starts with it)."""
        ...

    def decode(self, ids: Sequence[int]) -> str: ...

    def chat_prompt(self, messages: list[dict[str, Any]],
                    tools: list[dict[str, Any]] | None = None) -> str:
        """The conversation as one prompt (the pair's template); `tools`: the request's,
        for a backend that renders them (an upstream pool is sent them instead)."""
        ...

    # serving ---------------------------------------------------------------------------
    def generate(self, request: BackendRequest, on_text: OnText | None = None) -> BackendResult:
        """Serve one request. `on_text(delta, tokens)` is called after each step (streaming,
        and the shadow worker's preemption point); it may raise to abort the run."""
        ...

    def engine_description(self) -> dict[str, Any]:
        """Which engine serves, for the gate report (`{"engine": "request" | "continuous" |
        "upstream", ...}`)."""
        ...

    def shutdown(self) -> None:
        """Stop its engine threads (a no-op where it has none)."""
        ...

    def check_sampling(self, sampling: Sampling) -> None:
        """Raise ValueError (a 400 naming the field) for a control this backend cannot apply
        as asked, e.g. a JSON schema its grammar engine refuses; a no-op where the backend
        sends the request on (an upstream pool judges it)."""
        ...

    async def aclose(self) -> None:
        """Close its network sessions on the running loop (a no-op where it has none)."""
        ...

    # shadow evidence (capability-gated) --------------------------------------------------
    def generate_with_evidence(self, request: BackendRequest, on_text: OnText | None = None,
                               ) -> tuple[BackendResult, Distributions]:
        """`generate` plus the target distributions the run used at each emitted position
        (the verifier's p when speculative). Needs `full_distributions`."""
        ...

    def score_target(self, prompt_ids: list[int], completion_ids: list[int],
                     sampling: Sampling) -> TokenScores:
        """The target's view of a given completion. Needs `scores_completions`."""
        ...

    def target_distributions(self, prompt_ids: list[int], completion_ids: list[int],
                             sampling: Sampling) -> Distributions:
        """Target-only processed p at each completion prefix. Needs `full_distributions`."""
        ...

    def draft_distributions(self, prompt_ids: list[int], completion_ids: list[int],
                            sampling: Sampling) -> Distributions | None:
        """Draft-model processed q at each completion prefix (None without a draft model).
        Needs `full_distributions`."""
        ...


@runtime_checkable
class AsyncServingBackend(ServingBackend, Protocol):
    """A backend whose `capabilities.asynchronous` is true: it also serves on the event loop."""

    async def agenerate(self, request: BackendRequest, on_text: OnText | None = None,
                        ) -> BackendResult:
        """`generate` on the event loop (an upstream pool's HTTP call)."""
        ...


def require(backend: ServingBackend, capability: str) -> None:
    """Raise `Unsupported` unless `backend.capabilities.<capability>` is true."""
    if not getattr(backend.capabilities, capability):
        raise Unsupported(f"the {backend.kind!r} backend does not support {capability}; "
                          "this check needs a backend that does (e.g. the local engine)")

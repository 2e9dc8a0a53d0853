"""`LocalEngineBackend`: the serving-backend contract over the in-process engine (engine.Pair).

The one module of the sidecar that calls the engine's decoding and scoring functions and
turns their tensors into the contract's plain values (engine.trace -> BackendResult) or
shadow evidence (`Distributions`). Pair identity and compatibility come from the engine
(engine.compat via engine.load_pair), never recomputed here.

Also owns where a local pair comes from when none is configured: the demo pair under the
settings' home (`pair_dirs`), so `guardian serve`, `guardian gate --pair demo`,
`guardian pair ...` and `guardian pair build-demo` all resolve the same directory.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
import math
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.controllers import pinned_strategy
from engine.metrics import SpecCounters
from guardian.backends.base import (
    LOGPROB_FLOOR,
    MESSAGE_FIELDS,
    SAMPLING_CONTROLS,
    TRACE_EVIDENCE_FIELDS,
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
)
from guardian.backends.tools import grammar_spec, with_tool_calls
from guardian.core.enums import PROPOSER_KINDS

if TYPE_CHECKING:
    from engine import GenerationResult, Pair
    from engine.demo_pair.build import DemoPairPaths
    from guardian.settings import Settings

logger = logging.getLogger(__name__)

# Every proposer the engine builds (engine.proposers.BUILDERS; guardian.core.enums.PROPOSER_KINDS is
# kept equal to the engine's kinds by a test, and is importable without torch).
# controls: the sampling controls (engine.controls / engine.sampling apply them on the draft
# and verify paths alike, speculation on), response_format json_object / json_schema and
# tools (engine.grammar: a mask on both paths; guardian.backends.tools renders and parses
# the calls); the other pass-through fields are not implemented by the engine yet (a 400).
LOCAL_CONTROLS = frozenset((*SAMPLING_CONTROLS, "response_format", "tools", "tool_choice",
                            "parallel_tool_calls", *(f"messages.{f}" for f in MESSAGE_FIELDS)))
CAPABILITIES = Capabilities(speculates=True, proposers=PROPOSER_KINDS,  # type: ignore[arg-type]
                            full_distributions=True, top_logprobs=20, local_tokenizer=True,
                            scores_completions=True, controls=LOCAL_CONTROLS,
                            streams_tool_calls=False, reproducible_seeds=True)


def engine_controls(s: Sampling) -> dict[str, Any]:
    """The request's sampling controls as engine.sampling.SamplingParams fields (the grammar,
    which needs the pair's tokenizer, comes from `LocalEngineBackend.controls`)."""
    return {"presence_penalty": s.presence_penalty, "frequency_penalty": s.frequency_penalty,
            "repetition_penalty": s.repetition_penalty, "min_p": s.min_p,
            "logit_bias": s.logit_bias}


def seed_pins_depth(request: BackendRequest) -> bool:
    """A seeded sampled speculative request decodes at depths that depend on nothing but its
    own draws (not the batch's load cap, not the clock), so its seed reproduces its tokens on
    the same path: what the shadow's `seed_replay` check holds the engine to."""
    return request.seed is not None and request.speculative and not request.sampling.greedy


def default_step_costs_dir() -> Path:
    """Where measured step costs are kept unless GUARDIAN_STEP_COSTS_DIR says otherwise: the
    user's cache, not GUARDIAN_HOME, so sidecars with their own homes on one machine (tests,
    benches) measure a pair once."""
    return Path.home() / ".cache" / "spec-guardian" / "step-costs"


def demo_home(settings: Settings) -> Path:
    """The data directory the demo pair lives under: the settings' home (env or .env)."""
    return settings.home


def ensure_private_demo_pair(home: Path, **kwargs: Any) -> DemoPairPaths:
    """`engine.demo_pair.ensure_demo_pair` under `home`, made 0700 first: the home holds the
    audit database and secrets too, and a first start builds the pair before anything else
    creates it (the build made it 0755). Every guardian caller builds through this."""
    from engine.demo_pair import ensure_demo_pair
    from guardian.core.fileio import private_dir

    private_dir(home)
    return ensure_demo_pair(home, **kwargs)


def ensure_private_recipe_pair(name: str, home: Path, **kwargs: Any) -> Any:
    """A recipe's pair (engine.recipes, e.g. "smollm2") under `home`, made 0700 first like
    the demo pair's -> its PairPaths (draft_dir, target_dir, manifest)."""
    from engine.recipes import recipe
    from guardian.core.fileio import private_dir

    module = recipe(name)
    private_dir(home)
    return module.ensure_pair(home, **kwargs)


def demo_pair_dirs(settings: Settings) -> tuple[Path, Path]:
    """The demo pair's (draft, target) dirs under the settings' home, built on first use."""
    paths = ensure_private_demo_pair(demo_home(settings))
    return Path(paths.draft_dir), Path(paths.target_dir)


def pair_dirs(settings: Settings, draft: Path | None = None, target: Path | None = None,
              ) -> tuple[Path, Path]:
    """Model dirs to load: the given ones, else the configured ones, else the demo pair."""
    if draft is not None and target is not None:
        return Path(draft), Path(target)
    if settings.draft_dir and settings.target_dir:
        return settings.draft_dir, settings.target_dir
    logger.info("no pair configured (GUARDIAN_DRAFT_DIR/GUARDIAN_TARGET_DIR): using the demo "
                "pair (built on first use, a few minutes)")
    return demo_pair_dirs(settings)


def serving_options(settings: Settings) -> dict[str, Any]:
    """`LocalEngineBackend` options `guardian serve` uses (batching, depth policy): the gate
    loads its pair with the same, so it judges the engine that serves."""
    return {"batching": settings.batching == "continuous", "max_batch": settings.max_batch,
            "gamma_by_batch": settings.gamma_by_batch or None,
            "gamma_policy": settings.gamma_policy,
            "step_costs_dir": settings.step_costs_dir or default_step_costs_dir(),
            "batch_order": settings.batch_order, "headroom": settings.fair_headroom}


def _opt(x: Any, kind: type) -> Any:
    return None if x is None else kind(x)


def _token(t: Any, piece: Callable[[int], str] | None = None) -> TraceToken:
    """An engine TokenTrace as the contract's TraceToken; with `piece` (one token id's text),
    the alternatives the engine recorded (`TokenTrace.alternatives`) become `top_logprobs`."""
    extra: dict[str, Any] = {}
    alternatives = getattr(t, "alternatives", None)
    if piece is not None and alternatives:
        extra = {"token": piece(int(t.token_id)), "top_logprobs": tuple(
            TokenLogprob(piece(int(i)), max(math.log(p), LOGPROB_FLOOR) if p > 0
                         else LOGPROB_FLOOR, int(i)) for i, p in alternatives)}
    return TraceToken(int(t.position), int(t.token_id), t.origin,
                      None if t.draft_prob is None else float(t.draft_prob),
                      float(t.target_prob), float(t.target_margin), int(t.step), int(t.gamma),
                      **extra,
                      **{f: _opt(getattr(t, f, None), int if f.endswith(("_id", "_token")) else float)
                         for f in TRACE_EVIDENCE_FIELDS})


def _plain(value: Any) -> Any:
    """JSON-safe plain values from a stats dict (a future tensor field must not leak)."""
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    tolist = getattr(value, "tolist", None)
    return _plain(tolist()) if tolist is not None else str(value)


def to_result(res: GenerationResult, piece: Callable[[int], str] | None = None,
              ) -> BackendResult:
    """engine.GenerationResult -> the contract's plain BackendResult (distributions dropped;
    `piece`: alternatives the engine recorded become `top_logprobs`, see `_token`)."""
    stats = _plain(dataclasses.asdict(res.stats))
    # Deprecated key, kept in the API's `spec_guardian.stats` and the audit stats JSON for
    # one release so readers of `draft_tokens` (which always counted judged positions) keep
    # working; new readers use `judged_tokens` / `proposed_tokens` (see CHANGELOG.md).
    stats["draft_tokens"] = res.stats.judged_tokens
    st = res.stats
    return BackendResult(
        prompt_token_ids=[int(t) for t in res.prompt_token_ids],
        token_ids=[int(t) for t in res.token_ids], text=res.text,
        finish_reason=res.finish_reason, trace=[_token(t, piece) for t in res.trace],
        speculative=bool(res.speculative), counters=SpecCounters.from_stats(stats),
        timings=Timings(total_s=st.total_time_s, time_to_first_token_s=st.time_to_first_token_s,
                        draft_s=st.draft_time_s, verify_s=st.verify_time_s,
                        prefill_s=st.prefill_time_s),
        stats=stats)


class LocalEngineBackend:
    """`ServingBackend` over a loaded `engine.Pair` (draft model + target, local tokenizer)."""

    kind = "local"
    capabilities = CAPABILITIES

    def __init__(self, pair: Pair, *, batching: bool = False, max_batch: int = 16,
                 gamma_by_batch: dict[int, int] | None = None,
                 gamma_policy: str = "modelled", step_costs_dir: Path | None = None,
                 batch_order: str = "fair", headroom: int = 0) -> None:
        """`batching`: serve concurrent requests in one continuously batched engine
        (engine.batching); otherwise each `generate` call decodes alone (one at a time on
        the serving core's engine thread). `gamma_by_batch` pins the depth cap per batch
        size; otherwise `gamma_policy` picks how it is chosen: `modelled` (engine.capmodel:
        predicted from step costs measured at start and live acceptance) or `runs`
        (engine.loadaware: each depth tried on live traffic); `step_costs_dir`: where the
        modelled cap keeps its measured step costs (None: measure at every start).
        `batch_order`: `fair` (turns across routes and callers) or `fifo` joins;
        `headroom`: rows beyond `max_batch`, each for a route holding none (engine.batching)."""
        import engine

        self._engine = engine
        self.pair = pair
        # One token id's text, memoised: a streamed request's alternatives are decoded on the
        # engine thread (k + 1 per token), and a vocabulary's pieces never change.
        self._piece = functools.lru_cache(maxsize=1 << 16)(
            lambda token: pair.tokenizer.decode([token]))
        self.batcher: Any = None
        if batching:
            from engine.batching import BatchScheduler
            from engine.capmodel import ModelledGamma
            from engine.loadaware import LoadAwareGamma

            gamma: Any = (LoadAwareGamma(fixed=gamma_by_batch or None)
                          if gamma_by_batch or gamma_policy == "runs"
                          else ModelledGamma(cache_dir=step_costs_dir))
            self.batcher = BatchScheduler(pair, max_batch=max_batch, gamma=gamma,
                                          fifo=batch_order == "fifo", headroom=headroom)
        self.identity = pair.identity
        self.model_name: str = pair.identity.target_name
        self.max_context: int = int(pair.max_context)
        # Text longer than this cannot fit the context, whatever it says (no token covers more
        # characters than its vocabulary string has; x4 for normalisers that shrink text):
        # refused before tokenizing, which costs ~1 s of CPU per MiB (ServingCore.check_text).
        longest = max((len(t) for t in pair.tokenizer.get_vocab()), default=16)
        self.max_prompt_chars: int = 4 * self.max_context * max(1, longest)
        self.vocab_size: int = max(len(pair.tokenizer), int(pair.target.config.vocab_size))
        self.device, self.dtype = str(pair.device), str(pair.dtype).removeprefix("torch.")
        # What ends a completion (the shadow evaluator's stopping checks read it).
        self.eos_token_ids: frozenset[int] = frozenset(int(t) for t in pair.eos_token_ids)

    @property
    def pair_hash(self) -> str:
        return self.identity.pair_hash

    @classmethod
    def load(cls, draft_dir: str | Path, target_dir: str | Path, device: str | None = None, *,
             dtype: str | None = None, fp32_logits: bool = True, kernels: str = "auto",
             **options: Any) -> LocalEngineBackend:
        """Load and check a pair (engine.load_pair refuses an incompatible one before reading
        any weights: engine.IncompatiblePairError names what differs). `dtype`: a torch
        dtype name for the models (default: the engine's, bf16 on CUDA, fp32 on CPU);
        `fp32_logits`: a half-precision pair's output projections in float32 (engine.head);
        `kernels`: engine.load_pair's. `options`: see __init__ (batching)."""
        import engine

        return cls(engine.load_pair(draft_dir, target_dir, device=device, dtype=dtype,
                                    fp32_logits=fp32_logits, kernels=kernels), **options)

    def shutdown(self) -> None:
        if self.batcher is not None:
            self.batcher.shutdown()

    async def aclose(self) -> None:
        """No network sessions (the engine thread stops in `shutdown`)."""

    @classmethod
    def from_settings(cls, settings: Settings) -> LocalEngineBackend:
        """The configured pair (or the demo pair under the settings' home) on the configured
        device, with the configured torch thread count."""
        import engine
        from engine.threads import settle

        draft_dir, target_dir = pair_dirs(settings)
        pair = engine.load_pair(draft_dir, target_dir, device=settings.device,
                                fp32_logits=settings.fp32_logits, kernels="plain")
        # Before the step costs are measured with it: on a small shared CPU torch's spinning
        # intra-op pool can cost 20x (measured: a tiny pair's 12-token generation 2.7 s with
        # 2 threads vs 0.12 s with 1 under load); unset, the faster of torch's count and one
        # thread, timed here (engine.threads).
        settle(pair, settings.torch_threads, settings.decode, settings.kernels)  # then those two
        return cls(pair, **serving_options(settings))

    # the engine that serves ------------------------------------------------------------------
    def as_served(self, options: dict[str, Any]) -> LocalEngineBackend:
        """This pair behind a backend with `options` (`serving_options`: as serve runs it)."""
        self.shutdown()
        return type(self)(self.pair, **options)

    def engine_description(self) -> dict[str, Any]:
        """Which engine serves and how its depth is capped (the gate report records it)."""
        decode = self.pair.decode_description()
        if self.batcher is None:
            return {"engine": "request", "batching": "off", "max_batch": 1, **decode}
        gamma = self.batcher.gamma
        return {"engine": "continuous", "batching": "continuous", **decode,
                "max_batch": self.batcher.max_batch,
                "depth_policy": ("pinned" if gamma.fixed is not None
                                 else type(gamma).__name__),
                "gamma_cap_by_batch_size": {str(b): g for b, g in gamma.table().items()}}

    @contextlib.contextmanager
    def pinned_depth(self, gamma: int) -> Iterator[None]:
        """Serve through a fresh batch whose depth cap is pinned at `gamma` for every batch
        size, then the serving one again (the gate judges batches at the depth a route asks
        for too: a learnt cap moves with load and acceptance). Request-level: no-op."""
        if self.batcher is None:
            yield
            return
        from engine.batching import BatchScheduler
        from engine.loadaware import LoadAwareGamma

        serving = self.batcher
        pinned = BatchScheduler(self.pair, max_batch=serving.max_batch,
                                gamma=LoadAwareGamma(fixed={1: gamma}),
                                fifo=serving.fifo, headroom=serving.headroom)
        self.batcher = pinned
        try:
            yield
        finally:
            self.batcher = serving
            pinned.shutdown()

    # controls ------------------------------------------------------------------------------
    def controls(self, s: Sampling) -> dict[str, Any]:
        """`engine_controls`, plus a fresh grammar constraint (its matchers are per request)
        when the request constrains its output (`response_format`)."""
        out = engine_controls(s)
        if s.grammar is not None:
            from engine.grammar import GrammarConstraint

            out["grammar"] = GrammarConstraint(grammar_spec(s.grammar), self.pair.tokenizer,
                                               self.vocab_size, sorted(self.eos_token_ids))
        return out

    def check_sampling(self, sampling: Sampling) -> None:
        """A schema the grammar engine refuses (or cannot compile for this tokenizer) is a
        ValueError before any work, never a failed generation."""
        if sampling.grammar is not None:
            self.controls(sampling)

    # tokenizer -------------------------------------------------------------------------
    def encode(self, text: str, *, prompt: bool = True) -> list[int]:
        tok = self.pair.tokenizer
        # Same rule as engine.generate for string prompts: BOS unless the text (a rendered
        # chat) already starts with it — so passing ids serves exactly what a string would.
        special = prompt and not (tok.bos_token and text.startswith(tok.bos_token))
        return list(tok(text, add_special_tokens=bool(special))["input_ids"])

    def decode(self, ids: Sequence[int]) -> str:
        return self.pair.tokenizer.decode(list(ids))

    def chat_prompt(self, messages: list[dict[str, Any]],
                    tools: list[dict[str, Any]] | None = None) -> str:
        """The pair's template over `messages`; `tools` (and earlier turns' calls and results)
        as the template renders them, or as guardian.backends.tools writes them for a
        template that does not."""
        template = self.pair.tokenizer.chat_template or ""
        tooling = bool(tools) or any(m.get("tool_calls") or m.get("role") == "tool"
                                     for m in messages)
        if tooling and "tools" in template:
            return self._engine.chat_prompt(self.pair, messages, tools=tools or None)
        if tooling:
            from guardian.backends.tools import plain_messages

            messages = plain_messages(messages, tools)
        return self._engine.chat_prompt(self.pair, [{"role": m["role"], "content": m["content"]}
                                                    for m in messages])

    # serving ---------------------------------------------------------------------------
    def _generate(self, request: BackendRequest, on_text: OnText | None,
                  record: bool, alternatives: int = 0) -> GenerationResult:
        """One request on either core. `alternatives`: top-k per token recorded by the
        engine from the forward that chose it (streamed with their text)."""
        if self.batcher is not None:
            return self._generate_batched(request, on_text, record, alternatives)
        s = request.sampling
        kwargs: dict[str, Any] = dict(
            speculative=request.speculative, max_new_tokens=request.max_new_tokens,
            temperature=s.temperature, top_p=s.top_p, top_k=s.top_k, gamma=request.gamma,
            gamma_strategy=pinned_strategy(request.gamma_strategy, seed_pins_depth(request)),
            gamma_max=request.gamma_max, seed=request.seed, stop=list(request.stop),
            record_distributions=record, proposer=request.proposer, alternatives=alternatives,
            controls=self.controls(s))
        if on_text is not None:
            piece = self._piece if alternatives > 0 else None

            def plain_on_text(delta: str, traces: list[Any]) -> None:
                on_text(delta, [_token(t, piece) for t in traces])

            kwargs["on_text"] = plain_on_text
        return self._engine.generate(self.pair, list(request.prompt_ids), **kwargs)

    def _generate_batched(self, request: BackendRequest, on_text: OnText | None,
                          record: bool, alternatives: int) -> GenerationResult:
        """One request through the shared batch (blocks this thread, not the engine).
        `alternatives`: top-k per token recorded by the engine (streamed with their text)."""
        import torch

        from engine.api import result_of
        from engine.batch import RowResult
        from engine.continuous import SequenceRequest
        from engine.controllers import make_controller
        from engine.proposers import ProposerConfig
        from engine.sampling import SamplingParams

        s, pair = request.sampling, self.pair
        generator = None
        if request.seed is not None:
            generator = torch.Generator(device=pair.device).manual_seed(request.seed)
        pinned = seed_pins_depth(request)
        plain = None
        if on_text is not None:
            piece = self._piece if alternatives > 0 else None

            def plain(delta: str, traces: list[Any]) -> None:
                on_text(delta, [_token(t, piece) for t in traces])

        seq = self.batcher.run(SequenceRequest(
            prompt=list(request.prompt_ids),
            params=SamplingParams(temperature=s.temperature, top_p=s.top_p, top_k=s.top_k,
                                  **self.controls(s)),
            max_new_tokens=request.max_new_tokens, stop=list(request.stop),
            speculative=request.speculative, proposer=ProposerConfig(request.proposer),
            controller=(make_controller(pinned_strategy(request.gamma_strategy, pinned),
                                        request.gamma, request.gamma_max)
                        if request.speculative else None),
            generator=generator, on_text=plain, record_distributions=record,
            alternatives=alternatives, pinned_depth=pinned), request.check,
            tenant=(request.route or "", request.principal or ""), weight=request.weight)
        return result_of(list(request.prompt_ids), RowResult(seq.completion, seq.stats),
                         request.speculative, record)

    def generate(self, request: BackendRequest, on_text: OnText | None = None) -> BackendResult:
        if request.top_logprobs <= 0:
            return with_tool_calls(to_result(self._generate(request, on_text, record=False)),
                                    request)
        return with_tool_calls(self._generate_with_alternatives(request, on_text), request)

    # top-k alternatives (logprobs) ----------------------------------------------------------
    def _generate_with_alternatives(self, request: BackendRequest, on_text: OnText | None,
                                    ) -> BackendResult:
        """`generate` whose trace carries the top-k alternatives at each position.

        Both cores take them from the forward that chose each token: the processed target
        distribution, copied to the host with the step's verdict, so a stream pays nothing
        more per step. Before, a streamed request re-scored its whole prefix at every step on
        the engine thread (O(T) forwards per request), which every row of a batch waited
        for; the one-at-a-time core did so until 2026-11-27.
        """
        k = min(request.top_logprobs, self.capabilities.top_logprobs)
        return to_result(self._generate(request, on_text, record=False, alternatives=k),
                         self._piece)

    # shadow evidence ---------------------------------------------------------------------
    def generate_with_evidence(self, request: BackendRequest, on_text: OnText | None = None,
                               ) -> tuple[BackendResult, Distributions]:
        """`generate`, also keeping the distributions a sampled shadow check needs; the
        alternatives a request asked for (`top_logprobs`) come with it as from `generate`."""
        k = min(max(request.top_logprobs, 0), self.capabilities.top_logprobs)
        res = self._generate(request, on_text, record=True, alternatives=k)
        if res.target_distributions is None:
            raise RuntimeError("the engine did not record the target distributions")
        return (with_tool_calls(to_result(res, self._piece if k else None), request),
                Distributions(res.target_distributions, getattr(res, "draft_distributions", None)))

    def score_target(self, prompt_ids: list[int], completion_ids: list[int],
                     sampling: Sampling) -> TokenScores:
        out = self._score(prompt_ids, completion_ids, sampling)
        return TokenScores([int(x) for x in out.argmax_ids], [float(x) for x in out.margins],
                           [float(x) for x in out.token_probs],
                           runner_up_ids=[int(x) for x in out.runner_up_ids],
                           top1_logits=[float(x) for x in out.top1_logits],
                           top2_logits=[float(x) for x in out.top2_logits],
                           logprobs=[float(x) for x in out.logprobs])

    def target_distributions(self, prompt_ids: list[int], completion_ids: list[int],
                             sampling: Sampling) -> Distributions:
        return Distributions(self._score(prompt_ids, completion_ids, sampling).distributions)

    def _score(self, prompt_ids: list[int], completion_ids: list[int], sampling: Sampling) -> Any:
        return self._engine.score_target(self.pair, list(prompt_ids), list(completion_ids),
                                         temperature=sampling.temperature, top_p=sampling.top_p,
                                         top_k=sampling.top_k,
                                         controls=self.controls(sampling))

    def draft_distributions(self, prompt_ids: list[int], completion_ids: list[int],
                            sampling: Sampling) -> Distributions | None:
        """(T, V) processed draft distributions q at each completion prefix (engine.score_draft,
        one teacher-forced forward; a re-scored q, see its docstring)."""
        q = self._engine.score_draft(self.pair, list(prompt_ids), list(completion_ids),
                                     temperature=sampling.temperature, top_p=sampling.top_p,
                                     top_k=sampling.top_k, controls=self.controls(sampling))
        return None if q is None else Distributions(q)

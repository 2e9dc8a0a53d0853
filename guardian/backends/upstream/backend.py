"""`UpstreamBackend`: the ServingBackend contract over upstream pools (GUARDIAN_BACKEND=upstream).

Each request carries its route's pools (`BackendRequest.upstream`, from the policy's
`routes.<name>.upstream`); the mode in force picks one — a speculative request goes to the
`speculative` pool, every other to `target_only` — so a rollback (which changes the mode on
every replica within ~1 s, guardian.governance) flips the pool with no restart.

Serving runs on the event loop (`agenerate`, one `aiohttp.ClientSession` per pool and loop:
keep-alive, connection limits, timeouts; the serving core awaits it with no worker-thread hop);
the shadow worker's threads use the pool's sync `httpx.Client` (`generate`), every socket
operation of a call cut to its `total_timeout_s` (httpx's own timeouts are per operation: a
pool dripping header bytes would hold a shadow worker for ever). aiohttp, not
httpx, on the serving path because it is the proxy's largest own cost: 0.16 vs 0.59 ms of CPU
per request to the bundled fake upstream (measured side by side, 1,000 requests each). A
circuit breaker per pool.
What it cannot do, capabilities say: no local tokenizer (prompts travel as text or chat messages, the upstream
applies its own template and length checks), no full distributions, no teacher-forced
scoring; top-k logprobs up to 20.

This module owns the backend itself (pool choice, breaker bookkeeping, the call and its
result); one pool's clients and the sync deadline: guardian.backends.upstream.pools; reading
an answer's bytes and turning errors into faults: guardian.backends.upstream.reading.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import aiohttp
import httpx

from engine.identity import PairIdentity
from engine.metrics import SpecCounters
from guardian.backends.base import (
    ALL_CONTROLS,
    MESSAGE_FIELDS,
    BackendRequest,
    BackendResult,
    Capabilities,
    Distributions,
    OnText,
    Sampling,
    TokenScores,
    Unsupported,
)
from guardian.backends.upstream.errors import UpstreamError
from guardian.backends.upstream.pools import _DEADLINE, Pool
from guardian.backends.upstream.reading import (
    _ERROR_CAP,
    _afault,
    _body_cap,
    _fault,
    _latency,
    _lines,
    _lines_sync,
    _loads,
    _raise_status,
    _read,
    _read_sync,
    _streams,
)
from guardian.backends.upstream.wire import (
    FINISH_REASONS,
    Answer,
    SSEFeed,
    WireError,
    request_body,
    sse_events,
    timings_spec,
)
from guardian.core.enums import PROPOSER_KINDS

if TYPE_CHECKING:
    from guardian.policy import Policy
    from guardian.policy.model import UpstreamPool, UpstreamPools
    from guardian.settings import Settings

logger = logging.getLogger(__name__)
# httpx logs every request at INFO: one log line per proxied request is a cost the proxy path
# does not need (faults are logged here, with the request id, instead).
logging.getLogger("httpx").setLevel(logging.WARNING)

# controls: every optional field is forwarded unchanged (the pool's engine honours it or
# refuses it with its own 400, which the client gets).
CAPABILITIES = Capabilities(speculates=True, proposers=PROPOSER_KINDS,  # type: ignore[arg-type]
                            full_distributions=False, top_logprobs=20, local_tokenizer=False,
                            scores_completions=False, controls=ALL_CONTROLS,
                            asynchronous=True)


def _identity(names: Sequence[str]) -> PairIdentity:
    """What the audit binds upstream traffic to: the pools' model names (an upstream cannot
    give weight hashes; a gate report still ties to these names + the policy hash)."""
    digest = hashlib.sha256("\x1f".join(sorted(set(names))).encode()).hexdigest()
    return PairIdentity(pair_hash=f"upstream-{digest[:52]}", draft_hash="upstream",
                        target_hash="upstream", tokenizer_hash="upstream",
                        chat_template_hash="upstream", draft_name="upstream",
                        target_name=names[0] if names else "upstream")


# Line breaks JSON leaves unescaped (str.splitlines splits there): escaped, so one message is
# one line to any reader.
_LINE_BREAKS = str.maketrans({"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"})


class UpstreamBackend:
    """`ServingBackend` over the policy's upstream pools."""

    kind = "upstream"
    capabilities = CAPABILITIES
    max_context = 1 << 30  # the upstream checks lengths
    vocab_size = 1 << 31
    eos_token_ids: frozenset[int] | None = None  # the pool's engine stops its own answers
    max_prompt_chars: int | None = None  # the pool's engine refuses what does not fit
    batcher = None  # the pool's engine batches, out of this process

    def __init__(self, model_name: str, pool_models: Sequence[str] = ()) -> None:
        self.model_name = model_name
        self.identity = _identity([model_name, *pool_models])
        self._pools: dict[tuple[str, str], Pool] = {}
        self._lock = threading.Lock()

    @property
    def pair_hash(self) -> str:
        return self.identity.pair_hash

    @classmethod
    def from_settings(cls, settings: Settings) -> UpstreamBackend:
        """Model names from the configured policy: the default route's target-only pool's
        model is the default `model` clients send."""
        from guardian.policy import load_policy

        return cls.from_policy(load_policy(settings.policy_file))

    @classmethod
    def from_policy(cls, policy: Policy) -> UpstreamBackend:
        """The backend (and so the upstream pair) a sidecar with this policy serves."""
        default = policy.route(policy.default_route).upstream
        if default is None:
            raise ValueError(f"GUARDIAN_BACKEND=upstream needs routes.{policy.default_route}."
                             "upstream (speculative and target_only pools) in the policy")
        models = [p.model for r in policy.routes.values() if r.upstream
                  for p in (r.upstream.speculative, r.upstream.target_only)]
        return cls(default.target_only.model, models)

    def pool(self, cfg: UpstreamPool, pools: UpstreamPools) -> Pool:
        key = (cfg.model_dump_json(), f"{pools.breaker_failures}/{pools.breaker_reset_s}")
        pool = self._pools.get(key)
        if pool is None:
            with self._lock:
                pool = self._pools.get(key)
                if pool is None:
                    pool = self._pools[key] = Pool(cfg, pools.breaker_failures,
                                                   pools.breaker_reset_s)
        return pool

    def close(self) -> None:
        for pool in self._pools.values():
            pool.close()

    async def aclose(self) -> None:
        """Close the pools' sessions of the running loop (the app's shutdown)."""
        for pool in list(self._pools.values()):
            await pool.aclose()

    def shutdown(self) -> None:
        """No engine thread here (the sessions close in `aclose`, on their loop)."""

    def engine_description(self) -> dict[str, Any]:
        return {"engine": "upstream", "batching": "the pool's own"}

    def check_sampling(self, sampling: Sampling) -> None:
        """Nothing to check here: the pool is sent the request and judges it."""

    # tokenizer: none here (the upstream tokenizes) ------------------------------------------
    def encode(self, text: str, *, prompt: bool = True) -> list[int]:
        raise Unsupported("the upstream backend has no local tokenizer")

    def decode(self, ids: Sequence[int]) -> str:
        raise Unsupported("the upstream backend has no local tokenizer")

    def chat_prompt(self, messages: list[dict[str, Any]],
                    tools: list[dict[str, Any]] | None = None) -> str:
        """The conversation as the audit keeps it (the upstream applies its own template): one
        JSON object per message and line. Unambiguous whatever the messages hold: a message
        whose content is `"...\n<|assistant|>\nSure"` stays one user message in the record
        instead of reading as an assistant turn (as it did with `<|role|>` lines). A message's
        tool_calls / tool_call_id / name, where sent, are in its line too."""
        return "".join(json.dumps({"role": m["role"], "content": m["content"],
                                   **{k: m[k] for k in MESSAGE_FIELDS if k in m}},
                                  ensure_ascii=False).translate(_LINE_BREAKS) + "\n"
                       for m in messages)

    # serving -------------------------------------------------------------------------------
    def generate(self, request: BackendRequest, on_text: OnText | None = None) -> BackendResult:
        pool, emit, done = self._prepare(request, on_text)
        try:
            result = self._call(pool, request, emit if on_text is not None else None)
        except UpstreamError as exc:
            raise done(exc) from None
        except BaseException:  # neither the pool's fault nor a success: free a probe slot
            pool.breaker.release()
            raise
        done(None)
        return result

    async def agenerate(self, request: BackendRequest, on_text: OnText | None = None,
                        ) -> BackendResult:
        """`generate` on the event loop (httpx.AsyncClient): what the serving core calls."""
        pool, emit, done = self._prepare(request, on_text)
        try:
            result = await self._acall(pool, request, emit if on_text is not None else None)
        except UpstreamError as exc:
            raise done(exc) from None
        except BaseException:  # cancelled (the client left, a deadline): free a probe slot,
            pool.breaker.release()  # else a half-open breaker never probes again
            raise
        done(None)
        return result

    def _prepare(self, request: BackendRequest, on_text: OnText | None,
                 ) -> tuple[Pool, OnText, Callable[[UpstreamError | None], UpstreamError]]:
        """The request's pool (breaker checked), an `on_text` that notes whether text was
        sent, and the bookkeeping to run when the call ends (fault or None)."""
        pools: UpstreamPools | None = request.upstream
        if pools is None:
            raise UpstreamError("not_configured", "-", f"route {request.route!r} has no "
                                "upstream pools (routes.<route>.upstream in the policy)")
        cfg = pools.speculative if request.speculative else pools.target_only
        pool = self.pool(cfg, pools)
        failover = pools.failover and request.speculative
        sent = False

        def emit(delta: str, rows: list[Any]) -> None:
            nonlocal sent
            sent = sent or bool(delta)
            if on_text is not None:
                on_text(delta, rows)

        if not pool.breaker.allow():
            raise UpstreamError("circuit_open", pool.label, "too many recent faults; retrying "
                                f"after {pools.breaker_reset_s:g} s", no_fallback=not failover)

        def done(exc: UpstreamError | None) -> UpstreamError:
            if exc is None:
                pool.breaker.success()
                return UpstreamError("status", pool.label, "no fault")  # unused
            exc.no_fallback = not (failover and not sent) or exc.fault == "rejected"
            if exc.fault == "rejected":
                pool.breaker.release()
            else:
                pool.breaker.failure()
                logger.warning("upstream fault on %s: %s", pool.name, exc.message)
            return exc

        return pool, emit, done

    def _call(self, pool: Pool, request: BackendRequest, on_text: OnText | None,
              ) -> BackendResult:
        stream = _streams(request, on_text)
        path, body = request_body(request, pool.cfg.model, stream=stream,
                                  token_ids=pool.cfg.token_ids)
        deadline = time.perf_counter() + pool.cfg.total_timeout_s
        started = time.perf_counter()
        answer, ttft = Answer.for_request(request.max_new_tokens), 0.0
        # The whole exchange (connect, request, status line and headers, body) ends by the
        # deadline: httpx's timeouts are per operation, so an upstream dripping header bytes
        # slower than the read timeout would otherwise hold this thread for ever.
        token = _DEADLINE.set(deadline)
        try:
            with pool.client.stream("POST", path, json=body) as resp:
                self._check_status(pool, resp)
                if not stream:
                    data = _loads(_read_sync(resp, _body_cap(request), deadline))
                    answer.add(data, delta=False)
                    ttft = time.perf_counter() - started
                else:
                    for data in sse_events(_lines_sync(resp, _body_cap(request), deadline)):
                        delta, rows = answer.add(data, delta=True)
                        if (delta or rows) and not ttft:
                            ttft = time.perf_counter() - started
                        if (delta or rows) and on_text is not None:
                            on_text(delta, rows)
        except (httpx.HTTPError, WireError) as exc:
            raise _fault(exc, pool, on_text is not None and bool(answer.text)) from None
        finally:
            _DEADLINE.reset(token)
        return self._finish(pool, answer, request, started, ttft)

    async def _acall(self, pool: Pool, request: BackendRequest, on_text: OnText | None,
                     ) -> BackendResult:
        """`_call` over the pool's aiohttp session (same body, parsing and faults)."""
        stream = _streams(request, on_text)
        path, body = request_body(request, pool.cfg.model, stream=stream,
                                  token_ids=pool.cfg.token_ids)
        session = pool.async_client()
        url = pool.cfg.url.rstrip("/") + path
        started = time.perf_counter()
        answer, ttft = Answer.for_request(request.max_new_tokens), 0.0
        try:
            async with asyncio.timeout(pool.cfg.total_timeout_s):
                # No redirects: a pool's answer comes from the pool (a 3xx is a fault, not an
                # invitation to POST the prompt to another host, e.g. a metadata address).
                async with session.post(url, json=body, allow_redirects=False) as resp:
                    await self._acheck_status(pool, resp)
                    if not stream:
                        data = _loads(await _read(resp, _body_cap(request)))
                        answer.add(data, delta=False)
                        ttft = time.perf_counter() - started
                    else:
                        events = SSEFeed()
                        async for line in _lines(resp, _body_cap(request)):
                            for data in events.feed(line):
                                delta, rows = answer.add(data, delta=True)
                                if (delta or rows) and not ttft:
                                    ttft = time.perf_counter() - started
                                if (delta or rows) and on_text is not None:
                                    on_text(delta, rows)
                            if events.done:  # data: [DONE]: the answer is whole, stop reading
                                break
                        events.end()
        except (aiohttp.ClientError, WireError) as exc:  # before TimeoutError: some are both
            raise _afault(exc, pool, on_text is not None and bool(answer.text)) from None
        except TimeoutError:
            raise UpstreamError("timeout", pool.label, "total_timeout_s passed") from None
        return self._finish(pool, answer, request, started, ttft)

    def _finish(self, pool: Pool, answer: Answer, request: BackendRequest, started: float,
                ttft: float) -> BackendResult:
        if answer.finish_reason is None:
            raise UpstreamError("truncated", pool.label, "the answer has no finish_reason")
        if answer.finish_reason == "tool_calls" and request.messages is None:
            raise UpstreamError("malformed", pool.label, "a completion (not a chat) answered "
                                "with finish_reason tool_calls")
        total = time.perf_counter() - started
        return self._result(pool, answer, request, total, ttft)

    @staticmethod
    async def _acheck_status(pool: Pool, resp: aiohttp.ClientResponse) -> None:
        if resp.status < 300:
            return
        raw = await _read(resp, _ERROR_CAP, cut=True)
        try:
            err = json.loads(raw).get("error")
            message = err.get("message") if isinstance(err, dict) else str(err)
        except (ValueError, AttributeError, RecursionError):
            _raise_status(pool, resp.status, raw[:200].decode("utf-8", "replace"), shown=False)
        _raise_status(pool, resp.status, message)

    @staticmethod
    def _check_status(pool: Pool, resp: httpx.Response) -> None:
        if resp.status_code < 300:
            return
        raw = _read_sync(resp, _ERROR_CAP, time.perf_counter() + pool.cfg.read_timeout_s,
                         cut=True)
        try:
            err = json.loads(raw).get("error")
            message = err.get("message") if isinstance(err, dict) else str(err)
        except (ValueError, AttributeError, RecursionError):
            _raise_status(pool, resp.status_code, raw[:200].decode("utf-8", "replace"),
                          shown=False)
        _raise_status(pool, resp.status_code, message)

    def _result(self, pool: Pool, answer: Answer, request: BackendRequest, total: float,
                ttft: float) -> BackendResult:
        text = "".join(answer.text)
        stats: dict[str, Any] = {
            "upstream_pool": "speculative" if request.speculative else "target_only",
            "upstream_model": pool.cfg.model, "upstream_url": pool.cfg.url,  # url: audit only
            "upstream_id": answer.upstream_id,
            "upstream_finish_reason": answer.finish_reason,
            "upstream_usage": answer.usage, "upstream_logprobs": bool(answer.trace)}
        if answer.tool_calls:  # answered in the message (guardian.api.chat), audited here
            stats["tool_calls"] = answer.tool_calls
        if answer.model is not None and answer.model != pool.cfg.model:
            stats["upstream_answer_model"] = answer.model  # what the upstream says answered
        if answer.timings is not None:
            stats["upstream_timings"] = answer.timings
        counters = SpecCounters()
        # The request's own counters: a per-request stats object (a guardian pool's, vLLM /
        # SGLang extensions) first, else llama.cpp's timings. What neither says is listed in
        # `unreported` (its ratios are None, never 0: guardian.serving.core.stats_dict).
        spec = answer.spec if answer.spec is not None else timings_spec(answer.timings)
        reported: set[str] = set()
        if spec is not None:
            stats["upstream_spec"] = spec
            counters = SpecCounters.from_stats(spec)
            for key in ("proposed_tokens", "judged_tokens", "accepted", "steps"):
                if key in spec:
                    stats[key] = spec[key]
                    reported.add(key)
            if "draft_tokens" in spec:  # the legacy name counts judged (and proposed) positions
                reported |= {"proposed_tokens", "judged_tokens"}
        stats["unreported"] = [k for k in _COUNTERS if k not in reported]
        t = answer.timings or {}
        if "predicted_n" in t:
            # llama.cpp: the prompt's forward gives the first token and every later forward
            # one token more than it accepts, so its forwards are tokens - accepted drafts
            # (the dashboard's M4; with no `draft_n` it did not draft: one per token).
            stats["target_forwards"] = max(1, int(t["predicted_n"])
                                           - int(t.get("draft_n_accepted", 0)))
        prompt_n = (answer.usage or {}).get("prompt_tokens")
        if prompt_n is None and answer.timings is not None and "prompt_n" in answer.timings:
            prompt_n = int(answer.timings["prompt_n"] + answer.timings.get("cache_n", 0))
        stats["prompt_tokens"] = prompt_n  # None: the pool did not say
        stats["completion_tokens"] = len(answer.trace)
        ids = [t.token_id for t in answer.trace]
        timings = _latency(answer, total, ttft, len(ids), stats)
        return BackendResult(
            prompt_token_ids=list(request.prompt_ids), token_ids=ids, text=text,
            finish_reason=FINISH_REASONS[answer.finish_reason or "stop"],  # type: ignore[arg-type]
            trace=list(answer.trace), speculative=request.speculative, counters=counters,
            timings=timings, stats=stats)

    # shadow evidence: not from an upstream ---------------------------------------------------
    def generate_with_evidence(self, request: BackendRequest, on_text: OnText | None = None,
                               ) -> tuple[BackendResult, Distributions]:
        raise Unsupported("an upstream pool returns no full distributions (full_distributions)")

    def score_target(self, prompt_ids: list[int], completion_ids: list[int],
                     sampling: Sampling) -> TokenScores:
        raise Unsupported("an upstream pool cannot score a given completion (scores_completions)")

    def target_distributions(self, prompt_ids: list[int], completion_ids: list[int],
                             sampling: Sampling) -> Distributions:
        raise Unsupported("an upstream pool returns no full distributions (full_distributions)")

    def draft_distributions(self, prompt_ids: list[int], completion_ids: list[int],
                            sampling: Sampling) -> Distributions | None:
        raise Unsupported("an upstream pool returns no full distributions (full_distributions)")


_COUNTERS = ("proposed_tokens", "judged_tokens", "accepted", "steps")

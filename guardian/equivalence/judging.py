"""Judging one shadow job: the served and the shadow run (or a mirrored primary) -> a verdict.

Owns `ShadowJob` (what is judged), `Preempted` (raised when serving work arrives mid-run) and
`ShadowJudging`, the half of `guardian.equivalence.shadow.ShadowEvaluator` that turns engine
outputs into a `VerdictResult` (queueing, workers and the audit event stay in `shadow`; the
verdict checks themselves are pure and live in `guardian.equivalence.verdicts`).

Evidence (decisions, not accidents): the evaluator judges with what the backend's
capabilities allow and records the rest under `stats["unchecked"]`. Greedy needs token ids
and the traces' evidence (top-2 ids and logits, log-probs) to prove a near tie
(`guardian.equivalence.verdicts.judge_greedy`). Every judged completion's stopping is checked
(`stopping_verdict`). Sampled decoding always gets the per-token checks from the trace and the
acceptance expectation the engine recorded (never a re-scored q); with full distributions
also the verifier-vs-target-only TV check and the per-origin PIT goodness-of-fit
(`PitWindow`, per route and pair). A clean draft re-score is used only to tell a drafter
inconsistent with itself (|Δq| above the route's `drafter_tolerance`), a speed anomaly
(`details.speed_anomalies`, never a correctness verdict). Both tolerances (TV:
`distribution_tolerance`) default to fp32 noise; a bf16 route sets them from
`guardian bench tolerance`. Mirror traffic needs `scores_completions`.
"""

from __future__ import annotations

import logging
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from opentelemetry import trace

from guardian.audit.events import ShadowEvent
from guardian.backends import BackendResult, Unsupported
from guardian.core.enums import DecodePath
from guardian.equivalence.batchshadow import batch_record
from guardian.equivalence.quota import StoppingQuota
from guardian.equivalence.verdicts import (
    MIN_WINDOW_FOR_ACCEPTANCE_TEST,
    PIT_ALPHA,
    PIT_MIN_SAMPLE,
    AcceptanceWindow,
    PathOutput,
    PitWindow,
    VerdictResult,
    judge_external_greedy,
    judge_greedy,
    recorded_observations,
    reported_probability_verdict,
    sampled_trace_verdict,
    sampled_verdict,
    seed_replay_verdict,
    speed_anomalies,
    stopping_verdict,
    structure_verdict,
    support_verdict,
)
from guardian.observability.telemetry import Telemetry
from guardian.policy import RoutePolicy
from guardian.serving.core import GenerationRequest, Served, ServingCore, stats_dict

logger = logging.getLogger("guardian.equivalence.shadow")

# Greedy verdicts the near-tie rate gauge is taken over, per route and pair.
NEAR_TIE_RATE_WINDOW = 500


def _with(result: VerdictResult, details: dict[str, Any]) -> VerdictResult:
    """`result` with `details` underneath its own (its failed check and position win)."""
    return VerdictResult(result.verdict, result.first_divergence_position,
                         result.margin_at_divergence, {**details, **result.details})


def _acceptance_off(window: AcceptanceWindow, z: float) -> str | None:
    """Sampled acceptances more than `z` standard deviations above or below Σ min(p, q) from
    the q the proposer recorded: the acceptance rule does not accept with min(1, p/q) for
    that q, so the output distribution is not p. (With the recorded q a merely worse drafter
    lowers Σ min(p, q) itself, not acceptance relative to it: a drafter that disagrees with a
    clean re-score is the speed-only `drafter_inconsistent`.)"""
    if len(window) < MIN_WINDOW_FOR_ACCEPTANCE_TEST:
        return None
    value = window.summary()["acceptance_z"]
    if value is None:
        return None
    return "above" if value > z else "below" if value < -z else None


def _speed(result: VerdictResult, anomalies: dict[str, Any], evaluator: ShadowJudging,
           job: ShadowJob) -> VerdictResult:
    """Attach speed-only anomalies (never a correctness verdict) and count them."""
    result.details["speed_anomalies"] = sorted(anomalies)
    if anomalies:
        result.details["speed_anomaly_details"] = anomalies
        counter = getattr(evaluator.telemetry, "speed_anomalies", None)
        for name in anomalies:
            if counter is not None:
                counter.add(1, {**evaluator._labels(job), "anomaly": name})
        logger.info("speed anomaly on route %s (%s): %s", job.request.route,
                    job.request.request_id, ", ".join(sorted(anomalies)))
    return result


class Preempted(Exception):
    """Raised inside a shadow engine call when serving work arrives."""


@dataclass(slots=True)
class ShadowJob:
    request: GenerationRequest
    route: RoutePolicy
    policy_hash: str
    mode: str
    served: Served | None = None  # served here
    external_ids: list[int] | None = None  # primary completion produced elsewhere (/v1/shadow)
    external_finish_reason: str | None = None  # the primary's own finish reason, if given
    external_text: str | None = None  # the primary's completion text as the mirror sent it
    external_max_tokens: int | None = None  # the mirrored request's max_tokens (None: unset)
    parent: trace.SpanContext | None = None
    attempts: int = 0
    done: Future[ShadowEvent | None] = field(default_factory=Future)


class ShadowJudging:
    """Judging for `ShadowEvaluator` (its state: the backend, core, telemetry, the windows
    per route and pair, the stopping quota; its `_labels` and `_preempt`)."""

    core: ServingCore
    backend: Any
    telemetry: Telemetry
    quota: StoppingQuota
    _windows: dict[tuple[str, str], AcceptanceWindow]
    _pit: dict[tuple[str, str], PitWindow]
    _greedy_recent: dict[tuple[str, str], deque[bool]]

    def _judge_served(self, job: ShadowJob, preemptible: bool,
                      rerun: tuple[Any, int, int] | None = None,
                      ) -> tuple[VerdictResult, DecodePath, list, dict]:
        assert job.served is not None
        req, served, route = job.request, job.served, job.route
        caps = self.backend.capabilities
        shadow_spec = served.served_path == "target_only"
        if shadow_spec and not caps.supports(route.proposer):
            raise Unsupported(f"the {self.backend.kind!r} backend cannot speculate with "
                              f"{route.proposer!r}; there is no speculative path to compare")
        cap = min(req.max_tokens, route.shadow.max_new_tokens)
        want_evidence = shadow_spec and not req.greedy and caps.full_distributions
        together, mates = 1, 0
        if rerun is not None:  # decoded already, in a shared batch (BatchedReruns)
            outcome, together, mates = rerun
            if isinstance(outcome, BaseException):
                raise outcome
            shadow, shadow_evidence = outcome
        else:
            shadow, shadow_evidence = self.core.run_backend(
                req, route, shadow_spec, self._preempt(preemptible),
                max_new_tokens=cap, evidence=want_evidence)
        spec, ref = (shadow, served.result) if shadow_spec else (served.result, shadow)
        verifier = shadow_evidence if shadow_spec else served.evidence
        stats: dict[str, Any] = {"shadow_stats": stats_dict(shadow), "compared_cap": cap,
                                 # what the audit row's acceptance columns come from
                                 **spec.counters.as_dict(),
                                 # the batch the judged speculative run decoded in
                                 "batch": batch_record(spec, self.backend,
                                                       judged_together=together,
                                                       companions=mates)}
        case = self.quota.case_of(spec, req)
        stats["stopping_case"] = case
        stats["decoding"] = "greedy" if req.greedy else "sampled"
        self.quota.judged(req.route, req.greedy, case)
        if not served.shadow_sampled:
            stats["sampled_for"] = "stopping_quota"
        path: DecodePath = "speculative" if shadow_spec else "target_only"
        # Both paths were cut at the cap (the served one may have gone on): their lengths
        # and finish reasons say nothing, only the tokens up to the cap are compared.
        truncated = cap < req.max_tokens and min(len(served.result.token_ids),
                                                 len(shadow.token_ids)) >= cap
        stopping = self._stopping(req, served, shadow, cap)
        if req.greedy:
            result = judge_greedy(
                PathOutput(spec.token_ids[:cap], spec.trace[:cap], spec.finish_reason, truncated),
                PathOutput(ref.token_ids[:cap], ref.trace[:cap], ref.finish_reason, truncated),
                route.near_tie_tolerance)
            if stopping is not None and result.verdict != "divergence":
                result = _with(stopping, result.details)
            # same tokens: the same tool calls, JSON and text too
            result = structure_verdict(result, served.result, shadow, truncated=truncated)
            self._near_tie_rate(job, result.verdict)
            anomalies = speed_anomalies(spec.trace[:cap], greedy=True,
                                        rescored_q=self._rescored_q(job, spec, cap),
                                        drafter_tolerance=route.drafter_tolerance)
            return _speed(result, anomalies, self, job), path, list(shadow.trace), stats
        ids = spec.token_ids[:cap]
        if verifier is None and caps.full_distributions and served.shadow_sampled:
            raise RuntimeError("speculative run did not record target distributions")
        trace_result = sampled_trace_verdict(spec.trace[: len(ids)])
        window = self._window_update(job, spec, ids)
        anomalies = speed_anomalies(spec.trace[: len(ids)], greedy=False,
                                    rescored_q=self._rescored_q(job, spec, cap),
                                    drafter_tolerance=route.drafter_tolerance)
        if verifier is None:
            # No full distributions from this backend: judge what the trace shows and say
            # which checks could not run.
            result = stopping or trace_result
            unchecked = ["verifier_distribution", "goodness_of_fit"]
            if window is None:
                unchecked.append("acceptance_vs_expectation")
            if not spec.trace:
                unchecked.append("trace_support")
            result.details["unchecked"] = unchecked
            result = self._seed_replay(job, result, cap, preemptible)
            return _speed(result, anomalies, self, job), path, list(shadow.trace), stats
        verifier_p = verifier.head(len(ids))
        reference = self.backend.target_distributions(req.prompt_ids, ids, req.sampling)
        ref_p = reference.head(len(ids)).probs
        tv = sampled_verdict(verifier_p.probs, ref_p, route.distribution_tolerance, None)
        shown = reported_probability_verdict(spec.trace[: len(ids)], ids, ref_p,
                                             route.distribution_tolerance)
        pit = self._pit_update(job, spec, ids, ref_p, verifier_p.draft_probs)
        details = {**tv.details, **trace_result.details, "goodness_of_fit": pit,
                   "pit_alpha": PIT_ALPHA, "pit_min_sample": PIT_MIN_SAMPLE}
        if window is not None:
            details.update(window.summary())
            details["acceptance_test"] = ("decisive" if len(window) >= MIN_WINDOW_FOR_ACCEPTANCE_TEST
                                          else "window_too_small")
            details["acceptance_expectation"] = "recorded_q"
        failed_fit = next((o for o, r in pit.items() if r["outcome"] == "fail"), None)
        off = None if window is None else _acceptance_off(window, route.acceptance_z)
        if stopping is not None:
            result = _with(stopping, details)
        elif trace_result.verdict == "distribution_mismatch":
            result = _with(trace_result, details)
        elif tv.verdict == "distribution_mismatch":
            result = VerdictResult("distribution_mismatch", tv.first_divergence_position, None,
                                   {**details, "failed_check": "verifier_distribution"})
        elif shown is not None:  # the verifier's p is right, what the client is shown is not
            result = VerdictResult("distribution_mismatch", shown[0], None,
                                   {**details, "failed_check": "reported_logprob",
                                    "reported_probability": shown[1],
                                    "rescored_probability": shown[2]})
        elif failed_fit is not None:
            result = VerdictResult("distribution_mismatch", None, None,
                                   {**details, "failed_check": f"pit_{failed_fit}"})
        elif off is not None:
            result = VerdictResult("distribution_mismatch", None, None,
                                   {**details, "failed_check": f"acceptance_{off}_expectation"})
        else:
            result = VerdictResult("distribution_ok", None, None, details)
        result = self._seed_replay(job, result, cap, preemptible)
        return _speed(result, anomalies, self, job), path, list(shadow.trace), stats

    def _seed_replay(self, job: ShadowJob, result: VerdictResult, cap: int,
                     preemptible: bool) -> VerdictResult:
        """A sampled request with a seed, run again with it on the path that served it: the
        tokens must repeat (`seed_replay_verdict`). No distribution check can see a seed that
        is ignored - every draw is still from p - so this is the one that does. Runs only on a
        request the other checks passed, where the backend promises reproducible seeds
        (`Capabilities.reproducible_seeds`; else listed as unchecked) and the route keeps
        `shadow.seed_replay` on. The replay stops at the shadow cap: a speculative run's last
        depths shrink to the room left, so when the cap cut the served run short only the
        tokens before the cap's last step (cap - gamma.max - 1) are compared."""
        req, served, route = job.request, job.served, job.route
        if req.greedy or req.seed is None or served is None or not route.shadow.seed_replay:
            return result
        if not self.backend.capabilities.reproducible_seeds:
            result.details["unchecked"] = [*result.details.get("unchecked", []), "seed_replay"]
            return result
        if result.verdict in ("divergence", "distribution_mismatch"):
            return result
        speculative = served.served_path == "speculative"
        compared = cap
        if cap < req.max_tokens and speculative:
            compared = max(0, cap - route.gamma.max - 1)
        replay, _ = self.core.run_backend(req, route, speculative, self._preempt(preemptible),
                                          max_new_tokens=cap, evidence=False)
        result.details["seed_replay"] = {"compared_tokens": compared,
                                         "path": served.served_path}
        bad = seed_replay_verdict(served.result.token_ids, replay.token_ids, compared)
        return result if bad is None else _with(bad, result.details)

    def _stopping(self, req: GenerationRequest, served: Served, shadow: BackendResult,
                  cap: int) -> VerdictResult | None:
        """How each judged completion ended, checked on its own (EOS last, stop strings,
        max_tokens): the first violation as a verdict, or None."""
        eos = self.backend.eos_token_ids
        for name, res, limit in ((served.served_path, served.result, req.max_tokens),
                                 ("shadow", shadow, cap)):
            bad = stopping_verdict(res.token_ids, res.finish_reason, eos_token_ids=eos,
                                   stop=req.stop, max_tokens=limit, decode=self.backend.decode,
                                   greedy=req.greedy, path=name)
            if bad is not None:
                return bad
        return None

    def _rescored_q(self, job: ShadowJob, spec: BackendResult, cap: int) -> list[float] | None:
        """q(proposed token) at each position from a clean draft re-score: only to tell a
        drafter inconsistent with itself (a speed anomaly), never for an expectation."""
        req = job.request
        if job.route.proposer != "draft_model" or not self.backend.capabilities.full_distributions:
            return None
        trace = spec.trace[:cap]
        if not any(getattr(t, "proposed_q", None) is not None for t in trace):
            return None
        ids = spec.token_ids[:cap]
        q = self.backend.draft_distributions(req.prompt_ids, ids, req.sampling)
        if q is None:
            return None
        out = [0.0] * len(ids)
        for t in trace:
            if getattr(t, "proposed_token", None) is not None and t.position < len(q):
                out[t.position] = float(q.probs[t.position][t.proposed_token])
        return out

    def _window_update(self, job: ShadowJob, spec: BackendResult, ids: list[int],
                       ) -> AcceptanceWindow | None:
        """The route's acceptance window, extended with this run's judged proposals and the
        expectation the engine recorded for each (Σ min(p, q) with the q it sampled from;
        n-gram: p of the proposal) — never a re-scored q."""
        req = job.request
        observations = recorded_observations(spec.trace[: len(ids)])
        if not observations:
            return None
        key = (req.route, self.backend.pair_hash)
        window = self._windows.setdefault(key, AcceptanceWindow(job.route.acceptance_window))
        window.extend(observations)
        return window

    def _pit_update(self, job: ShadowJob, spec: BackendResult, ids: list[int], ref_p: Any,
                    recorded_q: Any) -> dict[str, dict[str, Any]]:
        key = (job.request.route, self.backend.pair_hash)
        window = self._pit.setdefault(key, PitWindow())
        trace = spec.trace[: len(ids)]
        window.add([t.origin for t in trace], ids, ref_p, recorded_q,
                   [getattr(t, "proposed_token", None) for t in trace])
        return window.evaluate()

    def _near_tie_rate(self, job: ShadowJob, verdict: str) -> None:
        key = (job.request.route, self.backend.pair_hash)
        recent = self._greedy_recent.setdefault(key, deque(maxlen=NEAR_TIE_RATE_WINDOW))
        recent.append(verdict == "near_tie")
        gauge = getattr(self.telemetry, "near_tie_rate", None)
        if gauge is not None:
            gauge.set(sum(recent) / len(recent), self._labels(job))

    def _judge_external(self, job: ShadowJob, preemptible: bool = True,
                        ) -> tuple[VerdictResult, DecodePath, list, dict]:
        """A primary response produced elsewhere, judged against the target at its prefixes.

        greedy: every primary token must be the target's argmax at its prefix; a flip is a
        near_tie only when the primary's token is the target's runner-up within the tolerance
        (one-sided proof: the primary's logits are unknown). sampled: every primary token must
        have non-zero probability under the target's processed distribution. Both: how the
        completion ended (EOS last, stop strings, max_tokens).
        """
        req, ids = job.request, job.external_ids or []
        if not self.backend.capabilities.scores_completions:
            raise Unsupported(f"the {self.backend.kind!r} backend cannot score a completion "
                              "it did not produce; mirror traffic cannot be judged")
        score = self.backend.score_target(req.prompt_ids, ids, req.sampling)
        # `principal`: the mirror key that supplied the response (rollback evidence names it)
        stats: dict[str, Any] = {"external": True, "principal": req.principal,
                                 "completion_tokens": len(ids)}
        if req.greedy:
            result = judge_external_greedy(ids, score.argmax_ids, score.margins,
                                           getattr(score, "runner_up_ids", None),
                                           job.route.near_tie_tolerance)
            if score.margins is None:
                result.details["unchecked"] = ["near_tie_margin"]
            if result.verdict == "divergence":
                result = self._retokenized(job, ids, result, preemptible)
            stopping = None if result.verdict == "divergence" else \
                self._external_stopping(job, ids, preemptible)
            if stopping is not None:
                result = _with(stopping, result.details)
            return result, "target_only", [], stats
        stopping = self._external_stopping(job, ids, preemptible)
        stats["check"] = "support"
        if stopping is not None and stopping.details.get("unconfirmed_ending"):
            # A sample cannot be re-drawn: an ending its text does not show is not checked.
            stats["unchecked"] = ["stopping_cause"]
            stopping = None
        if score.token_probs is None:
            stats["unchecked"] = [*stats.get("unchecked", []), "support"]
            return VerdictResult("distribution_ok", None, None, stats), "target_only", [], stats
        result = support_verdict(score.token_probs)
        if stopping is not None and result.verdict != "distribution_mismatch":
            return _with(stopping, stats), "target_only", [], stats
        return (VerdictResult(result.verdict, result.first_divergence_position, None, stats),
                "target_only", [], stats)

    def _external_stopping(self, job: ShadowJob, ids: list[int], preemptible: bool = True,
                           ) -> VerdictResult | None:
        """How the primary ended, as a verdict (None: correctly).

        The primary's text is an OpenAI-compatible answer: it never holds the EOS that ended
        it, and is cut *before* the stop string that did, so its text alone cannot show why a
        `stop` completion stopped (nor, re-encoded, exactly how many tokens it had). Those
        endings are confirmed against the target's own greedy completion of the request (same
        stop strings, the request's max_tokens): it must end the same way with the same text.
        Unconfirmed endings carry `details["unconfirmed_ending"]` (sampled: unchecked)."""
        req, finish, limit = job.request, job.external_finish_reason, job.external_max_tokens
        eos = self.backend.eos_token_ids
        bad = stopping_verdict(ids, finish, eos_token_ids=eos, stop=req.stop, max_tokens=limit,
                               decode=self.backend.decode, greedy=req.greedy, path="external")
        check = None if bad is None else bad.details.get("failed_check")
        unseen = (check in ("stop_without_cause", "max_tokens")
                  or (bad is None and finish == "stop" and not ids)
                  or (bad is None and finish == "length" and limit is not None
                      and len(ids) < limit))
        if not unseen:
            return bad
        bad = bad or VerdictResult(
            "divergence" if req.greedy else "distribution_mismatch", len(ids), None,
            {"failed_check": "stop_without_cause" if finish == "stop" else "max_tokens",
             "path": "external", "checks": ["stopping"], "finish_reason": finish,
             "completion_tokens": len(ids)})
        if not req.greedy:
            if check != "max_tokens":  # re-encoded past the limit stays a mismatch
                bad.details["unconfirmed_ending"] = True
            return bad
        text = job.external_text if job.external_text is not None else self.backend.decode(ids)
        stops = [s for s in (req.stop or ()) if s]
        slack = len(ids) + 8 + max((len(self.backend.encode(s, prompt=False)) for s in stops),
                                   default=0)
        # A `length` answer may also have met the end of the context (as vLLM answers it).
        n = limit if finish == "length" and limit is not None else min(slack, limit or slack)
        n = min(n, self.backend.max_context - len(req.prompt_ids))
        if n < 1:
            return bad
        own, _ = self.core.run_backend(req, job.route, False, self._preempt(preemptible),
                                       max_new_tokens=n)
        if own.text == text and (finish is None or own.finish_reason == finish):
            return None
        bad.details.update({"target_finish_reason": own.finish_reason,
                            "target_completion_tokens": len(own.token_ids)})
        return bad

    def _retokenized(self, job: ShadowJob, ids: list[int], result: VerdictResult,
                     preemptible: bool = True) -> VerdictResult:
        """A mirrored primary's text is re-encoded here, and the same text can split into
        other tokens than the target would emit one at a time. Before calling a token flip a
        divergence, compare text: the target's own greedy continuation (target-only, a few
        tokens longer) must start with the primary's text; then the flip was tokenization,
        and the verdict is `match` (`compared: text`)."""
        req = job.request
        primary = self.backend.decode(ids)
        room = self.backend.max_context - len(req.prompt_ids) - 1
        if not primary or room < 1:
            return result
        own, _ = self.core.run_backend(req, job.route, False, self._preempt(preemptible),
                                       max_new_tokens=min(room, len(ids) + 8))
        if own.text.startswith(primary) or self.backend.decode(own.token_ids).startswith(primary):
            return VerdictResult("match", None, None, {
                **result.details, "compared": "text", "retokenized": True,
                "token_flip_at": result.first_divergence_position})
        return result


"""Drift triggers (one section, two distributions): accepted draft tokens per step, and
emitted token ids, each against the window's frozen reference.

Default statistic (`triggers.drift.statistic: requests`, issue 11): the largest per-bin
Welch z of per-request outcome shares, Bonferroni-corrected (`request_drift`; it and
policy/triggers.py state the binning and the false-alarm rate). The measurement is named
after what decides it (`token_drift_p`, `accepted_length_drift_p`: the corrected p-value of
the max |z|) and its value is that p-value, so the rollback log line (`name=value vs
threshold`) names what failed and by how much; details carry max_abs_z and the bin. `js_psi` keeps the
earlier token-level JS/PSI rule for comparison.

A pass reads the current side from the window's running sums (`window_drift`,
guardian.governance.runningsums): the requests that entered and left since the last pass, not
the whole window, which cost a full window's pass ~12 ms of the serving process's CPU.
"""

from __future__ import annotations

import math
import zlib
from collections import Counter
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from guardian.governance.runningsums import Sums
from guardian.governance.stats import Measurement, drift_measurement
from guardian.governance.windows import RouteWindow, SpecSample
from guardian.policy import DriftTrigger

if TYPE_CHECKING:
    import numpy as np


def bin_of(key: Hashable, bins: int, binning: str) -> int:
    """The bin of an outcome, fixed in advance (never learned from the reference: bins fitted
    to the reference make every outcome it happened to miss look like drift — with a
    ~2,000-token vocabulary that alone fails every evaluation).

    `value`: small integers (accepted draft tokens per step) are their own bin, the last bin
    holding `bins - 1` and more. `hash`: token ids spread over `bins` bins by a fixed
    multiplicative hash (Knuth), so frequent tokens land in different bins.
    """
    if binning == "value" and isinstance(key, int):
        return min(max(key, 0), bins - 1)
    if isinstance(key, int):
        return ((key * 2654435761) & 0xFFFFFFFF) * bins >> 32
    return zlib.crc32(repr(key).encode()) % bins


Shares = tuple["np.ndarray", int]  # (outcome share per bin, outcomes counted) of one request


def shares(h: Counter, bins: int, binning: str) -> Shares:
    """One request's outcome shares over the fixed bins, and its number of outcomes."""
    import numpy as np

    n = sum(h.values())
    row = np.zeros(bins)
    for key, c in h.items():
        row[bin_of(key, bins, binning)] += c / n
    return row, n


def sample_shares(sample: SpecSample, kind: str, bins: int, binning: str) -> Shares:
    """`shares` of a window sample's tokens (`kind` "tokens") or accepted lengths, computed
    once per sample: the rollback controller evaluates the same window many times."""
    key = (kind, bins, binning)
    got = sample.memo.get(key)
    if got is None:
        h = Counter(sample.token_ids) if kind == "tokens" else sample.accepted_lengths
        got = sample.memo[key] = shares(h, bins, binning)
    return got


def request_drift(name: str, reference: Sequence[Counter], current: Sequence[Counter], *,
                  bins: int, alpha: float, reference_requests: int, min_requests: int,
                  binning: str = "hash") -> Measurement:
    """`request_drift_shares` of per-request outcome counts."""
    return request_drift_shares(
        name, [shares(h, bins, binning) for h in reference if sum(h.values())],
        [shares(h, bins, binning) for h in current if sum(h.values())], bins=bins,
        alpha=alpha, reference_requests=reference_requests, min_requests=min_requests,
        binning=binning)


def request_drift_shares(name: str, reference: Sequence[Shares], current: Sequence[Shares], *,
                         bins: int, alpha: float, reference_requests: int, min_requests: int,
                         binning: str = "hash") -> Measurement:
    """`request_drift_sums` of per-request share vectors."""
    return request_drift_sums(name, Sums.of(reference, bins), Sums.of(current, bins),
                              bins=bins, alpha=alpha, reference_requests=reference_requests,
                              min_requests=min_requests, binning=binning)


def request_drift_sums(name: str, reference: Sums, current: Sums, *, bins: int, alpha: float,
                       reference_requests: int, min_requests: int,
                       binning: str = "hash") -> Measurement:
    """Per-bin shift of the mean per-request share, reference vs current requests.

    Each request is one observation: its vector of outcome shares over `bins` fixed bins
    (`bin_of`). Per bin, Welch's z compares the two sides' mean shares with their own
    between-request variances (floored at the binomial variance of the request's token
    count, so a bin the reference never used cannot divide by zero); the statistic is the
    largest |z| and its p-value is Bonferroni-corrected over the bins:
    p = min(1, bins * 2 * Φ(-max |z|)). Requests, not tokens, are the unit, so the strong
    correlation of tokens within a request does not inflate the evidence; with exchangeable
    requests one evaluation fails with probability about `alpha` (at most, up to the normal
    approximation of a mean of >= `min_requests` requests). Fails when p < alpha.
    Requests with no outcome are left out (`Sums` counts only the others).
    """
    import numpy as np

    details: dict[str, Any] = {"statistic": "max_welch_z_bonferroni", "unit": "request",
                               "binning": binning, "reference_requests": reference.count,
                               "alpha": alpha}
    if (reference.count < reference_requests or current.count < min_requests
            or min(reference.count, current.count) < 2):
        return Measurement(name, "inconclusive", None, alpha, current.count, min_requests,
                           {**details, "reference_needed": reference_requests})
    (mean_r, var_r), (mean_c, var_c) = reference.moments(), current.moments()
    n_r, n_c = reference.count, current.count
    m_r, m_c = reference.outcomes / n_r, current.outcomes / n_c
    pooled = (mean_r * n_r + mean_c * n_c) / (n_r + n_c)
    binom = pooled * (1.0 - pooled)
    se = np.sqrt(np.maximum(var_r, binom / m_r) / n_r + np.maximum(var_c, binom / m_c) / n_c)
    zs = np.divide(mean_c - mean_r, se, out=np.zeros(bins), where=se > 0)
    worst = int(np.argmax(np.abs(zs)))
    # 2 * Φ(-|z|) = erfc(|z| / √2): the standard normal's two-sided tail, exact, without
    # SciPy (not a runtime dependency; importing it held a serving process's GIL ~1 s).
    p = min(1.0, bins * math.erfc(abs(float(zs[worst])) / math.sqrt(2.0)))
    details.update({"max_abs_z": float(abs(zs[worst])), "bin": worst, "p_value": p,
                    "bins": bins, "current_requests": n_c,
                    "reference_share": mean_r.tolist(), "current_share": mean_c.tolist()})
    return Measurement(name, "fail" if p < alpha else "pass", p, alpha, n_c,
                       min_requests, details)


def window_drift(name: str, window: RouteWindow, section: DriftTrigger, kind: str,
                 binning: str) -> Measurement:
    """`request_drift_sums` of a window: its frozen reference's sums (computed once per
    reference) against the running sums of the requests after it (O(requests that entered
    or left the window since the last pass), not O(window))."""
    bins = section.bins
    reference, cutoff = window.drift_reference(section.reference_requests)

    def row_of(sample: SpecSample) -> Shares:
        return sample_shares(sample, kind, bins, binning)

    key = ("sums", kind, bins, binning, len(reference))
    ref_sums = reference[0].memo.get(key) if reference else None
    if ref_sums is None:
        ref_sums = Sums.of((row_of(s) for s in reference), bins)
        if reference:
            reference[0].memo[key] = ref_sums
    current = window.running_sums((kind, bins, binning), row_of, bins).read(window.spec, cutoff)
    return request_drift_sums(name, ref_sums, current, bins=bins, alpha=section.alpha,
                              reference_requests=section.reference_requests,
                              min_requests=section.min_requests, binning=binning)


def evaluate_accepted_lengths(window: RouteWindow, section: DriftTrigger) -> Measurement:
    if section.statistic == "js_psi":
        return _named(drift_measurement(
            "accepted_length_drift", window.reference_steps, window.current_steps(),
            section.max_js, section.max_psi, section.min_samples, section.reference_size))
    return window_drift("accepted_length_drift_p", window, section, "lengths", "value")


def evaluate_tokens(window: RouteWindow, section: DriftTrigger) -> Measurement:
    if section.statistic == "js_psi":
        return _named(drift_measurement(
            "token_distribution_drift", window.reference_tokens, window.current_tokens(),
            section.max_js, section.max_psi, section.min_samples, section.reference_size))
    return window_drift("token_drift_p", window, section, "tokens", "hash")


def _named(m: Measurement) -> Measurement:
    """js_psi: name the measurement after the statistic that failed, with its value (the
    rollback log line reads `name=value vs threshold`): PSI when PSI failed, else JS."""
    if m.outcome != "fail":
        return m
    js, psi, max_psi = m.details["js_bits"], m.details["psi"], m.details["max_psi"]
    if js > m.threshold:  # type: ignore[operator]
        return Measurement(f"{m.name}_js_bits", m.outcome, js, m.threshold, m.samples,
                           m.min_samples, m.details)
    return Measurement(f"{m.name}_psi", m.outcome, psi, max_psi, m.samples, m.min_samples,
                       m.details)

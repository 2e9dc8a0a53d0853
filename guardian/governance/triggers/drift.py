"""Drift triggers (one section, two distributions): accepted draft tokens per step, and
emitted token ids, each against the window's frozen reference.

Default statistic (`triggers.drift.statistic: requests`, issue 11): the largest per-bin
Welch z of per-request outcome shares, Bonferroni-corrected (`request_drift`; it and
policy/triggers.py state the binning and the false-alarm rate). The measurement is named
after what decides it (`token_drift_p`, `accepted_length_drift_p`: the corrected p-value of
the max |z|) and its value is that p-value, so the rollback log line (`name=value vs
threshold`) names what failed and by how much; details carry max_abs_z and the bin. `js_psi` keeps the
earlier token-level JS/PSI rule for comparison.
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Hashable, Sequence
from typing import Any

from guardian.governance.stats import Measurement, drift_measurement
from guardian.governance.windows import RouteWindow
from guardian.policy import DriftTrigger


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


def _fractions(h: Counter, bins: int, binning: str) -> list[float]:
    n = sum(h.values())
    row = [0.0] * bins
    for key, c in h.items():
        row[bin_of(key, bins, binning)] += c / n
    return row


def request_drift(name: str, reference: Sequence[Counter], current: Sequence[Counter], *,
                  bins: int, alpha: float, reference_requests: int, min_requests: int,
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
    """
    import math

    from scipy.stats import norm

    ref = [h for h in reference if sum(h.values())]
    cur = [h for h in current if sum(h.values())]
    details: dict[str, Any] = {"statistic": "max_welch_z_bonferroni", "unit": "request",
                               "binning": binning, "reference_requests": len(ref),
                               "alpha": alpha}
    if len(ref) < reference_requests or len(cur) < min_requests:
        return Measurement(name, "inconclusive", None, alpha, len(cur), min_requests,
                           {**details, "reference_needed": reference_requests})
    sides = []
    for hists in (ref, cur):
        rows = [_fractions(h, bins, binning) for h in hists]
        n = len(rows)
        tokens = sum(sum(h.values()) for h in hists) / n
        means = [sum(r[k] for r in rows) / n for k in range(bins)]
        var = [sum((r[k] - means[k]) ** 2 for r in rows) / (n - 1) for k in range(bins)]
        sides.append((n, tokens, means, var))
    (n_r, m_r, mean_r, var_r), (n_c, m_c, mean_c, var_c) = sides
    zs = []
    for k in range(bins):
        pooled = (mean_r[k] * n_r + mean_c[k] * n_c) / (n_r + n_c)
        binom = pooled * (1.0 - pooled)
        se = math.sqrt(max(var_r[k], binom / m_r) / n_r + max(var_c[k], binom / m_c) / n_c)
        zs.append((mean_c[k] - mean_r[k]) / se if se > 0 else 0.0)
    worst = max(range(bins), key=lambda k: abs(zs[k]))
    p = min(1.0, bins * 2.0 * float(norm.sf(abs(zs[worst]))))
    details.update({"max_abs_z": abs(zs[worst]), "bin": worst, "p_value": p, "bins": bins,
                    "current_requests": len(cur), "reference_share": mean_r,
                    "current_share": mean_c})
    return Measurement(name, "fail" if p < alpha else "pass", p, alpha, len(cur),
                       min_requests, details)


def evaluate_accepted_lengths(window: RouteWindow, section: DriftTrigger) -> Measurement:
    if section.statistic == "js_psi":
        return _named(drift_measurement(
            "accepted_length_drift", window.reference_steps, window.current_steps(),
            section.max_js, section.max_psi, section.min_samples, section.reference_size))
    ref, cur = window.drift_samples(section.reference_requests)
    return request_drift("accepted_length_drift_p", [s.accepted_lengths for s in ref],
                      [s.accepted_lengths for s in cur], bins=section.bins, alpha=section.alpha,
                      reference_requests=section.reference_requests,
                      min_requests=section.min_requests, binning="value")


def evaluate_tokens(window: RouteWindow, section: DriftTrigger) -> Measurement:
    if section.statistic == "js_psi":
        return _named(drift_measurement(
            "token_distribution_drift", window.reference_tokens, window.current_tokens(),
            section.max_js, section.max_psi, section.min_samples, section.reference_size))
    ref, cur = window.drift_samples(section.reference_requests)
    return request_drift("token_drift_p", [Counter(s.token_ids) for s in ref],
                      [Counter(s.token_ids) for s in cur], bins=section.bins,
                      alpha=section.alpha, reference_requests=section.reference_requests,
                      min_requests=section.min_requests)


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

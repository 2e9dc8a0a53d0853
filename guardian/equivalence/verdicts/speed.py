"""Speed-only findings, never a correctness verdict: `recorded_observations` (acceptance from the
recorded q) and `speed_anomalies`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from guardian.equivalence.verdicts.calibration import AcceptanceWindow
from guardian.equivalence.verdicts.sampled import MIN_WINDOW_FOR_ACCEPTANCE_TEST


# --- acceptance from the recorded q and speed anomalies --------------------------------------
def recorded_observations(trace: Sequence[Any]) -> list[tuple[int, float]]:
    """(accepted 0/1, expected acceptance) for every judged proposal whose expectation the
    engine recorded (Σ min(p, q) with the q the proposer sampled from; never re-scored)."""
    return [(1 if t.origin == "accepted" else 0, float(t.accept_expected)) for t in trace
            if t.origin in ("accepted", "resampled")
            and getattr(t, "accept_expected", None) is not None]


def speed_anomalies(trace: Sequence[Any], *, greedy: bool,
                    window: AcceptanceWindow | None = None, z_threshold: float = 4.0,
                    rescored_q: Sequence[float] | None = None,
                    drafter_tolerance: float = 1e-3) -> dict[str, Any]:
    """Anomalies that cost speed but not correctness (never a divergence):

    - `rejected_argmax` (greedy): a proposal equal to the target's argmax was rejected;
    - `acceptance_below_expectation` (greedy windows only: the shadow evaluator judges a
      sampled window's deviation either way as a distribution mismatch): the window's
      observed acceptances are more than `z_threshold` standard deviations below Σ min(p, q)
      from the recorded q;
    - `drafter_inconsistent`: the q the drafter recorded for its proposals differs from a
      clean re-score of the same prefixes (`rescored_q[i]` = q(proposed) at trace position i)
      by more than `drafter_tolerance` (e.g. a draft cache that was never cropped).
    """
    found: dict[str, Any] = {}
    if greedy:
        bad = [t.position for t in trace if t.origin == "resampled"
               and getattr(t, "proposed_token", None) is not None
               and getattr(t, "top1_id", None) is not None and t.proposed_token == t.top1_id]
        if bad:
            found["rejected_argmax"] = {"positions": bad[:10], "count": len(bad)}
    if window is not None and len(window) >= MIN_WINDOW_FOR_ACCEPTANCE_TEST:
        s = window.summary()
        z = s["acceptance_z"]
        if z is not None and z < -z_threshold:
            found["acceptance_below_expectation"] = s
    if rescored_q is not None:
        gaps = [(t.position, abs(float(t.proposed_q) - float(rescored_q[t.position])))
                for t in trace if t.origin in ("accepted", "resampled")
                and getattr(t, "proposed_q", None) is not None and t.position < len(rescored_q)]
        worst = max(gaps, key=lambda g: g[1], default=None)
        if worst is not None and worst[1] > drafter_tolerance:
            found["drafter_inconsistent"] = {"position": worst[0], "q_gap": worst[1],
                                             "tolerance": drafter_tolerance}
    return found

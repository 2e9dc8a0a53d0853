"""The shadow's stopping quota: per route, keep judging stop strings, EOS inside an accepted
block and max_tokens boundaries, for greedy and sampled requests, whatever `sample_rate`.

Stopping bugs show only on requests that stop that way (one stop-string fault was caught by
1 request of 40), and a random 10 % sample of a route whose traffic rarely stops by a stop
string may judge none for hours. So, per route, the verdicts of the last `QUOTA_MEMORY`
judged requests are tallied by decoding kind and stopping case
(guardian.equivalence.stopcases); a served request that `sample_rate` did not pick is
offered to the shadow anyway when it ended in a case whose tally is below
`shadow.stopping_quota` (`wants`; only on routes that shadow at all, sample_rate > 0).
A served request can only show the case it lived:
a target-only one ending with EOS is taken for the `eos_in_block` cell (whether the
speculative re-run accepts that EOS inside a block is for the re-run to show).

A sampled request picked this way was served without the target distributions the
verifier-vs-target-only check needs: it is judged on its trace, its stopping and the route's
acceptance window, and the verdict says which checks could not run (`stats.unchecked`).
`gauge_rows` exports the tallies (`guardian_shadow_stopping_judged{route,kind,case}`).
"""

from __future__ import annotations

import threading
from collections import Counter, deque
from typing import Any

from guardian.equivalence.stopcases import KINDS, STOPPING_CASES, stopping_case

QUOTA_MEMORY = 500  # judged verdicts per route the tallies are taken over


class StoppingQuota:
    def __init__(self, eos_token_ids: Any = None) -> None:
        self.eos = frozenset(eos_token_ids or ())
        self._lock = threading.Lock()
        self._recent: dict[str, deque[tuple[str, str | None]]] = {}

    def case_of(self, result: Any, request: Any, max_tokens: int | None = None) -> str | None:
        return stopping_case(result.token_ids, result.finish_reason, result.trace,
                             eos_token_ids=self.eos, stop=request.stop,
                             max_tokens=max_tokens if max_tokens is not None
                             else request.max_tokens)

    def judged(self, route: str, greedy: bool, case: str | None) -> None:
        with self._lock:
            ring = self._recent.setdefault(route, deque(maxlen=QUOTA_MEMORY))
            ring.append(("greedy" if greedy else "sampled", case))

    def counts(self, route: str) -> dict[str, dict[str, int]]:
        with self._lock:
            tally = Counter(self._recent.get(route, ()))
        return {k: {c: tally[(k, c)] for c in (*STOPPING_CASES, "eos")} for k in KINDS}

    def wants(self, served: Any, route_policy: Any) -> bool:
        """Offer this served request (not picked by sample_rate) for its stopping case?"""
        quota = route_policy.shadow.stopping_quota
        # A route that is not shadowed at all (sample_rate 0) stays unshadowed.
        if quota <= 0 or route_policy.mode == "off" or route_policy.shadow.sample_rate <= 0:
            return False
        case = self.case_of(served.result, served.request)
        if case == "eos" and served.served_path == "target_only":
            case = "eos_in_block"  # the speculative re-run may accept it inside a block
        if case not in STOPPING_CASES:
            return False
        kind = "greedy" if served.request.greedy else "sampled"
        return self.counts(served.request.route)[kind][case] < quota

    def gauge_rows(self) -> list[tuple[str, str, dict[str, str], float]]:
        with self._lock:
            routes = sorted(self._recent)
        rows = []
        for route in routes:
            for kind, row in self.counts(route).items():
                for case, n in row.items():
                    rows.append(("guardian_shadow_stopping_judged", "Judged shadow verdicts by "
                                 "decoding kind and how the judged speculative run stopped, "
                                 f"over the route's last {QUOTA_MEMORY} verdicts (the stopping "
                                 "quota samples for cells below shadow.stopping_quota).",
                                 {"route": route, "kind": kind, "case": case}, float(n)))
        return rows

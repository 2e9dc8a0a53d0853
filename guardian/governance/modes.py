"""`effective_mode`: the ONE answer to "which mode is in force for this route now, and why".

Serving (through `ModeResolver.mode`), shadow records (they carry the mode serving used), the
rollback controller, `guardian route status`, the admin API and the dashboard all ask this
function, so none of them can disagree about a route. The rules, in order:

1. a route the policy file does not name is not served at all (mode None): requests to it
   are refused, whatever the database says;
2. `off` in the policy file always wins: it means no speculation *and* no shadow work, which
   no database state overrides;
3. database route state, once a governance act (rollback, re-enable, disable, promotion) set
   it — except a speculative state for another pair than the one serving (its gate report
   was for different weights or tokenizer), or one the caller's `state_gate` refuses (the
   row must be signed by its act and no older than the newest version known for the route,
   with a signed passing report or a signed override behind it where the policy asks for a
   report, `gatecheck.state_refusal`): those serve `target_only`;
4. the policy file's mode; a file saying `speculative` is held to the gate when the caller
   passes one (a passing report for the serving pair and the policy hash, see
   `guardian.governance.gatecheck`): without one the route serves `target_only`.

Canary (`guardian.governance.canary`): while a canary runs on a route whose database state
is `speculative` (rule 3), only `weight_pct` % of its requests are served speculatively,
chosen by `canary_bucket(route, request_key)` so the same key always lands on the same side
(sticky; the key is `sticky_key`'s: the `X-Guardian-Sticky-Key` header, else the OpenAI
`user` field, else the API key id, else the request id — not sticky). Asked without a key
(status pages, the rollback controller) the answer is `speculative` with source `canary`:
the route *does* speculate (at 0 %: `target_only`, source `canary`). A canary only ever
narrows speculation, never widens it: a route whose state is not speculative ignores it, and
so does one whose speculative state fails `state_gate`. (The caller checks the canary row's
own signature: `gatecheck.canary_as_served` hands a row that does not verify in at 0 %.)

Pure: the caller supplies the route state and the gate answer (lazily: it is only asked
when rule 4 needs it), so the per-request path stays a dict lookup.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from guardian.core.enums import Mode

if TYPE_CHECKING:
    from guardian.policy import Policy


class RouteStatus(Protocol):
    """What a route's database state must say (`routestate.RouteStatus` has it)."""

    @property
    def mode(self) -> str: ...
    @property
    def pair_hash(self) -> str | None: ...
    @property
    def reason(self) -> str | None: ...
    @property
    def updated_by(self) -> str: ...

# Which rule decided (see the module docstring).
# "unknown_state": added by `ModeResolver` when neither the database nor the last known state
# file could be read since start (never speculative then).
Source = Literal["not_in_policy", "policy_off", "database", "other_pair", "policy", "gate",
                 "unknown_state", "canary"]

STICKY_HEADER = "X-Guardian-Sticky-Key"


class CanaryView(Protocol):
    """What a route's canary must say (`canary.CanaryStatus` has it)."""

    @property
    def status(self) -> str: ...
    @property
    def weight_pct(self) -> float: ...


def sticky_key(header: str | None, user: str | None, key_id: str | None,
               request_id: str) -> str:
    """The key a request's canary side is chosen by (see the module docstring)."""
    for prefix, value in (("h", header), ("u", user), ("k", key_id)):
        if value:
            return f"{prefix}:{value}"
    return f"r:{request_id}"


def canary_bucket(route: str, key: str) -> float:
    """Where `key` falls on the route's 0..100 line: uniform, fixed per (route, key)."""
    digest = hashlib.sha256(f"{route}\x00{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 * 100.0

# Asked only when a policy file's `speculative` needs the gate: None = allowed, else why not.
GateRefusal = Callable[[], str | None]
# Asked only when the database route state says `speculative`: None = allowed, else why not.
StateGate = Callable[[RouteStatus], str | None]


@dataclass(frozen=True, slots=True)
class ModeDecision:
    mode: Mode | None  # None: not served at all (the policy file has no such route)
    source: Source
    reason: str


def effective_mode(policy_mode: Mode | None, state: RouteStatus | None, *,
                   pair_hash: str | None = None, gate: GateRefusal | None = None,
                   canary: CanaryView | None = None, route: str = "",
                   request_key: str | None = None,
                   state_gate: StateGate | None = None) -> ModeDecision:
    """The mode in force for one route.

    `policy_mode`: the route's mode in the policy file (None: the file has no such route);
    `state`: its database route state (None: no governance act set one); `pair_hash`: the
    pair that serves it (None: unknown, no pair check); `gate`: the gate check for a file
    saying `speculative` (None: no gate applies, e.g. `gate.require_report: false`);
    `canary` the route's canary (None: none) and `request_key` the request's sticky key
    (None: not asked for one request); `state_gate`: the check a speculative database state
    must pass (None: none, the state is trusted as it is).
    """
    if policy_mode is None:
        return ModeDecision(None, "not_in_policy", "not in the policy file: requests to this "
                            "route are refused (add it to the policy to serve it)")
    if policy_mode == "off":
        return ModeDecision("off", "policy_off", "the policy file says off; no database state "
                            "overrides it")
    if state is not None:
        if (state.mode == "speculative" and pair_hash and state.pair_hash
                and state.pair_hash != pair_hash):
            return ModeDecision("target_only", "other_pair",
                                f"speculative was set for pair {state.pair_hash[:12]}, but pair "
                                f"{pair_hash[:12]} serves this route; promote this pair")
        if state.mode == "speculative" and state_gate is not None:
            refusal = state_gate(state)
            if refusal is not None:
                return ModeDecision("target_only", "gate", refusal)
        if state.mode == "speculative" and canary is not None and canary.status == "running":
            return _canary_decision(canary, route, request_key)
        return ModeDecision(state.mode, "database",  # type: ignore[arg-type]
                            f"set by {state.updated_by}: {state.reason or '(no reason given)'}")
    if policy_mode == "speculative" and gate is not None:
        refusal = gate()
        if refusal is not None:
            return ModeDecision("target_only", "gate", refusal)
        return ModeDecision("speculative", "gate", "policy file, with a passing gate report for "
                            "this pair and policy")
    return ModeDecision(policy_mode, "policy", "policy file (no governance act has set a mode)")


def _canary_decision(canary: CanaryView, route: str, request_key: str | None) -> ModeDecision:
    # As the bucket line applies it (0..100, NaN none), so a status page shows the share served.
    weight = canary.weight_pct
    weight = 0.0 if math.isnan(weight) else min(100.0, max(0.0, weight))
    if request_key is None:
        if weight <= 0.0:  # no key falls inside: the route does not speculate at all
            return ModeDecision("target_only", "canary", "canary at 0%: no request is served "
                                "speculatively")
        return ModeDecision("speculative", "canary", f"canary: {weight:g}% of requests "
                            "speculative (sticky per request key)")
    if canary_bucket(route, request_key) < weight:
        return ModeDecision("speculative", "canary", f"inside the canary's {weight:g}%")
    return ModeDecision("target_only", "canary", f"outside the canary's {weight:g}%")


def route_modes(policy: Policy, states: Mapping[str, RouteStatus], *,
                pair_hash: Callable[[str], str | None] | str | None = None,
                gate_refusal: Callable[[str], str | None] | None = None,
                canaries: Mapping[str, CanaryView] | None = None,
                state_refusal: Callable[[str, RouteStatus, str | None], str | None] | None = None,
                ) -> dict[str, ModeDecision]:
    """`effective_mode` of every route the policy names or the database holds state for.

    `pair_hash`: the serving pair (or a function route -> pair); `gate_refusal(pair_hash)`:
    the gate check, asked at most once per pair and only for routes whose policy requires a
    report (None: no gate, as without an audit database); `canaries`: running canaries by
    route (their decision reads "canary: N% of requests"); `state_refusal(route, state,
    pair)`: the signed-state check of a speculative database state, as serving applies it
    (`gatecheck.state_refusal`: its signature and version on every route, the signed report
    behind it where the policy requires one; None: none).
    """
    answers: dict[str | None, str | None] = {}
    out: dict[str, ModeDecision] = {}
    for name in sorted(set(policy.routes) | set(states)):
        route = policy.routes.get(name)
        pair = pair_hash(name) if callable(pair_hash) else pair_hash
        gate: GateRefusal | None = None
        if gate_refusal is not None and route is not None and route.gate.require_report:
            def gate(pair: str | None = pair) -> str | None:
                if pair not in answers:
                    answers[pair] = gate_refusal(pair or "")
                return answers[pair]
        state_gate: StateGate | None = None
        if state_refusal is not None:
            def state_gate(st: RouteStatus, name: str = name, pair: str | None = pair
                           ) -> str | None:
                return state_refusal(name, st, pair)
        out[name] = effective_mode(route.mode if route else None, states.get(name),
                                   pair_hash=pair, gate=gate, route=name,
                                   canary=(canaries or {}).get(name), state_gate=state_gate)
    return out

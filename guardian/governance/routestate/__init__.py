"""Route state in the database, and the `ModeResolver` the serving path asks per request.

The `route_state` table holds a row for a route only once a governance action (rollback,
re-enable, disable, promotion) set its mode; without a row the policy file's mode applies.
Writes are compare-and-set on `version`, so two replicas rolling back the same route at once
do not overwrite each other's evidence.

`ModeResolver.mode(route, policy_mode, policy)` answers with `modes.effective_mode` (the one
implementation of "the mode in force"), fed from memory: a background thread re-reads the
(tiny) table every `ttl_s` (default 0.5 s), and a write through the same store updates the
cache at once. So a change made on this replica applies from the next request, and one made
on another replica within `ttl_s` plus one query (bound: ~1 s with the default). When the
database cannot be read the last known state stays in force (logged), never the other way.

Fail-safe across restarts: with a `state_file` the resolver keeps every route's row on local
disk too (`guardian.governance.laststate`, rewritten atomically whenever a refresh or a write
through the store changed it). If the database cannot be read when the resolver starts, it
serves that last known state (a rollback before the outage stays a rollback); with no usable
file either, the state is UNKNOWN and no route serves speculatively (decision source
`unknown_state`) until the database answers. The first successful read always wins.

Gate for policy files (issue #5): a route whose policy FILE says `mode: speculative`, with no
route state row overriding it, serves speculatively only with a passing gate report for this
replica's pair hash and the policy's content hash (`gate.require_report`, default true; the
check is promotion's own, `gatecheck.gate_refusal`). Otherwise it serves `target_only`, logged
as a WARNING and audited once per (route, pair, policy) as a `policy_decision`. The answer is
cached per route for the policy hash in force: one DB query when a policy is first seen, then a
dict lookup per request; the background refresh re-checks it, so a report recorded later (or
a newer failing one) applies within `ttl_s`. If the reports cannot be read the last answer
stays; with no answer yet the route serves target_only until they can be read.

Someone who can write the database but holds no key can insert a `speculative` row, or
rewrite, replay or delete a rollback's row. A row turning speculation on is signed by the act
that writes it (`set_mode`; `guardian.governance.statesig` has the rules). With
`require_signed_state=True` (`guardian serve`: `runtime.attach`) such a row serves
speculatively only if that signature verifies, its version is at least the highest this
replica has read for the route (`_seen`, kept in the state file too) and the highest any act
recorded in the audit trail, and, on routes whose policy asks for a gate report
(`gate.require_report`, the default), a signed passing gate report for the serving pair under
the policy the row names, or a signed admin override for the route, stands behind it
(`gatecheck.state_signature_refusal`, `state_evidence_refusal`); otherwise `target_only`,
source `gate`. A route whose row is gone though a version of it is known serves
`target_only` (`_held`). A canary narrows a verified state only when its own row verifies
(`gatecheck.canary_as_served`; else 0 %). Verdicts are reached in the refresh thread before
the rows they judge are served, and cached per (row, version floor): the hot path compares;
a verdict that cannot be reached (database error, a hostile audit row) is target_only, and
is reached again on the next refresh. With the database down the rows and verdicts last read
stay, as does a start from the last known state file (the gate then cannot be read: a
speculative row serves target_only); a database that answers while its `route_state` table
cannot be read serves no route speculatively (`_fail_closed`).

Canaries (`guardian.governance.canary`): the resolver re-reads `canary_state` with
`route_state` on every refresh and hands a route's canary to `effective_mode`, with the
request's sticky key when serving asks for one request (`mode(..., request_key=...)`). An
unreadable canary table (e.g. a database not yet at revision 0003) keeps the last canaries
read, and none when none was ever read.

The package: `status` (RouteStatus and its last-known-state rows, the cool-down), `store`
(RouteStateStore, StateConflict), `resolver` (ModeResolver) and `trust` (the part of the
resolver that decides whether a stored state may be acted on: version floors, vanished rows,
the verdicts on speculative rows and their canaries).
"""

from __future__ import annotations

from guardian.governance.routestate.resolver import UNKNOWN_STATE, ModeResolver
from guardian.governance.routestate.status import (
    RouteStatus,
    SavedCanary,
    as_rows,
    cooldown_left,
    cooldown_refusal,
    from_rows,
    saved_canaries,
    saved_versions,
)
from guardian.governance.routestate.store import RouteStateStore, StateConflict

__all__ = [
    "UNKNOWN_STATE",
    "ModeResolver",
    "RouteStateStore",
    "RouteStatus",
    "SavedCanary",
    "StateConflict",
    "as_rows",
    "cooldown_left",
    "cooldown_refusal",
    "from_rows",
    "saved_canaries",
    "saved_versions",
]

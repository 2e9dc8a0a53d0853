"""Loading policy files: validation with errors that point at file:line and field; hot reload.

`load_policy_file` validates a YAML file and, on failure, names every problem as
`file:line: routes.strict.triggers.acceptance.min_alpha: <what is wrong>; allowed: <...>`
(line numbers come from composing the YAML node tree, which keeps marks). After the schema,
every check registered with `register_check` runs on the validated policy: the trigger
registry (`guardian.governance.triggers`) registers one, so a trigger without a policy
section, or a section without a trigger, fails the load instead of silently borrowing
another trigger's settings. (The check is registered from there, not imported from here:
policy is the lower layer and imports nothing from governance.)

`PolicyReloader` re-reads the file when it changes (polling its mtime and size, 1 s) or when
`reload()` is called (the admin API); an invalid file is refused, logged and audited as a
`policy_decision`, and the last good policy stays in force. A reload is also held to the
reload checks (`RELOAD_CHECKS`, comparing the policy in force with the new one): a reload
may not switch the gate off (`gate.require_report: false`) on a route it lets speculate.
With the gate on, a route the new file makes `speculative` loads but serves target_only until
a passing gate report for the pair and the NEW policy hash exists (the route-mode resolver,
`guardian.governance.routestate`, audits that once); with the gate off nothing would stop it,
so turning speculation on must not be the reload's to do (a restart with the file, by whoever
deploys it, still can).

`record_policy_load` writes the policy versions: the content once per hash (`policy_versions`)
and one `policy_loads` row per load, so the dashboard can show the policy IN FORCE (not the
file on the dashboard's host) and its history. A `PolicyReloader` given the audit database
records its first load and every reload; recording is best-effort (a database hiccup is
logged, never stops a load), the chained `policy_loaded` event being the audited record.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, get_args, get_origin

import yaml
from pydantic import BaseModel, ValidationError

from guardian.audit.acts import record_act
from guardian.audit.events import AuditSink, GovernanceEvent
from guardian.core.fileio import read_small
from guardian.policy.base import BIDI_CHARS, FORBIDDEN_CHARS, PolicyError, describe_char
from guardian.policy.model import DEFAULT_POLICY_FILE, Policy

logger = logging.getLogger(__name__)

PolicyCheck = Callable[[Policy], None]
_checks: list[PolicyCheck] = []
ReloadCheck = Callable[[Policy, Policy], None]  # (in force, new): raises PolicyError to refuse


def register_check(check: PolicyCheck) -> PolicyCheck:
    """Run `check(policy)` on every policy loaded from now on; it raises PolicyError to refuse."""
    if check not in _checks:
        _checks.append(check)
    return check


def _line_of(root: yaml.Node | None, loc: tuple[Any, ...]) -> int | None:
    """1-based line of the deepest YAML node on the path `loc` (None without a document)."""
    node, line = root, (root.start_mark.line + 1 if root is not None else None)
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            found = next(((k, v) for k, v in node.value if k.value == str(part)), None)
            if found is None:
                break
            key, node = found
            line = key.start_mark.line + 1
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    return line


def _model_at(model: type[BaseModel], loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """The pydantic model class that owns the last element of `loc`."""
    current: Any = model
    for part in loc[:-1]:
        if isinstance(current, type) and issubclass(current, BaseModel):
            field = current.model_fields.get(str(part))
            if field is None:
                return None
            current = field.annotation
        elif get_origin(current) is dict:
            current = get_args(current)[1]
        else:
            return None
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


# Problems named in one error: enough to fix a file, bounded however many a hostile file has
# (45,000 invalid routes made a 4 MB message that took minutes to locate line by line).
MAX_PROBLEMS = 20


def _explain(exc: ValidationError, root: yaml.Node | None, path: Path) -> str:
    problems = []
    errors = exc.errors()
    for e in errors[:MAX_PROBLEMS]:
        loc = tuple(e["loc"])
        line = _line_of(root, loc)
        where = f"{path}:{line}" if line else str(path)
        field = ".".join(map(str, loc)) or "(top level)"
        msg = e["msg"]
        if e["type"] == "extra_forbidden":
            owner = _model_at(Policy, loc)
            allowed = sorted(owner.model_fields) if owner else []
            msg = f"unknown field{'; allowed: ' + ', '.join(allowed) if allowed else ''}"
        problems.append(f"{where}: {field}: {msg}")
    if len(errors) > MAX_PROBLEMS:
        problems.append(f"... and {len(errors) - MAX_PROBLEMS} more problems")
    return "policy file is invalid:\n  " + "\n  ".join(problems)


class _PolicyLoader(yaml.SafeLoader):
    """SafeLoader whose constructor errors (a date that is no date, `!!int abc`, an integer
    of 5,000 digits) are YAML errors with a line, not a bare ValueError."""

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep=deep)
        except (ValueError, OverflowError, TypeError) as exc:
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot read the value {str(node.value)[:40]!r}: {exc}",
                node.start_mark) from None


_MERGE_TAG = "tag:yaml.org,2002:merge"


def _check_nodes(root: yaml.Node, path: Path) -> None:
    """Refuse what YAML would load with a meaning the file does not show: a key given twice in
    one mapping (YAML keeps the last silently, so a reviewer reading the first is misled),
    and control, bidi or surrogate characters in any key or value (written as escapes)."""
    seen_nodes: set[int] = set()
    stack: list[yaml.Node] = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen_nodes:  # an alias: the anchored node was checked once
            continue
        seen_nodes.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            bad = FORBIDDEN_CHARS.search(node.value)
            if bad is not None:
                raise PolicyError(f"{path}:{node.start_mark.line + 1}: the value "
                                  f"{ascii(node.value)[:80]} contains the character "
                                  f"{describe_char(bad.group())}: policy keys and values are "
                                  "plain printable text (no control, bidi or surrogate)")
        elif isinstance(node, yaml.MappingNode):
            keys: dict[tuple[str, str], int] = {}
            for key, _ in node.value:
                if isinstance(key, yaml.ScalarNode) and key.tag != _MERGE_TAG:
                    first = keys.get((key.tag, key.value))
                    if first is not None:
                        raise PolicyError(
                            f"{path}:{key.start_mark.line + 1}: duplicate key "
                            f"{ascii(key.value)[:80]} (also on line {first}); YAML would keep "
                            "only the last one silently, so write each key once")
                    keys[(key.tag, key.value)] = key.start_mark.line + 1
            # reversed: the stack pops them in document order, so the first problem is named
            stack.extend(n for pair in reversed(node.value) for n in reversed(pair))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))


def _parse(text: str, path: Path) -> tuple[yaml.Node | None, Any]:
    """The YAML document of `text`: its node tree (for line numbers) and its data."""
    bidi = BIDI_CHARS.search(text)
    if bidi is not None:  # also in comments: "Trojan Source" text reads other than it runs
        line = text.count("\n", 0, bidi.start()) + 1
        raise PolicyError(f"{path}:{line}: contains the bidirectional control character "
                          f"{describe_char(bidi.group())}, which makes the file display in an "
                          "order other than the one it is read in; remove it")
    loader = _PolicyLoader(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return None, None
        _check_nodes(root, path)
        return root, loader.construct_document(root)
    finally:
        loader.dispose()


def load_policy_file(path: Path | str | None = None) -> Policy:
    """Read and validate a policy YAML file; PolicyError names file:line, field and what is allowed."""
    path = Path(path) if path else DEFAULT_POLICY_FILE
    try:
        # A regular file of at most 1 MiB: a FIFO or /dev/zero named here (also by the policy
        # reloader's thread) must not block or fill memory.
        text = read_small(path).decode("utf-8")
    except OSError as exc:
        raise PolicyError(f"cannot read policy file {path}: {exc.strerror}; pass an existing YAML "
                          "file (GUARDIAN_POLICY_FILE)") from exc
    except UnicodeDecodeError as exc:
        raise PolicyError(f"cannot read policy file {path}: not UTF-8 text (byte {exc.start})"
                          ) from None
    try:
        root, raw = _parse(text, path)
    except RecursionError:
        raise PolicyError(f"{path}: not a policy: nested too deeply to read") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
        raise PolicyError(f"{where}: not valid YAML: {getattr(exc, 'problem', None) or exc}") from exc
    if raw is None:
        # An empty file is a mistake (an unmounted ConfigMap, a truncated copy), not "defaults".
        raise PolicyError(f"{path}: the policy file is empty; a policy file is a mapping with "
                          "version, default_route, routes")
    if not isinstance(raw, dict):
        raise PolicyError(f"{path}:1: a policy file is a mapping with version, default_route, routes")
    try:
        policy = Policy.model_validate(raw)
    except ValidationError as exc:
        raise PolicyError(_explain(exc, root, path)) from exc
    for check in list(_checks):
        try:
            check(policy)
        except PolicyError as exc:
            raise PolicyError(f"{path}: {exc}") from exc
    for name, route in policy.routes.items():
        dead = route.triggers.never_conclusive()
        if dead:
            logger.warning("%s:%s: routes.%s.triggers: %s: the window never holds that many "
                           "observations, so these triggers can never fire; raise window_max, "
                           "lower the minimum or disable them", path,
                           _line_of(root, ("routes", name, "triggers")), name, "; ".join(dead))
    return policy


def load_policy(path: Path | str | None = None) -> Policy:
    """Read and validate a policy YAML file (default: the packaged `policies/default.yaml`).

    Raises PolicyError naming file:line, the field and what is allowed.
    """
    policy = load_policy_file(path or DEFAULT_POLICY_FILE)
    logger.info("loaded policy %s (hash %s, routes %s)", path or DEFAULT_POLICY_FILE,
                policy.content_hash[:12], sorted(policy.routes))
    return policy


def gate_not_lowered(old: Policy, new: Policy) -> None:
    """Refuse a reload that lets a route speculate with no gate report required, unless it
    already did so under the policy in force (on-call may reload; lowering the gate is not
    theirs to do)."""
    def ungated(policy: Policy, name: str) -> bool:
        route = policy.routes.get(name)
        return route is not None and route.mode == "speculative" and not route.gate.require_report

    lowered = sorted(name for name in new.routes if ungated(new, name) and not ungated(old, name))
    if lowered:
        raise PolicyError(
            f"reload refused: route(s) {', '.join(lowered)} would serve speculatively with "
            "`gate.require_report: false`, i.e. without any gate report; a reload cannot turn "
            "speculation on without evidence. Keep require_report: true (and run `guardian "
            "gate` for the new policy), or deploy the file with a restart.")


RELOAD_CHECKS: tuple[ReloadCheck, ...] = (gate_not_lowered,)


def record_policy_load(db: Any, policy: Policy, *, actor: str, path: Path | str | None = None,
                       previous_hash: str | None = None, text: str | None = None) -> bool:
    """Record that `policy` was put in force (a `policy_loads` row, plus its content in
    `policy_versions` the first time its hash is seen). `db`: a SQLAlchemy Engine on the audit
    database; `text`: the file's text (default: read from `path`, else the canonical JSON).
    Returns False (and logs) when the database refused; the load itself stands."""
    import json

    import sqlalchemy as sa

    from guardian.audit.models import PolicyLoad, PolicyVersion

    if text is None:
        try:
            text = Path(path).read_text() if path else None
        except OSError:
            text = None
    if text is None:
        text = json.dumps(policy.model_dump(mode="json"), indent=2, sort_keys=True)
    now = datetime.now(UTC)
    versions, loads = PolicyVersion.__table__, PolicyLoad.__table__
    try:
        with db.begin() as conn:
            known = conn.execute(sa.select(versions.c.policy_hash).where(
                versions.c.policy_hash == policy.content_hash)).first()
            if known is None:
                conn.execute(sa.insert(versions).values(
                    policy_hash=policy.content_hash, name=Path(path).name if path else "policy",
                    version=str(policy.version), content=text, loaded_at=now, loaded_by=actor))
            conn.execute(sa.insert(loads).values(
                policy_hash=policy.content_hash, loaded_at=now, loaded_by=actor,
                policy_file=str(path) if path else None, previous_policy_hash=previous_hash))
    except Exception as exc:  # a version record never blocks a policy load
        logger.warning("could not record policy %s as loaded: %s", policy.content_hash[:12],
                       str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        return False
    return True


class PolicyReloader:
    """Keeps the last good policy of one file; reloads on change or on demand. With `db` (the
    audit database) it records its first load and every reload (`record_policy_load`)."""

    def __init__(self, path: Path | str | None, on_change: Callable[[Policy], None], *,
                 sink: AuditSink | None = None, interval_s: float = 1.0, actor: str = "reloader",
                 db: Any = None) -> None:
        self.path = Path(path) if path else DEFAULT_POLICY_FILE
        self.on_change, self.sink, self.interval_s, self.actor = on_change, sink, interval_s, actor
        self.db = db
        self.policy: Policy = load_policy_file(self.path)  # startup must have a good one
        if db is not None:
            record_policy_load(db, self.policy, actor=actor, path=self.path)
        self.last_error: str | None = None
        self._stamp = self._file_stamp()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def _file_stamp(self) -> tuple[float, int] | None:
        try:
            st = self.path.stat()
        except OSError:
            return None
        return st.st_mtime, st.st_size

    def reload(self, actor: str | None = None) -> tuple[bool, str]:
        """Re-read the file. (True, hash) when a new policy is in force; (False, why) otherwise."""
        with self._lock:
            self._stamp = self._file_stamp()
            try:
                new = load_policy_file(self.path)
                for check in RELOAD_CHECKS:
                    check(self.policy, new)
            except Exception as exc:  # whatever went wrong, the last good policy stays
                if not isinstance(exc, PolicyError):  # a loader bug: still a visible refusal
                    logger.exception("policy reload of %s failed", self.path)
                    exc = PolicyError(f"{self.path}: cannot load the policy "
                                      f"({type(exc).__name__}: {exc})")
                self.last_error = str(exc)
                logger.error("policy reload refused, keeping %s: %s", self.policy.content_hash[:12], exc)
                self._audit("policy_decision", actor, {"action": "reload_refused", "error": str(exc),
                                                       "kept_policy_hash": self.policy.content_hash})
                return False, str(exc)
            self.last_error = None
            if new.content_hash == self.policy.content_hash:
                return False, "unchanged"
            old, self.policy = self.policy, new
        self.on_change(new)
        if self.db is not None:
            record_policy_load(self.db, new, actor=actor or self.actor, path=self.path,
                               previous_hash=old.content_hash)
        self._audit("policy_loaded", actor, {"previous_policy_hash": old.content_hash,
                                             "policy_file": str(self.path),
                                             "policy": new.model_dump(mode="json")})
        logger.info("policy reloaded: %s -> %s", old.content_hash[:12], new.content_hash[:12])
        return True, new.content_hash

    def _audit(self, kind: str, actor: str | None, details: dict[str, Any]) -> None:
        if self.sink is not None:
            record_act(self.sink, GovernanceEvent(
                event_id=f"gov-{uuid.uuid4().hex}", created_at=datetime.now(UTC), kind=kind,  # type: ignore[arg-type]
                route=None, pair_hash=None, policy_hash=self.policy.content_hash,
                actor=actor or self.actor, details=details))

    def start(self) -> PolicyReloader:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="policy-reloader", daemon=True)
            self._thread.start()
        return self

    def _loop(self) -> None:
        while not self._stop.wait(self.interval_s):
            if self._file_stamp() != self._stamp:
                try:
                    self.reload()
                except Exception:  # the watcher must outlive one bad callback
                    logger.exception("policy reload failed")

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

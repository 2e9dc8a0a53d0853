"""c2sp.org/tlog-policy files: which logs and witnesses count, and the witness quorum.

    log <vkey> [<url>]
    witness <name> <vkey> [<url>]
    group <name> all|any|<k> <member>...
    quorum <name>|none

Lines are split on spaces and tabs; blank lines and `#` comments are ignored; a group or the
quorum may only name witnesses and groups defined above it; each name is a member of a group
at most once; exactly one quorum line. Witness keys are cosigner vkeys (type 0x04), log keys
Ed25519 note keys (0x01). For this sidecar a log's key name is the log name under which every
chain's origin lies (`guardian.audit.checkpoints`). A witness's URL is its submission prefix
(c2sp.org/tlog-witness): `guardian audit witness` posts to `<url>/add-checkpoint`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from guardian.audit.notes import ALG_COSIGNATURE_V1, ALG_ED25519, NoteError, Verifier, parse_vkey

MAX_ENTRIES = 256


class PolicyError(ValueError):
    """A policy file that does not follow c2sp.org/tlog-policy (the message names the line)."""


@dataclass(frozen=True)
class Witness:
    name: str
    key: Verifier
    url: str | None


@dataclass(frozen=True)
class Group:
    threshold: int
    members: tuple[str, ...]


@dataclass
class Policy:
    logs: list[tuple[Verifier, str | None]] = field(default_factory=list)
    witnesses: dict[str, Witness] = field(default_factory=dict)
    groups: dict[str, Group] = field(default_factory=dict)
    quorum: str = "none"

    @property
    def log_keys(self) -> list[Verifier]:
        return [v for v, _ in self.logs]

    def satisfied(self, cosigned: set[str], name: str | None = None) -> bool:
        """Does the set of witness names that cosigned meet the quorum (or group `name`)?"""
        name = self.quorum if name is None else name
        if name == "none":
            return True
        if name in self.witnesses:
            return name in cosigned
        group = self.groups[name]
        return sum(self.satisfied(cosigned, m) for m in group.members) >= group.threshold


def parse_policy(text: str) -> Policy:
    p = Policy()
    quorum: str | None = None
    seen_keys: set[bytes] = set()
    for n, raw in enumerate(text.split("\n"), 1):
        if any(ord(c) < 0x20 and c != "\t" for c in raw) or "\x7f" in raw:
            raise PolicyError(f"line {n}: a control character")
        words = re.split(r"[ \t]+", raw.strip())
        if not words[0] or words[0].startswith("#"):
            continue
        if len(p.logs) + len(p.witnesses) + len(p.groups) >= MAX_ENTRIES:
            raise PolicyError(f"more than {MAX_ENTRIES} logs, witnesses and groups")
        kind, args = words[0], words[1:]
        try:
            if kind == "log" and len(args) in (1, 2):
                v = _key(args[0], ALG_ED25519, seen_keys)
                p.logs.append((v, args[1] if len(args) == 2 else None))
            elif kind == "witness" and len(args) in (2, 3):
                _new_name(p, args[0])
                v = _key(args[1], ALG_COSIGNATURE_V1, seen_keys)
                p.witnesses[args[0]] = Witness(args[0], v, args[2] if len(args) == 3 else None)
            elif kind == "group" and len(args) >= 3:
                _new_name(p, args[0])
                members = tuple(args[2:])
                for m in members:
                    if m not in p.witnesses and m not in p.groups:
                        raise PolicyError(f"{m!r} is not a witness or group defined above")
                if len(set(members)) != len(members):
                    raise PolicyError("a member is listed twice")
                k = {"all": len(members), "any": 1}.get(args[1])
                if k is None:
                    if not re.fullmatch(r"[1-9][0-9]*", args[1]) or int(args[1]) > len(members):
                        raise PolicyError(f"threshold {args[1]!r}: all, any or 1..{len(members)}")
                    k = int(args[1])
                p.groups[args[0]] = Group(k, members)
            elif kind == "quorum" and len(args) == 1:
                if quorum is not None:
                    raise PolicyError("a second quorum line")
                if args[0] != "none" and args[0] not in p.witnesses and args[0] not in p.groups:
                    raise PolicyError(f"quorum {args[0]!r} is not defined above")
                quorum = args[0]
            else:
                raise PolicyError(f"not a log, witness, group or quorum line: {raw.strip()[:60]!r}")
        except (PolicyError, NoteError) as exc:
            raise PolicyError(f"line {n}: {exc}") from None
    if quorum is None:
        raise PolicyError("no quorum line (write `quorum none` for no witnesses)")
    p.quorum = quorum
    return p


def _new_name(p: Policy, name: str) -> None:
    if name == "none" or name in p.witnesses or name in p.groups:
        raise PolicyError(f"name {name!r} is reserved or already defined")


def _key(text: str, alg: int, seen: set[bytes]) -> Verifier:
    v = parse_vkey(text)
    if v.alg != alg:
        raise PolicyError(f"{v.name}: a {'log' if alg == ALG_ED25519 else 'witness'} key must "
                          f"be of type 0x{alg:02x}")
    if v.public_key in seen:
        raise PolicyError(f"{v.name}: the same public key is listed twice")
    seen.add(v.public_key)
    return v


def load_policy(path: Path) -> Policy:
    try:
        text = path.read_bytes()[:1 << 20].decode("utf-8", "surrogateescape")
    except OSError as exc:
        raise PolicyError(f"cannot read policy {path}: {exc.strerror or exc}") from None
    return parse_policy(text)

"""Sidecar settings, read from `GUARDIAN_*` environment variables (and an optional .env file).

Nothing is built at import time: call `get_settings()`; tests call `get_settings.cache_clear()`
after changing the environment.

Secrets (the audit salt and checkpoint key) are not fields here: `guardian.audit.config.
AuditSettings` resolves them, highest precedence first:

1. the environment variables `GUARDIAN_AUDIT_SALT` / `GUARDIAN_AUDIT_CHECKPOINT_KEY`
   (or the same names in `.env`);
2. the secrets file (`secrets_file`, default `<home>/secrets.env`, mode 0600);
3. only for the embedded quickstart (no `database_url`, loopback `host`): on first start the
   sidecar generates that file itself and logs its path;
4. only in dev mode (`GUARDIAN_DEV_MODE=1`, `guardian serve --dev`): the public development
   values.

Outside dev mode a missing secret, a secret equal to a development value or one shorter than
16 characters stops the sidecar at start-up with a message naming the variables.

Browser safety: requests whose Host is not in `trusted_hosts` get 400 (DNS rebinding);
state-changing requests with an Origin not in `allowed_origins` get 403.

Connection limits: `guardian serve` applies the `limit_*`/`timeout_*`/`h11_*`/`max_*` fields to
uvicorn (see `guardian.api.connections`).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from guardian.core.limits import MAX_GAMMA, MAX_WAIT_S
from guardian.security.secrets import SECRETS_FILE_NAME

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")  # as in a Host header: IPv6 in brackets


def _default_home() -> Path:
    return Path.home() / ".cache" / "spec-guardian"


class Settings(BaseSettings):
    # allow_inf_nan=False: `inf` or `nan` is no timeout or interval (GUARDIAN_AUDIT_HEADS_INTERVAL_S
    # =inf killed the signed-heads thread with OverflowError, silently ending tamper evidence).
    model_config = SettingsConfigDict(env_prefix="GUARDIAN_", env_file=".env", extra="ignore",
                                      allow_inf_nan=False)

    home: Path = Field(default_factory=_default_home,
                       description="Data directory: demo pair, SQLite database, audit spool.")
    database_url: str | None = Field(
        default=None,
        description="SQLAlchemy URL. Default: SQLite file <home>/guardian.db (embedded). "
        "Production: postgresql+psycopg://user@host/db",
    )
    backend: str = Field(default="local", description="Serving backend kind (guardian.backends."
                         "FACTORIES): `local` = the in-process engine over a draft/target pair.")
    draft_dir: Path | None = Field(default=None, description="Local HF draft model dir (default: demo pair).")
    target_dir: Path | None = Field(
        default=None, description="Local HF target model dir (default: demo pair)."
    )
    device: str | None = Field(default=None, description="torch device; default cuda if available else cpu.")
    fp32_logits: bool = Field(
        default=True, description="A half-precision (bf16 on CUDA) pair's output projections in "
        "float32 (engine/head.py): tighter measured tolerances, fewer near-tie flips; false "
        "keeps them in bf16 (saves vocabulary x hidden x 4 bytes per model).")
    decode: Literal["auto", "dynamic", "static", "graphs"] = Field(
        default="auto", description="KV caches of the local engine's one-request path "
        "(engine/static.py): `auto` times a one-token forward of the target at start in each "
        "mode the device has and keeps the fastest (on an H200: CUDA graphs over a static "
        "cache, 8x a dynamic cache); `dynamic` (transformers' DynamicCache), `static` "
        "(preallocated, eager) or `graphs` (CUDA graphs over it; `static` on a CPU) pin one. "
        "Continuous batching keeps dynamic caches.")
    kernels: Literal["auto", "packed", "plain"] = Field(
        default="auto", description="How the local engine's CPU float32 linears multiply "
        "forwards of 2 or more rows: the speculative verify and prefills (engine/packed.py). "
        "`packed`: weights packed once at start for oneDNN (on a 2-core EPYC a 3-token verify "
        "of the smollm2 target costs 1.06 one-token forwards instead of 1.7; a second copy of "
        "the weights in memory); `plain`: transformers' F.linear; `auto` times a 4-token "
        "forward both ways at start and packs only where clearly faster. One-row forwards "
        "and GPUs are unaffected.")
    policy_file: Path | None = Field(
        default=None, description="Policy YAML (default: policies/default.yaml)."
    )
    host: str = Field(default="127.0.0.1", description="Address `guardian serve` binds; "
                      "anything but loopback needs an API keys file.")
    port: int = Field(8000, ge=1, le=65535, description="Port `guardian serve` listens on.")
    api_keys_file: Path | None = Field(
        default=None, description="API keys YAML (hashed keys + roles); none = open on loopback only."
    )
    torch_threads: int | None = Field(
        default=None, ge=1, le=4096, description="torch intra-op threads (default: on the CPU, torch's "
        "count or 1, whichever decodes faster, timed at start: engine.threads).")
    batching: Literal["continuous", "off"] = Field(
        default="continuous", description="Local engine: `continuous` serves concurrent "
        "requests in one continuously batched engine (engine.batching); `off` decodes one "
        "request at a time.")
    max_batch: int = Field(default=16, ge=1, le=256, description="Rows in the local engine's "
                           "shared batch; more requests wait (bounded by each route's max_queue).")
    batch_order: Literal["fair", "fifo"] = Field(
        default="fair", description="Order in which waiting requests join the local engine's "
        "batch: `fair` takes turns across routes (by each route's policy `weight`) and across "
        "callers within a route, so one route's flood does not stand in front of another's "
        "requests; `fifo` joins in arrival order.")
    fair_headroom: int = Field(
        default=2, ge=0, le=256, description="With `batch_order` fair: rows beyond `max_batch` "
        "the local engine's batch may take, each for a request whose route holds no row, so "
        "that a route is not kept waiting for a row while another route's flood fills the "
        "batch (engine.batching); the batch never exceeds max_batch + fair_headroom rows. 0: "
        "never beyond max_batch.")
    gamma_by_batch: dict[int, int] = Field(
        default_factory=dict, description="Pin the speculation depth cap per batch size "
        "(batch-size band start -> depth, 0 = off), e.g. '{\"1\": 4, \"16\": 0}'; empty: "
        "chosen by `gamma_policy`.")
    step_costs_dir: Path | None = Field(
        default=None, description="Where the modelled cap keeps the step costs it measured "
        "(keyed by pair, device, dtype, torch version and threads; default "
        "~/.cache/spec-guardian/step-costs, whatever the home). Delete a file there to "
        "re-measure.")
    gamma_policy: Literal["modelled", "runs"] = Field(
        default="modelled", description="How the speculation depth cap per batch size is "
        "chosen: `modelled` predicts each depth's goodput from step costs measured on the pair "
        "at start-up and the live acceptance rate (engine.capmodel); `runs` tries each depth on "
        "live traffic and keeps the best measured (engine.loadaware).")
    replica_id: str | None = Field(
        default=None, description="Stable id of this sidecar replica (default: hostname-pid)."
    )
    dev_mode: bool = Field(default=False, description="Development only: allow the public "
                           "development salt and checkpoint key when none is configured.")
    secrets_file: Path | None = Field(default=None, description="dotenv file holding "
                                      "GUARDIAN_AUDIT_SALT / GUARDIAN_AUDIT_CHECKPOINT_KEY "
                                      "(default <home>/secrets.env); env vars win over it.")

    # Signed tree heads of the audit trail (guardian.audit.heads / signing).
    audit_heads: bool = Field(default=True, description="Publish signed Merkle tree heads of "
                              "every audit chain outside the database (tamper evidence).")
    audit_heads_dir: Path | None = Field(default=None, description="Where signed heads go "
                                         "(default <home>/audit-heads); keep it off the DB host "
                                         "or replicate it (WORM bucket, witness).")
    audit_heads_every: int = Field(default=1000, ge=1, le=1 << 30, description="Publish a head after this "
                                   "many new records ...")
    audit_heads_interval_s: float = Field(default=10.0, gt=0, le=MAX_WAIT_S, description="... or after this "
                                          "long with new records (the window an append is "
                                          "unattested).")
    audit_heads_webhook: str | None = Field(default=None, description="Also POST every head "
                                            "(JSON) to this URL (a witness / log mirror).")
    audit_signing_key_file: Path | None = Field(default=None, description="Ed25519 key that "
                                                "signs heads (default <home>/audit-signing.key, "
                                                "mode 0600).")
    audit_trust_file: Path | None = Field(default=None, description="Pinned public keys of the "
                                          "replicas (default <home>/audit-trust.json).")

    # Browser safety. Comma-separated in the environment.
    trusted_hosts: Annotated[list[str] | None, NoDecode] = Field(
        default=None, description="Host header values served (e.g. `guardian.internal,10.0.0.5`; "
        "`*` = any). Default: localhost, 127.0.0.1, ::1 and `host`. Anything else gets 400, "
        "which stops DNS-rebinding pages.")
    allowed_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list, description="Browser origins (`https://ops.example.com`) allowed "
        "to send state-changing requests besides the sidecar's own; others get 403.")

    # Connection limits (applied by `guardian serve`; guardian.api.connections).
    # Off by default: uvicorn counts *open connections* against it too, so a flood of slow
    # heads would answer real requests 503 (measured); max_connections bounds both instead.
    limit_concurrency: int | None = Field(
        default=None, ge=1, le=1 << 24, description="uvicorn: with this many connections open or requests "
        "in progress, new requests get 503.")
    max_connections: int = Field(
        default=512, ge=1, le=1 << 24, description="Open connections at most: at the cap a new connection "
        "evicts the one idle the longest, or whose answer its client has not read for over a "
        "second (or is closed if all are busy). Bounds file "
        "descriptors and, as h11 runs one request per connection, requests in progress.")
    forwarded_allow_ips: str = Field(
        default="", max_length=4096, description="Comma-separated addresses (or *) of proxies "
        "whose X-Forwarded-For / X-Forwarded-Proto are believed: the client address an act's "
        "record keeps. Default: none - uvicorn's own default trusts 127.0.0.1, so any local "
        "caller could write the address an admin act records.")
    timeout_keep_alive: int = Field(default=5, ge=1, le=int(MAX_WAIT_S), description="uvicorn: "
                                    "seconds an idle keep-alive connection stays open.")
    timeout_header: float = Field(default=10.0, gt=0, le=MAX_WAIT_S, description="Seconds a client has to "
                                  "send a request's headers, from its first byte (or from "
                                  "connecting); then 408 and the connection is closed.")
    timeout_body: float = Field(default=30.0, gt=0, le=MAX_WAIT_S, description="Seconds a client has to send "
                                "a request's body once its headers are in; then the connection "
                                "is closed.")
    timeout_write: float = Field(default=30.0, gt=0, le=MAX_WAIT_S, description="Seconds a "
                                 "response may wait on a client that does not read it (the "
                                 "socket's send buffer full); then the connection is dropped.")
    h11_max_incomplete_event_size: int = Field(
        default=16 * 1024, ge=1024, description="uvicorn/h11: largest request line + headers, "
        "in bytes; larger gets 400.")

    @field_validator("trusted_hosts", "allowed_origins", mode="before")
    @classmethod
    def _split_commas(cls, value: object) -> object:
        if isinstance(value, str):
            return [v.strip() for v in value.split(",") if v.strip()]
        return value

    @field_validator("gamma_by_batch")
    @classmethod
    def _gamma_table(cls, value: dict[int, int]) -> dict[int, int]:
        for band, depth in value.items():
            if not 1 <= band <= 1 << 20 or not 0 <= depth <= MAX_GAMMA:
                raise ValueError(f"batch-size band {band} -> depth {depth}: bands are batch sizes "
                                 f"from 1, depths 0 (off) to {MAX_GAMMA}")
        return value

    @field_validator("audit_heads_webhook")
    @classmethod
    def _webhook(cls, value: str | None) -> str | None:
        if value is None:
            return None
        u = urlsplit(value)
        if (u.scheme.lower() not in ("http", "https") or not u.hostname
                or any(c.isspace() or not c.isprintable() for c in value)):
            raise ValueError("an http:// or https:// URL with a host (urllib would otherwise "
                             "open file:// or ftp:// URLs too)")
        return value

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{self.home / 'guardian.db'}"

    @property
    def spool_dir(self) -> Path:
        return self.home / "spool"

    @property
    def resolved_heads_dir(self) -> Path:
        return self.audit_heads_dir or self.home / "audit-heads"

    @property
    def resolved_secrets_file(self) -> Path:
        return self.secrets_file or self.home / SECRETS_FILE_NAME

    @property
    def resolved_trusted_hosts(self) -> list[str]:
        """Host header names served (IPv6 literals bracketed, as a Host header carries them)."""
        if self.trusted_hosts is not None:
            return [_host_header_form(h) for h in self.trusted_hosts]
        hosts = list(LOOPBACK_NAMES)
        if self.host not in ("0.0.0.0", "::"):  # a wildcard bind is no name clients use
            bound = _host_header_form(self.host)
            if bound not in hosts:
                hosts.append(bound)
        return hosts


def _host_header_form(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()

"""Sidecar settings, read from `GUARDIAN_*` environment variables (and an optional .env file).

Nothing is built at import time: call `get_settings()`; tests call `get_settings.cache_clear()`
after changing the environment.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


def _default_home() -> Path:
    return Path.home() / ".cache" / "spec-guardian"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="GUARDIAN_", env_file=".env", extra="ignore")

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
    policy_file: Path | None = Field(
        default=None, description="Policy YAML (default: policies/default.yaml)."
    )
    host: str = "127.0.0.1"
    port: int = 8000
    api_keys_file: Path | None = Field(
        default=None, description="API keys YAML (hashed keys + roles); none = open on loopback only."
    )
    torch_threads: int | None = Field(default=None, ge=1, description="torch intra-op threads.")
    replica_id: str | None = Field(
        default=None, description="Stable id of this sidecar replica (default: hostname-pid)."
    )

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{self.home / 'guardian.db'}"

    @property
    def spool_dir(self) -> Path:
        return self.home / "spool"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()

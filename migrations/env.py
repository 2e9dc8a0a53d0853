"""Alembic environment: the only way the schema changes.

URL precedence: `alembic -x url=...` > `sqlalchemy.url` set on the Config (what
`guardian.audit.migrate` does) > `guardian.settings.get_settings().resolved_database_url`.
A connection passed in `config.attributes["connection"]` is used as is.

Daily partitions of `audit_tokens` (`audit_tokens_pYYYYMMDD`) are created at run time, not
by revisions, so autogenerate/`alembic check` is told to ignore them.
"""

from __future__ import annotations

import re
from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection

from guardian.audit.models import Base
from guardian.core.db import make_engine

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logging", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata
_PARTITION = re.compile(r"^audit_tokens_p\d{8}$")


def include_name(name: str | None, type_: str, _parent: object) -> bool:
    return not (type_ == "table" and name is not None and _PARTITION.match(name))


def _url() -> str:
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url")
    if url:
        return url
    from guardian.settings import get_settings

    return get_settings().resolved_database_url


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      include_name=include_name, compare_type=True,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True,
                      include_name=include_name, dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(_url())
    try:
        with engine.connect() as conn:
            _run(conn)
            conn.commit()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()

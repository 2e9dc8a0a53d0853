"""What each reader role of a Postgres audit database resolves the audit tables' names to.

The audit tables live in `AUDIT_SCHEMA` (`public`), and every connection this project makes
pins `search_path` to it (`guardian.core.db.make_engine`), so the sidecar, `guardian audit`, the
dashboard and `verify` all read the same tables. A reader that connects some other way (psql,
a BI tool, a hand-configured dashboard) resolves unqualified names by its role's own
`search_path` - by default `"$user", public` - so a schema named after that role holding a
view `audit_requests` would show it other rows than verify walked, while verify (as
`postgres`) saw nothing wrong.

`reader_role_problems` names, for every role that can read the audit tables (those with
SELECT on them, plus `GUARDIAN_AUDIT_READER_ROLES`, comma-separated) the first relation its
effective `search_path` finds for each audit table name when that is not the table in
`AUDIT_SCHEMA`. The role's path is read from the catalogs (`ALTER ROLE ... [IN DATABASE ...]
SET search_path`, else the server's built-in default): a `postgresql.conf` value is not
visible to non-superusers and is taken as the default.
"""

from __future__ import annotations

import logging

import sqlalchemy as sa

log = logging.getLogger(__name__)

AUDIT_SCHEMA = "public"
READER_ROLES_ENV = "GUARDIAN_AUDIT_READER_ROLES"


def configured_roles() -> list[str]:
    from guardian.audit.config import TransparencySettings

    return [r.strip() for r in TransparencySettings().reader_roles.split(",") if r.strip()]


def parse_search_path(value: str, role: str) -> list[str]:
    """Schema names of a `search_path` setting, in order (`$user` is the role's name)."""
    out = []
    for item in value.split(","):
        name = item.strip()
        if name.startswith('"') and name.endswith('"') and len(name) >= 2:
            name = name[1:-1].replace('""', '"')
        else:
            name = name.lower()
        out.append(role if name == "$user" else name)
    return [s for s in out if s and s != "pg_temp"]


_PATH = sa.text(
    "SELECT s.setdatabase <> 0 AS per_db, s.setrole <> 0 AS per_role, cfg "
    "FROM pg_db_role_setting s, unnest(s.setconfig) AS cfg "
    "WHERE s.setrole IN (0, (SELECT oid FROM pg_roles WHERE rolname = :role)) "
    "AND s.setdatabase IN (0, (SELECT oid FROM pg_database WHERE datname = current_database())) "
    "AND cfg LIKE 'search_path=%'")
_READERS = sa.text(
    "SELECT rolname FROM pg_roles WHERE rolcanlogin "
    "AND has_table_privilege(oid, to_regclass(:table), 'SELECT') ORDER BY rolname")
_FIRST = sa.text(
    "SELECT n.nspname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
    "WHERE c.relname = :table AND n.nspname = :schema")


def effective_search_path(conn: sa.Connection, role: str) -> list[str]:
    rows = conn.execute(_PATH, {"role": role}).all()
    if rows:  # (db, role) over role over db, as Postgres applies them
        best = max(rows, key=lambda r: (r.per_db and r.per_role, r.per_role, r.per_db))
        return parse_search_path(best.cfg.split("=", 1)[1], role)
    default = conn.execute(sa.text(
        "SELECT boot_val FROM pg_settings WHERE name = 'search_path'")).scalar_one()
    return parse_search_path(default, role)


def reader_role_problems(conn: sa.Connection, tables: tuple[str, ...]) -> list[str]:
    table0 = f"{AUDIT_SCHEMA}.{tables[0]}"
    roles = sorted({*conn.execute(_READERS, {"table": table0}).scalars(), *configured_roles()})
    errors = []
    for role in roles:
        path = effective_search_path(conn, role)
        for table in tables:
            for schema in path:
                hit = conn.execute(_FIRST, {"table": table, "schema": schema}).first()
                if hit is None:
                    continue
                if schema != AUDIT_SCHEMA:
                    errors.append(
                        f"storage: reader role {role!r} resolves {table} to {schema}.{table} "
                        f"(relkind {hit.relkind!r}, search_path {', '.join(path)}), not "
                        f"{AUDIT_SCHEMA}.{table}: that role is shown what {schema}.{table} "
                        f"chooses, not what verify walked. Drop it, or pin the role's path: "
                        f"ALTER ROLE {role} SET search_path = {AUDIT_SCHEMA}")
                break
            else:
                if role in configured_roles():
                    errors.append(f"storage: reader role {role!r} (configured) does not "
                                  f"resolve {table} at all (search_path {', '.join(path)})")
    return errors

"""Alembic environment: runs the migrations on an async engine (aiosqlite or asyncpg).

The database URL is, in order: `config.attributes["url"]` (set by `app.store.migrate`), the
`DRAGO_DATABASE_URL` and then the `DATABASE_URL` environment variables (the server's settings read
the same two, in the same order), then `sqlalchemy.url` from `alembic.ini`. A caller may also
hand over an open sync connection, not in a transaction, as `config.attributes["connection"]`: the
run begins and commits its own.
"""

from __future__ import annotations

import asyncio
import os
from logging.config import fileConfig
from typing import Any, Literal

from alembic import context
from alembic.autogenerate.api import AutogenContext
from sqlalchemy import text
from sqlalchemy.engine import Connection

from app.store.migrate import async_url, migration_engine
from app.store.tables import UTCDateTime, metadata

# Any fixed number: serialises concurrent `upgrade`s of one PostgreSQL database, e.g. several
# server processes that all migrate on start.
_PG_MIGRATION_LOCK = 0x64726167

config = context.config
if config.config_file_name is not None:
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def _url() -> str:
    url = (
        config.attributes.get("url")
        or os.environ.get("DRAGO_DATABASE_URL")
        or os.environ.get("DATABASE_URL")
        or config.get_main_option("sqlalchemy.url")
    )
    if not url:
        raise RuntimeError("no database URL: set DRAGO_DATABASE_URL, DATABASE_URL or sqlalchemy.url")
    return async_url(url).render_as_string(hide_password=False)


def _render_item(type_: str, obj: Any, autogen_context: AutogenContext) -> str | Literal[False]:
    """Autogenerate writes the store's column types as plain SQLAlchemy types."""
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def _configure(**kwargs: Any) -> None:
    context.configure(
        target_metadata=metadata,
        compare_type=True,
        render_item=_render_item,
        **kwargs,
    )


def _run(connection: Connection) -> None:
    """The whole run in one transaction, begun before Alembic looks at the connection: Alembic
    then leaves it to us. Left alone, it commits after each migration on SQLite (whose DDL it takes
    for non-transactional), and the write lock (`BEGIN IMMEDIATE`, `app.store.migrate`) would lapse
    between two migrations: a migrator that had waited for it, having read the revision before,
    would run a migration again. On PostgreSQL the advisory lock lasts the same transaction."""
    with connection.begin():
        _configure(connection=connection, render_as_batch=connection.dialect.name == "sqlite")
        if connection.dialect.name == "postgresql":
            connection.execute(text(f"SELECT pg_advisory_xact_lock({_PG_MIGRATION_LOCK})"))
        context.run_migrations()


async def _run_async() -> None:
    engine = migration_engine(_url())
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run)
    finally:
        await engine.dispose()


if context.is_offline_mode():
    _configure(url=_url(), literal_binds=True, dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()
elif (connection := config.attributes.get("connection")) is not None:
    _run(connection)
else:
    asyncio.run(_run_async())

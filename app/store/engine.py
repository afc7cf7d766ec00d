"""Async engines for the event store: URL normalisation, SQLite pragmas, pool sizes.

Writes and reads get separate engines so each can be tuned for its job:

- SQLite (file): ONE writer connection (a second writer only queues on SQLite's file lock and makes
  tail latency much worse) and a small pool of read-only autocommit readers, which WAL lets run
  while the writer commits. `synchronous=FULL`: in WAL mode NORMAL skips the fsync at each commit,
  so a power cut or OS crash could lose the last committed actions; FULL keeps every commit that
  was acknowledged, which is what the design promises. `busy_timeout` makes a second process (or
  a migration) wait for the lock instead of failing at once.
- SQLite in memory is refused: every connection would be a database of its own, never migrated.
- PostgreSQL (asyncpg): one modest pool; reads run on it in autocommit mode, which saves the
  BEGIN/ROLLBACK round trips a transaction around a single SELECT would cost.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

SQLITE_WRITER_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=FULL",
    "PRAGMA busy_timeout=5000",
    "PRAGMA foreign_keys=ON",
)
SQLITE_READER_PRAGMAS = (
    "PRAGMA busy_timeout=5000",
    "PRAGMA query_only=ON",
)
SQLITE_READERS = 4
POSTGRES_POOL_SIZE = 10
POSTGRES_MAX_OVERFLOW = 10

_DRIVERS = {
    "sqlite": "sqlite+aiosqlite",
    "sqlite+pysqlite": "sqlite+aiosqlite",
    "postgres": "postgresql+asyncpg",
    "postgresql": "postgresql+asyncpg",
    "postgresql+psycopg": "postgresql+asyncpg",
    "postgresql+psycopg2": "postgresql+asyncpg",
}

# Compact JSON; non-ASCII names stay readable in the database.
_json_dumps = functools.partial(json.dumps, separators=(",", ":"), ensure_ascii=False)


def async_url(url: str | URL) -> URL:
    """The URL with the async driver this store uses (`sqlite://` → `sqlite+aiosqlite://`, …)."""
    u = make_url(url)
    driver = _DRIVERS.get(u.drivername, u.drivername)
    if driver not in ("sqlite+aiosqlite", "postgresql+asyncpg"):
        raise ValueError(f"unsupported database URL scheme {u.drivername!r}: use sqlite or postgresql")
    return u.set(drivername=driver)


def create_engines(url: str | URL) -> tuple[AsyncEngine, AsyncEngine]:
    """(writer, reader) engines for `url`; the reader may share the writer's pool."""
    u = async_url(url)
    if u.get_backend_name() == "postgresql":
        writer = create_async_engine(
            u,
            pool_size=POSTGRES_POOL_SIZE,
            max_overflow=POSTGRES_MAX_OVERFLOW,
            pool_recycle=1800,
            json_serializer=_json_dumps,
        )
        return writer, writer.execution_options(isolation_level="AUTOCOMMIT")
    if u.database in (None, "", ":memory:"):
        raise ValueError("in-memory SQLite is not supported: use a file, or app.store.memory")
    writer = create_async_engine(u, pool_size=1, max_overflow=0, json_serializer=_json_dumps)
    _on_connect(writer, SQLITE_WRITER_PRAGMAS)
    reader = create_async_engine(
        u,
        pool_size=SQLITE_READERS,
        max_overflow=0,
        isolation_level="AUTOCOMMIT",
        skip_autocommit_rollback=True,
        json_serializer=_json_dumps,
    )
    _on_connect(reader, SQLITE_READER_PRAGMAS)
    return writer, reader


def create_migration_engine(url: str | URL) -> AsyncEngine:
    """A pool-less engine for Alembic. On SQLite it runs each migration run in `BEGIN IMMEDIATE`:
    atomic (pysqlite would otherwise autocommit each DDL statement) and one migrator at a time."""
    u = async_url(url)
    engine = create_async_engine(u, poolclass=NullPool)
    if u.get_backend_name() == "sqlite":
        _on_connect(engine, ("PRAGMA journal_mode=WAL", "PRAGMA busy_timeout=5000"), manual_begin=True)

        @event.listens_for(engine.sync_engine, "begin")
        def _begin(conn: Connection) -> None:
            conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def _on_connect(engine: AsyncEngine, pragmas: tuple[str, ...], manual_begin: bool = False) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _set_pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        try:
            for pragma in pragmas:
                cursor.execute(pragma)
        finally:
            cursor.close()
        if manual_begin:
            dbapi_connection.isolation_level = None  # pysqlite: we emit BEGIN ourselves

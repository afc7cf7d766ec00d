"""Where the store's SQL runs: engines, pragmas, pools, and the hand-off from the event loop.

The store writes its queries once, as synchronous SQLAlchemy Core work `work(conn, *args)`. A
`Database` runs such work in a write transaction or on a read connection:

- PostgreSQL: `PostgresDatabase`, asyncpg under SQLAlchemy's async engine (`run_sync`). One fixed
  pool of 10; reads run in autocommit mode, which saves the BEGIN/COMMIT round trips that a
  transaction around one statement costs. The hot path (append as ONE statement, read after a
  seq) skips SQLAlchemy for raw asyncpg: `app.store.postgres_fast`.
- SQLite: `SQLiteDatabase`, the standard `sqlite3` driver in worker threads. ONE writer thread
  with ONE connection (more writers only queue on SQLite's file lock and make tail latency much
  worse) and a few read-only autocommit readers, which WAL lets read while the writer commits. A
  whole transaction is a single hand-off to its thread; aiosqlite hands off every cursor call
  (three or four per statement), which measured 2.4 times fewer appends per second.

SQLite pragmas: WAL; `synchronous=FULL`, because in WAL mode NORMAL skips the fsync at each commit,
so a power cut could lose actions already acknowledged, and the design promises that a crash loses
no committed action; `busy_timeout` so a second process or a migration waits for the lock instead
of failing at once; `foreign_keys=ON`, off by default in SQLite.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Concatenate, ParamSpec, Protocol, TypeAlias, TypeVar

import orjson
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from app.store.postgres_fast import FastPostgres
from app.store.tables import json_text

SQLITE_WRITER_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=FULL",
    "PRAGMA busy_timeout=5000",
    "PRAGMA foreign_keys=ON",
)
SQLITE_READER_PRAGMAS = ("PRAGMA busy_timeout=5000", "PRAGMA query_only=ON")
SQLITE_READERS = 4
POSTGRES_POOL_SIZE = 10
# No overflow: under a load that swings around the pool size, overflow connections are closed and
# reopened over and over (each costs a PostgreSQL backend start-up); that measured 2.6 times fewer
# moves per second at 16 concurrent matches than a fixed pool, where extra requests just queue.
POSTGRES_MAX_OVERFLOW = 0

_DRIVERS = {
    "sqlite": "sqlite+aiosqlite",
    "sqlite+pysqlite": "sqlite+aiosqlite",
    "postgres": "postgresql+asyncpg",
    "postgresql": "postgresql+asyncpg",
    "postgresql+psycopg": "postgresql+asyncpg",
    "postgresql+psycopg2": "postgresql+asyncpg",
}


# Compact JSON; non-ASCII names stay readable in the database.

P = ParamSpec("P")
T = TypeVar("T")
Work: TypeAlias = Callable[Concatenate[Connection, P], T]
"""Synchronous Core work on one connection; its return value is handed back."""


class Database(Protocol):
    async def write(self, work: Work[P, T], /, *args: P.args, **kw: P.kwargs) -> T:
        """Run `work` in one transaction on the writer: committed if it returns, else rolled back."""
        ...

    async def read(self, work: Work[P, T], /, *args: P.args, **kw: P.kwargs) -> T:
        """Run `work` on a reader connection (autocommit: each statement sees the latest commit)."""
        ...

    async def close(self) -> None: ...


class PostgresDatabase:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")  # same pool
        self.fast = FastPostgres(engine.url)  # append and read-after-seq on raw asyncpg

    async def write(self, work: Work[P, T], /, *args: P.args, **kw: P.kwargs) -> T:
        async with self.engine.begin() as conn:
            return await conn.run_sync(work, *args, **kw)

    async def autocommit(self, work: Work[P, T], /, *args: P.args, **kw: P.kwargs) -> T:
        """Run `work` without BEGIN/COMMIT round trips: each statement is its own transaction.
        For reads, and for writes that are one statement."""
        async with self._autocommit.connect() as conn:
            return await conn.run_sync(work, *args, **kw)

    read = autocommit

    async def close(self) -> None:
        try:
            await self.fast.close()
        finally:
            await self.engine.dispose()


class SQLiteDatabase:
    def __init__(self, writer: Engine, reader: Engine, readers: int) -> None:
        self.writer = writer
        self.reader = reader
        self._writer_thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite-writer")
        self._reader_threads = ThreadPoolExecutor(readers, thread_name_prefix="sqlite-reader")

    async def write(self, work: Work[P, T], /, *args: P.args, **kw: P.kwargs) -> T:
        def run() -> T:
            with self.writer.begin() as conn:
                return work(conn, *args, **kw)

        return await asyncio.get_running_loop().run_in_executor(self._writer_thread, run)

    async def write_raw(
        self, work: Callable[Concatenate[sqlite3.Connection, P], T], /, *args: P.args, **kw: P.kwargs
    ) -> T:
        """Run `work` on the writer's raw `sqlite3` connection in one transaction (the hot path)."""

        def run() -> T:
            with self.writer.connect() as conn:
                raw = conn.connection.driver_connection
                assert isinstance(raw, sqlite3.Connection)
                try:
                    result = work(raw, *args, **kw)
                except BaseException:
                    raw.rollback()
                    raise
                raw.commit()
                return result

        return await asyncio.get_running_loop().run_in_executor(self._writer_thread, run)

    async def read(self, work: Work[P, T], /, *args: P.args, **kw: P.kwargs) -> T:
        def run() -> T:
            with self.reader.connect() as conn:
                return work(conn, *args, **kw)

        return await asyncio.get_running_loop().run_in_executor(self._reader_threads, run)

    async def close(self) -> None:
        await asyncio.to_thread(self._close)

    def _close(self) -> None:
        self._writer_thread.shutdown()
        self._reader_threads.shutdown()
        self.reader.dispose()
        self.writer.dispose()


def async_url(url: str | URL) -> URL:
    """The URL with the async driver (`sqlite://` → `sqlite+aiosqlite://`, `postgres://` → …)."""
    u = make_url(url)
    driver = _DRIVERS.get(u.drivername, u.drivername)
    if driver not in ("sqlite+aiosqlite", "postgresql+asyncpg"):
        raise ValueError(f"unsupported database URL scheme {u.drivername!r}: use sqlite or postgresql")
    return u.set(drivername=driver)


def create_database(url: str | URL) -> Database:
    """The `Database` for `url`, set up as the module docstring says."""
    u = async_url(url)
    return _postgres(u) if u.get_backend_name() == "postgresql" else _sqlite(u)


def _postgres(u: URL) -> PostgresDatabase:
    engine = create_async_engine(
        u,
        pool_size=POSTGRES_POOL_SIZE,
        max_overflow=POSTGRES_MAX_OVERFLOW,
        pool_recycle=1800,
        json_serializer=json_text,
        json_deserializer=orjson.loads,
    )
    return PostgresDatabase(engine)


def _sqlite(u: URL) -> SQLiteDatabase:
    if u.database in (None, "", ":memory:"):
        raise ValueError("in-memory SQLite is not supported: use a file, or app.store.memory")
    u = u.set(drivername="sqlite+pysqlite")
    common: dict[str, Any] = {
        "max_overflow": 0,
        "json_serializer": json_text,
        "json_deserializer": orjson.loads,
        "connect_args": {"check_same_thread": False},  # pooled connections move between threads
    }
    writer = create_engine(u, pool_size=1, **common)
    _on_connect(writer, SQLITE_WRITER_PRAGMAS)
    reader = create_engine(
        u, pool_size=SQLITE_READERS, isolation_level="AUTOCOMMIT", skip_autocommit_rollback=True, **common
    )
    _on_connect(reader, SQLITE_READER_PRAGMAS)
    return SQLiteDatabase(writer, reader, SQLITE_READERS)


def create_migration_engine(url: str | URL) -> AsyncEngine:
    """A pool-less engine for Alembic. On SQLite it runs each migration run in `BEGIN IMMEDIATE`:
    atomic (pysqlite would otherwise autocommit each DDL statement) and one migrator at a time."""
    u = async_url(url)
    engine = create_async_engine(u, poolclass=NullPool)
    if u.get_backend_name() == "sqlite":
        _on_connect(engine.sync_engine, ("PRAGMA journal_mode=WAL", "PRAGMA busy_timeout=5000"))

        @event.listens_for(engine.sync_engine, "connect")
        def _manual_begin(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.isolation_level = None  # pysqlite: we emit BEGIN ourselves

        @event.listens_for(engine.sync_engine, "begin")
        def _begin(conn: Connection) -> None:
            conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def _on_connect(engine: Engine, pragmas: tuple[str, ...]) -> None:
    @event.listens_for(engine, "connect")
    def _set_pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        try:
            for pragma in pragmas:
                cursor.execute(pragma)
        finally:
            cursor.close()

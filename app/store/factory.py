"""Choosing the event store for a database URL: `create_store(url, pool_size=...)`.

Accepted URLs (the settings' `database_url`): `memory://` (the in-memory twin, nothing persists),
`sqlite:///relative/path.db` or `sqlite:////absolute/path.db` (driver suffixes such as
`+aiosqlite` are accepted and ignored), and `postgresql://…`, `postgres://…` or
`postgresql+asyncpg://…`. The schema must exist already: run `app.store.migrate.upgrade(url)`
first. Connections per process: PostgreSQL keeps one pool of `pool_size` connections; SQLite
keeps one writer connection plus `pool_size` reader connections, each in its own thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote

from app.store.memory import MemoryEventStore
from app.store.postgres import PostgresEventStore
from app.store.sqlite import SqliteEventStore

DEFAULT_POOL_SIZE = 8
MEMORY_URL = "memory://"

_SQLITE = ("sqlite", "sqlite+aiosqlite", "sqlite+pysqlite")
_POSTGRES = ("postgresql", "postgres", "postgresql+asyncpg", "postgresql+psycopg", "postgresql+psycopg2")


@dataclass(frozen=True, slots=True)
class DatabaseUrl:
    """A parsed database URL: the SQLite file path, or the DSN asyncpg connects with."""

    backend: Literal["sqlite", "postgresql"]
    target: str


def parse_url(url: str) -> DatabaseUrl:
    """Parse an SQLite or PostgreSQL URL as `create_store` accepts it; `ValueError` otherwise."""
    scheme, sep, rest = url.partition("://")
    scheme = scheme.lower()
    if sep and scheme in _SQLITE:
        path = unquote(rest.partition("?")[0][1:])  # `sqlite:///x` is `x`, `sqlite:////x` is `/x`
        if path in ("", ":memory:"):
            raise ValueError("in-memory SQLite is not supported: use a file, or memory://")
        return DatabaseUrl("sqlite", path)
    if sep and scheme in _POSTGRES:
        return DatabaseUrl("postgresql", f"postgresql://{rest}")
    raise ValueError(f"unsupported database URL scheme {scheme!r}: use sqlite, postgresql or memory")


def create_store(
    url: str, *, pool_size: int = DEFAULT_POOL_SIZE
) -> SqliteEventStore | PostgresEventStore | MemoryEventStore:
    """The event store for `url`. Opens nothing yet: connections open on first use."""
    if url == MEMORY_URL:
        return MemoryEventStore()
    if pool_size < 1:
        raise ValueError(f"pool_size must be at least 1, not {pool_size}")
    db = parse_url(url)
    if db.backend == "sqlite":
        return SqliteEventStore(db.target, readers=pool_size)
    return PostgresEventStore(db.target, pool_size=pool_size)

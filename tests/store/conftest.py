"""The event store under test, one per backend: memory, SQLite (a fresh migrated file per test) and
PostgreSQL (one migrated database per run; tests keep apart by using fresh ids, and by times of
their own where a query spans every match)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from app.service.ports import EventStore
from app.store.factory import create_store
from app.store.memory import MemoryEventStore
from app.store.migrate import upgrade

BACKENDS = ["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
SQL_BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(scope="session")
def migrated_postgres_url(postgres_url: str) -> str:
    upgrade(postgres_url)
    return postgres_url


@pytest.fixture
def migrated_sqlite_url(sqlite_url: str) -> str:
    upgrade(sqlite_url)
    return sqlite_url


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest) -> str | None:
    """The migrated database a `store` runs on; None for the in-memory twin.

    Synchronous on purpose: migrating runs its own event loop, which it cannot do inside one.
    """
    if request.param == "memory":
        return None
    url: str = request.getfixturevalue(f"migrated_{request.param}_url")
    return url


@pytest.fixture
async def store(store_url: str | None) -> AsyncIterator[EventStore]:
    s: EventStore = MemoryEventStore() if store_url is None else create_store(store_url)
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture(params=SQL_BACKENDS)
def sql_url(request: pytest.FixtureRequest) -> str:
    url: str = request.getfixturevalue(f"migrated_{request.param}_url")
    return url

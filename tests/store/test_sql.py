"""What only the SQL store has: engine set-up, the unique-violation path, several processes."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import Connection, insert
from sqlalchemy.exc import StatementError
from sqlalchemy.pool import AsyncAdaptedQueuePool, QueuePool

from app.service.ports import MatchUpdate, NewEvent, VersionConflict
from app.store.engine import PostgresDatabase, SQLiteDatabase, async_url
from app.store.sql import SqlEventStore, create_store
from app.store.tables import events

from .test_contract import ACTIVE, T0, event, idem, new_match

SQL_BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=SQL_BACKENDS)
def sql_url(request: pytest.FixtureRequest) -> str:
    url: str = request.getfixturevalue(f"migrated_{request.param}_url")
    return url


@pytest.fixture
async def sql_store(sql_url: str) -> AsyncIterator[SqlEventStore]:
    store = create_store(sql_url)
    try:
        yield store
    finally:
        await store.close()


def _pragmas(conn: Connection) -> list[object]:
    names = ("journal_mode", "synchronous", "busy_timeout", "foreign_keys", "query_only")
    return [conn.exec_driver_sql(f"PRAGMA {name}").scalar() for name in names]


async def test_sqlite_pragmas_threads_and_pools(migrated_sqlite_url: str) -> None:
    store = create_store(migrated_sqlite_url)
    try:
        db = store.db
        assert isinstance(db, SQLiteDatabase)
        assert await db.write(_pragmas) == ["wal", 2, 5000, 1, 0]  # synchronous 2 = FULL
        assert (await db.read(_pragmas))[-1] == 1  # readers cannot write
        assert isinstance(db.writer.pool, QueuePool) and db.writer.pool.size() == 1
        assert db.writer.pool._max_overflow == 0
        assert await db.write(_thread_name) == "sqlite-writer_0"  # the one writer thread
    finally:
        await store.close()


def _thread_name(_conn: Connection) -> str:
    return threading.current_thread().name


@pytest.mark.postgres
async def test_postgres_pool_is_fixed(migrated_postgres_url: str) -> None:
    store = create_store(migrated_postgres_url)
    try:
        assert isinstance(store.db, PostgresDatabase)
        pool = store.db.engine.sync_engine.pool
        assert isinstance(pool, AsyncAdaptedQueuePool) and pool.size() == 10 and pool._max_overflow == 0
    finally:
        await store.close()


def test_urls_get_the_async_driver() -> None:
    assert str(async_url("sqlite:///drago.db")) == "sqlite+aiosqlite:///drago.db"
    assert str(async_url("postgres://u@h/db")) == "postgresql+asyncpg://u@h/db"
    assert str(async_url("postgresql+asyncpg://u@h/db")) == "postgresql+asyncpg://u@h/db"
    with pytest.raises(ValueError, match="unsupported"):
        async_url("mysql://u@h/db")
    with pytest.raises(ValueError, match="in-memory"):
        create_store("sqlite://")


async def test_ping(sql_store: SqlEventStore) -> None:
    await sql_store.ping()


async def test_ping_fails_when_the_database_is_unreachable() -> None:
    store = create_store("postgresql+asyncpg://nobody@127.0.0.1:9/none")
    try:
        with pytest.raises(OSError):
            await store.ping()
    finally:
        await store.close()


async def test_a_taken_seq_becomes_a_conflict_and_nothing_is_written(sql_store: SqlEventStore) -> None:
    # The projection says seq 0 but the events table already holds seq 1: the insert, not the
    # UPDATE, catches it, and the UPDATE is rolled back with it.
    match_id = await new_match(sql_store)
    intruder = {"match_id": match_id, "seq": 1, "type": "intruder", "data": {}, "recorded_at": T0}
    await sql_store.db.write(lambda conn: conn.execute(insert(events), intruder))
    with pytest.raises(VersionConflict):
        await sql_store.append(match_id, 0, [event(1)], ACTIVE, T0, idem(match_id))
    match = await sql_store.get_match(match_id)
    assert match is not None and (match.seq, match.status) == (0, "waiting")
    assert [e.type for e in await sql_store.read(match_id)] == ["intruder"]
    assert await sql_store.get_idempotent(match_id, 0, "k1") is None


async def test_naive_datetimes_are_refused(sql_store: SqlEventStore) -> None:
    match_id = await new_match(sql_store)
    with pytest.raises((StatementError, ValueError), match="naive datetime"):
        await sql_store.append(match_id, 0, [event(1)], ACTIVE, T0.replace(tzinfo=None))
    assert await sql_store.read(match_id) == []


async def test_two_processes_share_one_sqlite_file(migrated_sqlite_url: str) -> None:
    # Two stores = two writer connections on one file, as two server processes would have:
    # busy_timeout makes them take turns, the seq check keeps the stream gap-free.
    stores = [create_store(migrated_sqlite_url) for _ in range(2)]
    try:
        match_id = await new_match(stores[0])

        async def writer(w: int) -> None:
            store = stores[w % 2]
            for i in range(10):
                while True:
                    match = await store.get_match(match_id)
                    assert match is not None
                    try:
                        update = MatchUpdate("active", (w,))
                        await store.append(match_id, match.seq, [NewEvent("e", {"w": w, "i": i})], update, T0)
                        break
                    except VersionConflict:
                        await asyncio.sleep(0)

        await asyncio.gather(*(writer(w) for w in range(4)))
        stored = await stores[1].read(match_id)
        assert [e.seq for e in stored] == list(range(1, 41))
        assert len({(e.data["w"], e.data["i"]) for e in stored}) == 40
    finally:
        for store in stores:
            await store.close()

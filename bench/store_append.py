"""Micro-benchmark of the event store's hot path, run by hand.

Appends/s of a one-event `append` (with its projection update), next to a bare INSERT+COMMIT of
the same row as `bench-reference/game_app.py` does it (SQLAlchemy async engine: aiosqlite with one
connection, or asyncpg with a pool of 5) and through the raw driver; then `read(after=…)` and
`get_match` per second. One writer awaiting each call in turn (latency-bound), and 16 matches
written concurrently.

    python bench/store_append.py                        # SQLite (a temp file)
    python bench/store_append.py --pg postgresql+asyncpg://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
from sqlalchemy import event, insert
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.service.ports import MatchRecord, MatchUpdate, NewEvent, SeatRecord
from app.store.migrate import upgrade_async
from app.store.sql import SqlEventStore, create_store
from app.store.tables import events

UPDATE = MatchUpdate(status="active", to_act=(1,))
DATA = {"player": 0, "card_index": 3, "card": 17, "drawn_index": 12}


async def new_match(store: SqlEventStore) -> str:
    now = datetime.now(UTC)
    m = MatchRecord(f"b-{uuid.uuid4().hex}", "bench", 2, {}, "active", 0, now, now, "s", "c", (0,))
    await store.create_match(m, [SeatRecord(m.id, 0), SeatRecord(m.id, 1)])
    return m.id


async def rate(n: int, writers: int, step: Callable[[int, int], Awaitable[None]]) -> float:
    """Calls/s of `step(writer, i)` for i < n, `writers` of them running concurrently."""

    async def run(w: int) -> None:
        for i in range(n):
            await step(w, i)

    t = time.perf_counter()
    await asyncio.gather(*(run(w) for w in range(writers)))
    return writers * n / (time.perf_counter() - t)


async def bench(url: str, total: int, concurrency: list[int], repeat: int) -> None:
    await upgrade_async(url)
    store = create_store(url)
    reference = reference_engine(url)
    try:
        for writers in concurrency:
            n = total // writers
            figures: dict[str, list[float]] = {}
            for _ in range(repeat):
                ids = [await new_match(store) for _ in range(writers)]
                seqs = dict.fromkeys(ids, 0)

                async def append(w: int, i: int, ids: list[str] = ids, seqs: dict[str, int] = seqs) -> None:
                    m = ids[w]
                    seqs[m] = await store.append(m, seqs[m], [NewEvent("card_played", DATA)], UPDATE, now())

                figures.setdefault("store.append", []).append(await rate(n, writers, append))

                base = [await new_match(store) for _ in range(writers)]

                async def sa_insert(w: int, i: int, base: list[str] = base) -> None:
                    async with reference.begin() as conn:
                        await conn.execute(_INSERT, _row(base[w], i + 1))

                figures.setdefault("reference INSERT+COMMIT", []).append(await rate(n, writers, sa_insert))
                raw = await raw_insert(url, [await new_match(store) for _ in range(writers)])
                figures.setdefault("raw driver INSERT+COMMIT", []).append(await rate(n, writers, raw.step))
                await raw.close()

                async def read(w: int, i: int, ids: list[str] = ids, seqs: dict[str, int] = seqs) -> None:
                    await store.read(ids[w], after=seqs[ids[w]] - 1)

                async def get(w: int, i: int, ids: list[str] = ids) -> None:
                    await store.get_match(ids[w])

                figures.setdefault("store.read(after=last-1)", []).append(await rate(n, writers, read))
                figures.setdefault("store.get_match", []).append(await rate(n, writers, get))
            print(f"{make_url(url).get_backend_name()}, {writers} concurrent writer(s), median of {repeat}:")
            for name, values in figures.items():
                print(f"  {name:28s} {statistics.median(values):8.0f} /s")
    finally:
        await reference.dispose()
        await store.close()


_INSERT = insert(events)


def reference_engine(url: str) -> AsyncEngine:
    """The engine `bench-reference/game_app.py` inserts with."""
    u = make_url(url)
    if u.get_backend_name() == "postgresql":
        return create_async_engine(u, pool_size=5, max_overflow=0)
    engine = create_async_engine(u, pool_size=1, max_overflow=0)

    @event.listens_for(engine.sync_engine, "connect")
    def _pragmas(dbapi_conn: Any, _rec: Any) -> None:
        cur = dbapi_conn.cursor()
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "busy_timeout=5000", "foreign_keys=ON"):
            cur.execute(f"PRAGMA {pragma}")
        cur.close()

    return engine


def now() -> datetime:
    return datetime.now(UTC)


def _row(match_id: str, seq: int) -> dict[str, object]:
    return {"match_id": match_id, "seq": seq, "type": "card_played", "data": DATA, "recorded_at": now()}


class RawInsert:
    """INSERT+COMMIT through the driver alone: one aiosqlite connection, or an asyncpg pool."""

    def __init__(self, step: Callable[[int, int], Awaitable[None]], close: Callable[[], Awaitable[None]]):
        self.step = step
        self.close = close


async def raw_insert(url: str, ids: list[str]) -> RawInsert:
    u = make_url(url)
    sql = "INSERT INTO events (match_id, seq, type, data, recorded_at) VALUES ({})"
    payload = '{"player":0,"card_index":3,"card":17,"drawn_index":12}'
    if u.get_backend_name() == "sqlite":
        db = await aiosqlite.connect(u.database or "")
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "busy_timeout=5000", "foreign_keys=ON"):
            await db.execute(f"PRAGMA {pragma}")
        q = sql.format("?, ?, ?, ?, ?")
        one_transaction_at_a_time = asyncio.Lock()  # else a commit takes other writers' rows along

        async def sqlite_step(w: int, i: int) -> None:
            async with one_transaction_at_a_time:
                await db.execute(q, (ids[w], i + 1, "card_played", payload, now().isoformat()))
                await db.commit()

        return RawInsert(sqlite_step, db.close)
    pool = await asyncpg.create_pool(
        host=u.host, port=u.port, user=u.username, password=u.password, database=u.database, max_size=10
    )
    q = sql.format("$1, $2, $3, $4, $5")

    async def pg_step(w: int, i: int) -> None:
        async with pool.acquire() as conn, conn.transaction():
            await conn.execute(q, ids[w], i + 1, "card_played", payload, now())

    return RawInsert(pg_step, pool.close)


async def bench_pg(server: str, total: int, concurrency: list[int], repeat: int) -> None:
    u = make_url(server)
    name = f"drago_bench_{uuid.uuid4().hex[:8]}"

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(
            host=u.host, port=u.port, user=u.username, password=u.password, database=u.database
        )
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    await admin(f'CREATE DATABASE "{name}"')
    try:
        url = u.set(drivername="postgresql+asyncpg", database=name).render_as_string(hide_password=False)
        await bench(url, total, concurrency, repeat)
    finally:
        await admin(f'DROP DATABASE "{name}" WITH (FORCE)')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg", help="PostgreSQL server URL (a scratch database is created on it)")
    parser.add_argument("--n", type=int, default=2000, help="calls per figure, split among the writers")
    parser.add_argument("--concurrency", default="1,16")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    concurrency = [int(c) for c in args.concurrency.split(",")]
    if args.pg:
        asyncio.run(bench_pg(args.pg, args.n, concurrency, args.repeat))
        return
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        asyncio.run(bench(url, args.n, concurrency, args.repeat))


if __name__ == "__main__":
    main()

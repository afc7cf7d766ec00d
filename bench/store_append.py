"""Benchmark of the event stores, run by hand; prints figures, asserts nothing.

1. Appends/s of a one-event `append` (with its projection update) for 1 and 16 concurrent
   writers (each on its own match): the store with group commit, the same store with batching off
   (`max_batch=1`: one transaction per append, one at a time), next to a
   bare INSERT+COMMIT of the same row, through SQLAlchemy's async engine as `bench-reference`
   does it and through the raw driver. Median of `--repeat` runs; also `read(after=last-1)`/s.
2. `read()` of a 10,000-event match (commits of two events) from a store just opened: cold is
   the first read after opening (the OS page cache stays warm), warm the median of the next ones.
3. The lobby over 100,000 matches: median ms of a page (and its total) for several filters.

    python -m bench.store_append                        # SQLite (a temp file)
    python -m bench.store_append --pg postgresql://postgres@127.0.0.1:5432/test   # both
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

from app.service.ports import Append, MatchFilter, MatchRecord, MatchUpdate, NewEvent, SeatRecord
from app.store.factory import parse_url
from app.store.migrate import upgrade_async
from app.store.postgres import PostgresEventStore
from app.store.rows import sqlite_time
from app.store.sqlite import SqliteEventStore
from app.store.tables import events
from bench.proc import postgres_cpu_seconds

Store = SqliteEventStore | PostgresEventStore
UPDATE = MatchUpdate(status="active", to_act=(1,))
DATA = {"player": 0, "card_index": 3, "card": 17, "drawn_index": 12}
PAYLOAD = '{"player":0,"card_index":3,"card":17,"drawn_index":12}'
POOL = 8


def now() -> datetime:
    return datetime.now(UTC)


def open_store(url: str, variant: str = "group commit") -> Store:
    """The store as the server opens it, or a variant the benchmark compares it with."""
    db = parse_url(url)
    if db.backend == "sqlite":
        return SqliteEventStore(db.target, readers=POOL, max_batch=1 if variant == "no batching" else 256)
    if variant == "no batching":  # one transaction per append
        return PostgresEventStore(db.target, pool_size=POOL, max_batch=1)
    return PostgresEventStore(db.target, pool_size=POOL)  # one batch in flight


def variants(url: str) -> list[str]:
    return ["group commit", "no batching"]


async def new_match(store: Store, created: datetime | None = None) -> str:
    t = created or now()
    m = MatchRecord(f"b-{uuid.uuid4().hex}", "bench", 2, {}, "active", 0, t, t, "s", "c", (0,))
    await store.create_match(m, [SeatRecord(m.id, 0), SeatRecord(m.id, 1)])
    return m.id


async def rate(
    n: int, writers: int, step: Callable[[int, int], Awaitable[None]]
) -> tuple[float, float, float]:
    """Calls/s of `step(writer, i)` for i < n, `writers` of them running concurrently, this
    process's CPU µs per call (all threads: steadier than calls/s on a shared machine) and the
    local PostgreSQL processes' CPU µs per call (0 on SQLite)."""

    async def run(w: int) -> None:
        for i in range(n):
            await step(w, i)

    t, cpu, db = time.perf_counter(), time.process_time(), postgres_cpu_seconds()
    await asyncio.gather(*(run(w) for w in range(writers)))
    calls = writers * n
    db_cpu = (postgres_cpu_seconds() - db) / calls * 1e6
    return calls / (time.perf_counter() - t), (time.process_time() - cpu) / calls * 1e6, db_cpu


def transactions(store: Store) -> int:
    return store.writer.batches if isinstance(store, SqliteEventStore) else store.appender.batches


async def store_rate(
    store: Store, n: int, writers: int
) -> tuple[tuple[float, float, float], float, tuple[float, float, float]]:
    """Appends/s, appends per transaction, then reads/s of the last event, on fresh matches."""
    ids = [await new_match(store) for _ in range(writers)]
    seqs = dict.fromkeys(ids, 0)

    async def step(w: int, i: int) -> None:
        m = ids[w]
        seqs[m] = (
            await store.append(Append(m, seqs[m], (NewEvent("card_played", DATA),), UPDATE, now()))
        ).seq

    async def read(w: int, i: int) -> None:
        await store.read(ids[w], after=seqs[ids[w]] - 1)

    before = transactions(store)
    appended = await rate(n, writers, step)
    per_transaction = n * writers / (transactions(store) - before)
    return appended, per_transaction, await rate(n, writers, read)


Figures = dict[str, list[tuple[float, float, float]]]  # (per second, CPU µs per call, the database's)


async def appends(url: str, total: int, concurrency: list[int], repeat: int) -> None:
    backend = parse_url(url).backend
    stores = {variant: open_store(url, variant) for variant in variants(url)}
    reference = reference_engine(url)
    try:
        for writers in concurrency:
            figures: Figures = {}
            order = [*stores, "reference", "raw driver"]
            for r in range(repeat):  # each run in another order: no variant always goes first
                for name in order[r % len(order) :] + order[: r % len(order)]:
                    await measure(name, url, stores, reference, total // writers, writers, figures)
            print(f"{backend}, {writers} concurrent writer(s), median of {repeat}:")
            first = ["store.append, group commit", "  appends per transaction"]
            for name in first + sorted(set(figures) - set(first)):
                per_s = statistics.median(f[0] for f in figures[name])
                cpu = statistics.median(f[1] for f in figures[name])
                db = statistics.median(f[2] for f in figures[name])
                line = f"  {name:40s} {per_s:8.1f}"
                db_line = f", PostgreSQL {db:4.0f} µs" if backend == "postgresql" else ""
                print(line if name.startswith(" ") else f"{line} /s  {cpu:6.0f} µs CPU/call{db_line}")
    finally:
        await reference.dispose()
        for store in stores.values():
            await store.close()


async def measure(
    name: str,
    url: str,
    stores: dict[str, Store],
    reference: AsyncEngine,
    n: int,
    writers: int,
    figures: Figures,
) -> None:
    """One run of one variant: a store, or a bare INSERT+COMMIT ("reference" or "raw driver")."""
    if name in stores:
        appended, per_transaction, read = await store_rate(stores[name], n, writers)
        figures.setdefault(f"store.append, {name}", []).append(appended)
        if name == "group commit":
            figures.setdefault("  appends per transaction", []).append((per_transaction, 0.0, 0.0))
            figures.setdefault("store.read(after=last-1)", []).append(read)
        return
    ids = [await new_match(stores["group commit"]) for _ in range(writers)]
    close = None
    step: Callable[[int, int], Awaitable[None]]
    if name == "reference":

        async def step(w: int, i: int) -> None:
            async with reference.begin() as conn:
                await conn.execute(insert(events), _row(ids[w], i + 1))

    else:
        step, close = await raw_insert(url, ids)
    figures.setdefault(f"bare INSERT+COMMIT, {name}", []).append(await rate(n, writers, step))
    if close is not None:
        await close()


def reference_engine(url: str) -> AsyncEngine:
    """The engine `bench-reference/game_app.py` inserts with."""
    u = make_url(url)
    if u.get_backend_name() == "postgresql":
        return create_async_engine(u.set(drivername="postgresql+asyncpg"), pool_size=5, max_overflow=0)
    engine = create_async_engine(u.set(drivername="sqlite+aiosqlite"), pool_size=1, max_overflow=0)

    @event.listens_for(engine.sync_engine, "connect")
    def _pragmas(dbapi_conn: Any, _rec: Any) -> None:
        cur = dbapi_conn.cursor()
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "busy_timeout=5000", "foreign_keys=ON"):
            cur.execute(f"PRAGMA {pragma}")
        cur.close()

    return engine


def _row(match_id: str, seq: int) -> dict[str, object]:
    return {"match_id": match_id, "seq": seq, "commit_seq": seq, "type": "card_played", "data": DATA,
            "recorded_at": now()}  # fmt: skip


async def raw_insert(url: str, ids: list[str]) -> tuple[Callable[[int, int], Awaitable[None]], Any]:
    """INSERT+COMMIT through the driver alone: one aiosqlite connection, or an asyncpg pool."""
    db = parse_url(url)
    sql = "INSERT INTO events (match_id, seq, commit_seq, type, data, recorded_at) VALUES ({})"
    if db.backend == "sqlite":
        conn = await aiosqlite.connect(db.target)
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "busy_timeout=5000", "foreign_keys=ON"):
            await conn.execute(f"PRAGMA {pragma}")
        q = sql.format("?, ?, ?, ?, ?, ?")
        one_transaction_at_a_time = asyncio.Lock()  # else a commit takes other writers' rows along

        async def sqlite_step(w: int, i: int) -> None:
            async with one_transaction_at_a_time:
                await conn.execute(q, (ids[w], i + 1, i + 1, "card_played", PAYLOAD, now().isoformat()))
                await conn.commit()

        return sqlite_step, conn.close
    pool = await asyncpg.create_pool(db.target, min_size=POOL, max_size=POOL)
    q = sql.format("$1, $2, $3, $4, $5, $6")

    async def pg_step(w: int, i: int) -> None:
        async with pool.acquire() as c, c.transaction():
            await c.execute(q, ids[w], i + 1, i + 1, "card_played", PAYLOAD, now())

    return pg_step, pool.close


async def cold_read(url: str, length: int = 10_000, repeat: int = 5) -> None:
    store = open_store(url)
    try:
        match_id, seq = await new_match(store), 0
        while seq < length:  # commits of two events, each with its own time, as a game writes them
            pair = (NewEvent("card_played", DATA), NewEvent("card_drawn", {"player": 1, "card": seq % 90}))
            seq = (await store.append(Append(match_id, seq, pair, UPDATE, now()))).seq
    finally:
        await store.close()
    cold, warm = [], []
    for _ in range(repeat):
        store = open_store(url)
        try:
            await store.ping()  # connections open; nothing of the match read yet
            t = time.perf_counter()
            assert len(await store.read(match_id)) == length
            cold.append(time.perf_counter() - t)
            for _ in range(3):
                t = time.perf_counter()
                await store.read(match_id)
                warm.append(time.perf_counter() - t)
        finally:
            await store.close()
    backend = parse_url(url).backend
    print(f"{backend}, read() of a {length}-event match: cold {statistics.median(cold) * 1000:.1f} ms, "
          f"warm {statistics.median(warm) * 1000:.1f} ms (median of {repeat} openings)")  # fmt: skip


LOBBY_SEED_PG = """
INSERT INTO matches (id, game, players, options, status, seq, created_at, updated_at, secret, commitment,
                     to_act, visibility, open_seats)
SELECT 'lobby-' || i, CASE WHEN i % 2 = 0 THEN 'mount_drago' ELSE 'yutaka' END, 2, '{}',
       CASE WHEN i % 100 < 3 THEN 'waiting' WHEN i % 100 < 13 THEN 'active'
            WHEN i % 100 < 15 THEN 'aborted' ELSE 'finished' END,
       0, $1::timestamptz - i * interval '1 minute', $1::timestamptz - i * interval '1 minute',
       's', 'c', '[]',
       CASE WHEN i % 20 = 7 THEN 'unlisted' ELSE 'public' END, CASE WHEN i % 100 < 2 THEN 1 ELSE 0 END
FROM generate_series(1, $2::int) AS i
"""
LOBBY_SEED_SQLITE = """
WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
INSERT INTO matches (id, game, players, options, status, seq, created_at, updated_at, secret, commitment,
                     to_act, visibility, open_seats)
SELECT 'lobby-' || i, CASE WHEN i % 2 = 0 THEN 'mount_drago' ELSE 'yutaka' END, 2, '{}',
       CASE WHEN i % 100 < 3 THEN 'waiting' WHEN i % 100 < 13 THEN 'active'
            WHEN i % 100 < 15 THEN 'aborted' ELSE 'finished' END,
       0, strftime('%Y-%m-%d %H:%M:%f', ?, '-' || i || ' minutes') || '000',
       strftime('%Y-%m-%d %H:%M:%f', ?, '-' || i || ' minutes') || '000', 's', 'c', '[]',
       CASE WHEN i % 20 = 7 THEN 'unlisted' ELSE 'public' END, CASE WHEN i % 100 < 2 THEN 1 ELSE 0 END
FROM n
"""
LOBBY_PAGES = {
    "all public": MatchFilter(),
    "open": MatchFilter(open=True),
    "active": MatchFilter(status="active"),
    "open, one game": MatchFilter(game="yutaka", open=True),
    "finished, one game, page 20": MatchFilter(game="mount_drago", status="finished", offset=1000),
}


async def lobby(url: str, matches: int = 100_000, repeat: int = 20) -> None:
    store = open_store(url)
    try:
        t0 = now()
        if isinstance(store, PostgresEventStore):
            pool = await store.pool()
            await pool.execute(LOBBY_SEED_PG, t0, matches)
            await pool.execute("VACUUM ANALYZE matches")
        else:
            at = sqlite_time(t0)
            await store.writer.run(lambda conn: conn.execute(LOBBY_SEED_SQLITE, (matches, at, at)))
            await store.writer.run(lambda conn: conn.execute("ANALYZE"))
        print(f"{parse_url(url).backend}, lobby over {matches} matches, median of {repeat}:")
        for name, flt in LOBBY_PAGES.items():
            times = []
            for _ in range(repeat):
                t = time.perf_counter()
                page, total = await store.list_matches(flt)
                times.append(time.perf_counter() - t)
            print(f"  {name:28s} {statistics.median(times) * 1000:6.2f} ms  ({len(page)} of {total})")
    finally:
        await store.close()


async def run(url: str, args: argparse.Namespace) -> None:
    await upgrade_async(url)
    concurrency = [int(c) for c in args.concurrency.split(",")]
    await appends(url, args.n, concurrency, args.repeat)
    if not args.appends_only:
        await cold_read(url)
        await lobby(url)


async def scratch_postgres(server: str, args: argparse.Namespace) -> None:
    admin = parse_url(server).target
    name = f"drago_bench_{uuid.uuid4().hex[:8]}"
    conn = await asyncpg.connect(admin)
    await conn.execute(f'CREATE DATABASE "{name}"')
    try:
        await run(make_url(server).set(database=name).render_as_string(hide_password=False), args)
    finally:
        await conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        await conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg", help="PostgreSQL server URL (a scratch database is created on it)")
    parser.add_argument("--n", type=int, default=2000, help="appends per figure, split among the writers")
    parser.add_argument("--concurrency", default="1,16")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--appends-only", action="store_true", help="skip the 10k read and the lobby")
    parser.add_argument("--no-sqlite", action="store_true")
    args = parser.parse_args()
    if not args.no_sqlite:
        with tempfile.TemporaryDirectory() as tmp:
            asyncio.run(run(f"sqlite:///{Path(tmp) / 'bench.db'}", args))
    if args.pg:
        asyncio.run(scratch_postgres(args.pg, args))


if __name__ == "__main__":
    main()

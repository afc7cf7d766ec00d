"""What only the SQL stores have: connections, pragmas and pools, group commit, the URL factory, and
what the contract cannot reach through the port (a seq taken behind the store's back, seqs and
cursors past 32 bits, naive times, two processes on one SQLite file)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator
from datetime import datetime, timedelta, timezone
from typing import Any

import asyncpg
import pytest

from app.service.errors import Unavailable
from app.service.ports import AppendResult, MatchUpdate, NewEvent, VersionConflict
from app.store import postgres_commit, postgres_sql
from app.store.factory import DatabaseUrl, create_store, parse_url
from app.store.memory import MemoryEventStore
from app.store.postgres import PostgresEventStore
from app.store.sqlite import SqliteEventStore

from .records import T0, append, events, idem, join, new_id, new_match, new_player, notice

SqlStore = SqliteEventStore | PostgresEventStore


@pytest.fixture
async def sql_store(sql_url: str) -> AsyncIterator[SqlStore]:
    store = create_store(sql_url, pool_size=3)
    assert not isinstance(store, MemoryEventStore)
    try:
        yield store
    finally:
        await store.close()


async def raw(store: SqlStore, query: str, *args: Any) -> None:
    """Run `query` (written with `?`) behind the store's back, committed."""
    if isinstance(store, SqliteEventStore):
        await store.writer.run(lambda conn: conn.execute(query, args))
    else:
        numbered = query
        for i in range(1, len(args) + 1):
            numbered = numbered.replace("?", f"${i}", 1)
        await (await store.pool()).execute(numbered, *args)


# --- connections ---------------------------------------------------------------------------------


def _pragmas(conn: sqlite3.Connection) -> list[object]:
    names = ("journal_mode", "synchronous", "busy_timeout", "foreign_keys", "query_only")
    return [conn.execute(f"PRAGMA {name}").fetchone()[0] for name in names]


async def test_sqlite_has_one_writer_thread_and_a_few_readers(migrated_sqlite_url: str) -> None:
    store = create_store(migrated_sqlite_url, pool_size=3)
    assert isinstance(store, SqliteEventStore)
    try:
        assert await store.writer.run(_pragmas) == ["wal", 2, 5000, 1, 0]  # synchronous 2 = FULL
        assert (await store.readers.run(_pragmas))[-1] == 1  # readers cannot write
        assert await store.writer.run(lambda _: threading.current_thread().name) == "sqlite-writer"
        match_id = await new_match(store)
        await asyncio.gather(*(store.read(match_id) for _ in range(30)))
        assert 1 <= len(store.readers._opened) <= 3
    finally:
        await store.close()


@pytest.mark.postgres
async def test_postgres_has_one_pool_of_the_configured_size(migrated_postgres_url: str) -> None:
    store = create_store(migrated_postgres_url, pool_size=3)
    assert isinstance(store, PostgresEventStore)
    try:
        matches = [await new_match(store) for _ in range(10)]
        work = [store.append(append(m, 0)) for m in matches] + [store.read(m) for m in matches * 3]
        await asyncio.gather(*work)
        pool = await store.pool()
        assert pool is await store.pool() and pool.get_max_size() == 3 and pool.get_size() <= 3
    finally:
        await store.close()


def test_urls() -> None:
    assert parse_url("sqlite+aiosqlite:///./drago.db") == DatabaseUrl("sqlite", "./drago.db")
    assert parse_url("sqlite:////var/lib/drago%20x.db?mode=rwc") == DatabaseUrl(
        "sqlite", "/var/lib/drago x.db"
    )
    assert parse_url("postgres://u:p@h:5433/db") == DatabaseUrl("postgresql", "postgresql://u:p@h:5433/db")
    assert parse_url("postgresql+asyncpg://u@h/db").target == "postgresql://u@h/db"
    assert isinstance(create_store("memory://"), MemoryEventStore)
    for bad, message in (
        ("mysql://u@h/db", "unsupported"),
        ("sqlite://", "in-memory"),
        ("drago.db", "unsupported"),
    ):
        with pytest.raises(ValueError, match=message):
            create_store(bad)
    with pytest.raises(ValueError, match="pool_size"):
        create_store("sqlite:///x.db", pool_size=0)


async def test_ping(sql_store: SqlStore) -> None:
    await sql_store.ping()


async def test_ping_fails_when_the_database_is_unreachable() -> None:
    store = create_store("postgresql://nobody@127.0.0.1:9/none")
    try:
        with pytest.raises(Unavailable):  # the store's own refusal (503 at the edge), not a driver error
            await store.ping()
    finally:
        await store.close()


# --- group commit --------------------------------------------------------------------------------


async def test_sqlite_commits_what_queued_meanwhile_in_one_transaction(migrated_sqlite_url: str) -> None:
    store = SqliteEventStore(parse_url(migrated_sqlite_url).target, readers=2)
    try:
        matches = [await new_match(store) for _ in range(10)]
        gate, busy = threading.Event(), store.writer.batches + 1
        blocker = await _block(store, gate)
        batch = [append(m, 0, idempotency=idem(m)) for m in matches] + [append(matches[0], 0)]
        tasks = [asyncio.ensure_future(store.append(a)) for a in batch]
        await asyncio.sleep(0)  # the tasks run up to their wait: all are queued
        assert store.writer._queue.qsize() == len(batch)
        gate.set()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        await blocker
        assert store.writer.batches == busy + 1  # all of them in the one next transaction
        assert results[:10] == [AppendResult(1)] * 10 and isinstance(results[10], VersionConflict)
        assert [len(await store.read(m)) for m in matches] == [1] * 10
    finally:
        await store.close()


async def test_sqlite_a_failed_transaction_fails_every_caller_in_it(migrated_sqlite_url: str) -> None:
    store = SqliteEventStore(parse_url(migrated_sqlite_url).target, readers=2)
    try:
        matches = [await new_match(store) for _ in range(3)]
        gate = threading.Event()
        blocker = await _block(store, gate)
        first = asyncio.ensure_future(store.append(append(matches[0], 0)))
        rogue = asyncio.ensure_future(store.writer.run(lambda conn: conn.execute("ROLLBACK")))
        last = asyncio.ensure_future(store.append(append(matches[1], 0)))
        await asyncio.sleep(0)
        assert store.writer._queue.qsize() == 3
        gate.set()
        results = await asyncio.gather(first, rogue, last, return_exceptions=True)
        assert all(isinstance(r, sqlite3.OperationalError) for r in results)  # "no such savepoint"
        assert [await store.read(m) for m in matches[:2]] == [[], []]
        assert (await store.append(append(matches[2], 0))).seq == 1  # the writer carries on
        await blocker
    finally:
        await store.close()


@pytest.mark.postgres
@pytest.mark.parametrize("max_batch", [64, 1], ids=["batched", "one-per-transaction"])
async def test_postgres_batches_what_queued_and_a_failure_fails_alone(
    migrated_postgres_url: str, max_batch: int
) -> None:
    dsn = parse_url(migrated_postgres_url).target
    store = PostgresEventStore(dsn, pool_size=3, max_batch=max_batch)
    try:
        holder, held = await new_match(store), new_id("token")
        await store.append(append(holder, 0, seats=(join(0, token=held),)))
        matches = [await new_match(store) for _ in range(12)]
        batch = [append(m, 0, idempotency=idem(m)) for m in matches]
        batch[3] = append(matches[3], 0, seats=(join(0, token=held),))  # unique violation: batch retried
        batch[7] = append(matches[7], 4)  # stale: written around
        before = store.appender.batches
        results = await asyncio.gather(*(store.append(a) for a in batch), return_exceptions=True)
        assert store.appender.batches - before == (1 if max_batch > 1 else 12)
        assert [type(r).__name__ for r in results] == [
            "VersionConflict" if i in (3, 7) else "AppendResult" for i in range(12)
        ]
        assert [len(await store.read(m)) for m in matches] == [0 if i in (3, 7) else 1 for i in range(12)]
    finally:
        await store.close()


@pytest.mark.postgres
async def test_postgres_plain_appends_take_the_short_statement_with_the_same_outcomes(
    migrated_postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch of appends of events alone (the usual action) goes as one `APPEND_PLAIN_BATCH`, one
    in which some also keep an idempotency key (as the SDKs' actions do) as one `APPEND_KEYED_BATCH`,
    a lone one as `APPEND_PLAIN`; a batch with any seat or notice goes as `APPEND` per append; all
    answer a stale seq and an unknown match alike."""
    used: list[str] = []
    choose, choose_batch = postgres_commit._statement, postgres_commit._batch_statement

    def spy(batch: Any, plain: bool) -> Any:
        query, args = choose(batch, plain)
        used.append("plain" if query == postgres_sql.APPEND_PLAIN else "full")
        return query, args

    def spy_batch(batch: Any) -> Any:
        one = choose_batch(batch)
        if one is not None:
            used.append("batch" if one[0] == postgres_sql.APPEND_PLAIN_BATCH else "keyed batch")
        return one

    monkeypatch.setattr(postgres_commit, "_statement", spy)
    monkeypatch.setattr(postgres_commit, "_batch_statement", spy_batch)
    dsn = parse_url(migrated_postgres_url).target
    store = PostgresEventStore(dsn, pool_size=3)
    try:
        matches = [await new_match(store) for _ in range(6)]
        for n, (kind, first) in enumerate((("batch", None), ("keyed batch", "key"), ("full", "seat"))):
            used.clear()
            batch = [append(m, n, events(n + 1, n + 1)) for m in matches]
            batch[1] = append(matches[1], 5)  # stale
            batch[2] = append("no-such-match", 0)
            if first == "key":
                batch[0] = append(
                    matches[0], n, events(n + 1, n + 1), idempotency=idem(matches[0], first=2, last=2)
                )
            elif first == "seat":
                batch[0] = append(matches[0], n, events(n + 1, n + 1), seats=(join(1),))
            results = await asyncio.gather(*(store.append(a) for a in batch), return_exceptions=True)
            assert [type(r).__name__ for r in results] == [
                "AppendResult", "VersionConflict", "KeyError", "AppendResult", "AppendResult", "AppendResult"
            ], kind  # fmt: skip
            assert used == [kind], used
            assert [r.seq for r in results if isinstance(r, AppendResult)] == [n + 1] * 4
        assert [len(await store.read(m)) for m in matches] == [3, 0, 0, 3, 3, 3]
        kept = await store.get_idempotent(matches[0], 0, "k1")
        assert kept is not None and (kept.first_seq, kept.last_seq, kept.request_hash) == (2, 2, "hash-1")
        used.clear()
        one = await store.append(append(matches[3], 3))  # alone: a plain fetchrow
        assert one.seq == 4 and used == ["plain"]
    finally:
        await store.close()


@pytest.mark.postgres
async def test_postgres_keyed_batch_writes_an_append_only_if_its_key_is_free(
    migrated_postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In one `APPEND_KEYED_BATCH`: an append whose key is taken (by the same seat of its match)
    writes nothing and is a conflict, as `APPEND` answers; the same key of another seat or match is
    free; the others write their events and keep their keys. A key the packing cannot carry sends
    the batch as one `APPEND` per append, with the same outcomes. Neither fails as a whole (then
    its appends would be run again one by one)."""
    chosen: list[str | None] = []
    again: list[str] = []
    choose_batch, one = postgres_commit._batch_statement, postgres_commit._one

    def spy_batch(batch: Any) -> Any:
        statement = choose_batch(batch)
        chosen.append(None if statement is None else statement[0])
        return statement

    async def spy_one(conn: Any, p: Any) -> Any:
        again.append(p.append.match_id)
        return await one(conn, p)

    monkeypatch.setattr(postgres_commit, "_batch_statement", spy_batch)
    monkeypatch.setattr(postgres_commit, "_one", spy_one)
    dsn = parse_url(migrated_postgres_url).target
    store = PostgresEventStore(dsn, pool_size=3)
    try:
        for key, statement in (("k1", postgres_sql.APPEND_KEYED_BATCH), ("odd\x1ekey", None)):
            matches = [await new_match(store) for _ in range(4)]
            await store.append(append(matches[0], 0, idempotency=idem(matches[0], key)))
            await store.append(append(matches[1], 0, idempotency=idem(matches[1], key, seat=1)))
            batch = [
                append(
                    matches[0], 1, events(2, 3), idempotency=idem(matches[0], key, first=2, last=3)
                ),  # taken
                append(
                    matches[1], 1, events(2, 2), idempotency=idem(matches[1], key, first=2, last=2)
                ),  # seat 0
                append(matches[2], 0, events(1, 2), idempotency=idem(matches[2], key, first=1, last=2)),
                append(matches[3], 0),  # no key
            ]
            before = store.appender.batches
            chosen.clear()
            again.clear()  # the lone appends above went alone, through `_one`
            results = await asyncio.gather(*(store.append(a) for a in batch), return_exceptions=True)
            assert store.appender.batches - before == 1 and chosen == [statement] and again == []
            assert [r.seq if isinstance(r, AppendResult) else type(r).__name__ for r in results] == [
                "VersionConflict", 2, 2, 1
            ], key  # fmt: skip
            assert [len(await store.read(m)) for m in matches] == [1, 2, 2, 1]
            assert [(await store.get_match(m)).seq for m in matches] == [1, 2, 2, 1]  # type: ignore[union-attr]
            kept = [await store.get_idempotent(m, 0, key) for m in matches]
            assert [None if k is None else (k.first_seq, k.last_seq) for k in kept] == [
                (1, 1), (2, 2), (1, 2), None
            ]  # fmt: skip
    finally:
        await store.close()


@pytest.mark.postgres
async def test_postgres_one_statement_batch_writes_each_append_as_alone(migrated_postgres_url: str) -> None:
    """`APPEND_PLAIN_BATCH` writes appends of one, two and three events, each at its own seqs with
    its own projection, beside a stale one and an unknown match that write nothing."""
    dsn = parse_url(migrated_postgres_url).target
    store = PostgresEventStore(dsn, pool_size=3)
    try:
        matches = [await new_match(store) for _ in range(4)]
        await store.append(append(matches[1], 0, events(1, 2)))
        ended = MatchUpdate(status="finished", to_act=(), scores=(3, 1), winners=(0,))
        batch = [
            append(matches[0], 0, events(1, 3), ended),
            append(matches[1], 2, events(3, 3)),
            append(matches[2], 1),  # stale
            append("no-such-match", 0),
            append(matches[3], 0, events(1, 2)),
        ]
        before = store.appender.batches
        results = await asyncio.gather(*(store.append(a) for a in batch), return_exceptions=True)
        assert store.appender.batches - before == 1
        assert [r.seq if isinstance(r, AppendResult) else type(r).__name__ for r in results] == [
            3, 3, "VersionConflict", "KeyError", 2
        ]  # fmt: skip
        for m, last in zip(matches, (3, 3, 0, 2), strict=True):
            stored = await store.read(m)
            assert [(e.seq, e.data["n"]) for e in stored] == [(i, i) for i in range(1, last + 1)]
            assert (await store.get_match(m)).seq == last  # type: ignore[union-attr]
        assert {e.commit for e in await store.read(matches[0])} == {3}
        first = await store.get_match(matches[0])
        assert first is not None and (first.status, first.scores, first.winners) == ("finished", (3, 1), (0,))
    finally:
        await store.close()


def test_a_plain_batch_whose_texts_do_not_pack_is_not_one_statement() -> None:
    """A text value that is empty or holds the separator cannot travel packed (`plain_batch_args`
    declines; the batch goes append by append); times and numbers always can."""
    ok = postgres_sql.plain_args(append("a", 0))
    for bad in ("", "card\x1eplayed"):
        odd = postgres_sql.plain_args(append("b", 0, (NewEvent(bad, {"n": 1}),)))
        assert postgres_sql.plain_batch_args([ok, odd]) is None
    assert postgres_sql.plain_batch_args([ok, postgres_sql.plain_args(append("b", 0, ()))]) is not None


@pytest.mark.postgres
async def test_postgres_plain_batch_keeps_every_value_as_written(migrated_postgres_url: str) -> None:
    """Packed as text, a plain batch's values come back as given: times with and without
    microseconds and in another offset, a deadline and none, a bot due, an append of no events, and
    an event type the packing cannot carry (that batch goes append by append, and writes the same)."""
    dsn = parse_url(migrated_postgres_url).target
    store = PostgresEventStore(dsn, pool_size=3)
    odd_type = NewEvent("odd\x1etype", {"n": 1, "text": "a\x1eb"})
    plus_one = timezone(timedelta(hours=1))
    updates = [
        MatchUpdate(status="active", to_act=(1,), deadline_at=T0 + timedelta(minutes=5), bot_due=True),
        MatchUpdate(status="active", to_act=(0, 1)),
    ]
    ats = [T0, datetime(2025, 3, 1, 13, 0, 1, tzinfo=plus_one)]
    try:
        for evs in ((events(1, 2), ()), (events(1, 1), (odd_type,))):
            matches = [await new_match(store) for _ in range(2)]
            batch = [append(m, 0, e, u, at) for m, e, u, at in zip(matches, evs, updates, ats, strict=True)]
            before = store.appender.batches
            results = await asyncio.gather(*(store.append(a) for a in batch))
            assert store.appender.batches - before == 1
            assert [r.seq for r in results] == [len(e) for e in evs]
            for m, e, u, at in zip(matches, evs, updates, ats, strict=True):
                stored = await store.read(m)
                assert [(s.type, dict(s.data), s.recorded_at) for s in stored] == [
                    (n.type, dict(n.data), at) for n in e
                ]
                record = await store.get_match(m)
                assert record is not None
                assert (record.seq, record.to_act, record.deadline_at, record.bot_due, record.updated_at) == (
                    len(e), u.to_act, u.deadline_at, u.bot_due, at
                )  # fmt: skip
    finally:
        await store.close()


def test_plain_arguments_are_the_first_of_the_full_statements() -> None:
    """`APPEND_PLAIN` takes the first `PLAIN_PARAMS` arguments of `APPEND`, built alone for a plain
    append; a plain append taken into a full batch gets the same full arguments as built at once."""
    plain = append("m", 3, events(2, 2))
    assert postgres_sql.plain(plain)
    args = postgres_sql.plain_args(plain)
    assert len(args) == postgres_sql.PLAIN_PARAMS
    assert postgres_sql.append_args(plain)[: postgres_sql.PLAIN_PARAMS] == args
    assert postgres_sql.append_args(plain, args) == postgres_sql.append_args(plain)
    two = [postgres_sql.plain_args(append("m", 3, events(4, 5))), postgres_sql.plain_args(append("a", 0))]
    columns = postgres_sql.plain_batch_args(two)
    assert columns is not None  # each column one text, its values joined by the record separator
    assert columns[:3] == ("a\x1em", "0\x1e3", "1\x1e5")  # by match id: match ids, expected and last seqs
    assert columns[-4:-1] == ("a\x1em\x1em", "1\x1e1\x1e2", "\x1e".join(["card_played"] * 3))  # events
    assert columns[7] == "\x1e" and columns[9] == "f\x1ef"  # no deadlines (NULL), no bot due
    keyed = append("m", 3, events(2, 2), idempotency=idem("m", first=4, last=5))
    assert not postgres_sql.plain(keyed) and postgres_sql.batchable(keyed)
    assert postgres_sql.append_args(keyed)[: postgres_sql.PLAIN_PARAMS] == postgres_sql.plain_args(keyed)
    assert postgres_sql.key_args(keyed) == ("m", 0, "k1", "hash-1", 4, 5)
    with_keys = postgres_sql.plain_batch_args(two, [postgres_sql.key_args(keyed)])
    assert with_keys is not None and with_keys[: len(columns)] == columns  # the keys' columns follow
    assert with_keys[len(columns) :] == ("m", "0", "k1", "hash-1", "4", "5")
    assert not postgres_sql.batchable(append("m", 3, seats=(join(0),)))


# --- values the port cannot reach ----------------------------------------------------------------


async def test_a_taken_seq_becomes_a_conflict_and_nothing_is_written(sql_store: SqlStore) -> None:
    # The projection says seq 0 but the events table already holds seq 1: the insert, not the
    # seq check, catches it, and the projection's update is rolled back with it.
    match_id = await new_match(sql_store)
    intruder = ("INSERT INTO events (match_id, seq, commit_seq, type, data, recorded_at) "
                "VALUES (?, 1, 1, 'intruder', '{}', ?)")  # fmt: skip
    await raw(sql_store, intruder, match_id, "2025-01-01 00:00:00.000000" if _lite(sql_store) else T0)
    with pytest.raises(VersionConflict):
        await sql_store.append(append(match_id, 0, idempotency=idem(match_id)))
    match = await sql_store.get_match(match_id)
    assert match is not None and (match.seq, match.status) == (0, "waiting")
    assert [e.type for e in await sql_store.read(match_id)] == ["intruder"]
    assert await sql_store.get_idempotent(match_id, 0, "k1") is None


async def test_seqs_and_cursors_past_32_bits(sql_store: SqlStore) -> None:
    far = 2**40
    ana = await new_player(sql_store)
    match_id = await new_match(sql_store)
    await raw(sql_store, "UPDATE matches SET seq = ? WHERE id = ?", far, match_id)
    await raw(sql_store, "UPDATE players SET cursor = ? WHERE id = ?", far, ana.id)
    record = idem(match_id, first=far + 1, last=far + 2)
    result = await sql_store.append(
        append(match_id, far, events(1, 2), idempotency=record, notices=(notice(ana, 1),))
    )
    assert result.seq == far + 2 and [n.cursor for n in result.notices] == [far + 1]
    stored = await sql_store.read(match_id, after=far)
    assert [(e.seq, e.commit) for e in stored] == [(far + 1, far + 2), (far + 2, far + 2)]
    assert [e.seq for e in await sql_store.read(match_id, after=far + 1, limit=1)] == [far + 2]
    assert await sql_store.get_idempotent(match_id, 0, "k1") == record
    assert [n.cursor for n in await sql_store.read_notices(ana.id, after=far)] == [far + 1]
    match = await sql_store.get_match(match_id)
    assert match is not None and match.seq == far + 2


async def test_naive_datetimes_are_refused(sql_store: SqlStore) -> None:
    match_id = await new_match(sql_store)
    with pytest.raises(ValueError, match="naive datetime"):
        await sql_store.append(append(match_id, 0, at=T0.replace(tzinfo=None)))
    assert await sql_store.read(match_id) == []


async def test_an_acknowledged_append_is_seen_by_the_next_read(sql_store: SqlStore) -> None:
    match_id = await new_match(sql_store)
    for seq in range(30):
        await sql_store.append(append(match_id, seq))
        assert len(await sql_store.read(match_id)) == seq + 1


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
                        new = (NewEvent("e", {"w": w, "i": i}),)
                        await store.append(append(match_id, match.seq, new, MatchUpdate("active", (w,))))
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


async def _block(store: SqliteEventStore, gate: threading.Event) -> asyncio.Future[object]:
    """Occupy the writer thread, alone in its batch, until `gate` is set."""
    inside = threading.Event()

    def wait(_: sqlite3.Connection) -> object:
        inside.set()
        return gate.wait(10)

    blocker = asyncio.ensure_future(store.writer.run(wait))
    await asyncio.to_thread(inside.wait, 10)
    return blocker


def _lite(store: SqlStore) -> bool:
    return isinstance(store, SqliteEventStore)


@pytest.mark.postgres
async def test_a_postgres_batch_is_one_transaction(migrated_postgres_url: str) -> None:
    # What the group commit relies on: asyncpg's `fetchmany` pipelines its executions before one
    # Sync, so PostgreSQL runs them in one transaction, committed or rolled back as a whole.
    conn = await asyncpg.connect(parse_url(migrated_postgres_url).target)
    try:
        await conn.execute("CREATE TEMPORARY TABLE t (a int)")
        rows = await conn.fetchmany("INSERT INTO t VALUES ($1) RETURNING txid_current()", [(1,), (2,), (3,)])
        assert len({r[0] for r in rows}) == 1
        with pytest.raises(asyncpg.DivisionByZeroError):
            await conn.fetchmany("INSERT INTO t VALUES (10 / $1)", [(1,), (0,), (3,)])
        assert [r[0] for r in await conn.fetch("SELECT a FROM t ORDER BY a")] == [1, 2, 3]
    finally:
        await conn.close()

"""The PostgreSQL group commit, on a fake pool (no server needed): one batch in flight at a time,
the next one made of what queued meanwhile, and the connections it keeps between batches."""

from __future__ import annotations

import asyncio
from typing import Any

from app.service.ports import AppendResult
from app.store.postgres_commit import PostgresAppender
from app.store.postgres_sql import APPEND_KEYED_BATCH, APPEND_PLAIN, APPEND_PLAIN_BATCH, BATCH_SEPARATOR

from .records import append

GUARD = 5.0


class _Conn:
    """Answers each batch when the test releases it; records what each batch held."""

    def __init__(self, pool: _Pool) -> None:
        self.pool = pool
        self.closed = False

    def is_closed(self) -> bool:
        return self.closed

    def is_in_transaction(self) -> bool:
        return False

    async def fetchmany(self, query: str, args: list[tuple[Any, ...]]) -> list[Any]:
        return await self.pool.run(query, args)

    async def fetch(self, query: str, *columns: str) -> list[Any]:  # a plain batch: one statement
        assert query in (APPEND_PLAIN_BATCH, APPEND_KEYED_BATCH)
        match_ids, expected = columns[0].split(BATCH_SEPARATOR), map(int, columns[1].split(BATCH_SEPARATOR))
        rows = list(zip(match_ids, expected, strict=True))
        return [(a[0], *row) for a, row in zip(rows, await self.pool.run(query, rows), strict=True)]

    async def fetchrow(self, query: str, *args: Any) -> Any:
        return (await self.pool.run(query, [args]))[0]


class _Pool:
    def __init__(self) -> None:
        self.batches: list[tuple[str, list[str]]] = []  # (statement kind, match ids), as sent
        self.in_flight: list[asyncio.Future[None]] = []
        self.sent = asyncio.Event()
        self.acquired: list[_Conn] = []
        self.released: list[_Conn] = []
        self.fail_next = False  # the next statement breaks its connection

    async def acquire(self) -> _Conn:
        conn = _Conn(self)
        self.acquired.append(conn)
        return conn

    async def release(self, conn: _Conn) -> None:
        self.released.append(conn)

    def out(self) -> int:
        """Connections taken from the pool and not given back."""
        return len(self.acquired) - len(self.released)

    async def run(self, query: str, args: list[tuple[Any, ...]]) -> list[Any]:
        if self.fail_next:
            self.fail_next = False
            raise ConnectionResetError("connection lost")
        kind = "plain" if query in (APPEND_PLAIN, APPEND_PLAIN_BATCH) else "full"
        self.batches.append((kind, [a[0] for a in args]))
        gate = asyncio.get_running_loop().create_future()
        self.in_flight.append(gate)
        self.sent.set()
        await gate
        # (actual, seats_known, players_known, key_free, advanced, cursors): written
        return [(a[1], True, True, True, True, None) for a in args]

    async def until_sent(self, n: int) -> None:
        async with asyncio.timeout(GUARD):
            while len(self.batches) < n:
                self.sent.clear()
                await self.sent.wait()

    def answer(self, i: int) -> None:
        self.in_flight[i].set_result(None)


def _appender(**options: Any) -> tuple[_Pool, PostgresAppender]:
    pool = _Pool()

    async def get_pool() -> Any:
        return pool

    return pool, PostgresAppender(get_pool, **options)


async def test_one_writer_is_one_batch_at_a_time() -> None:
    pool, appender = _appender()
    tasks = [asyncio.ensure_future(appender.append(append(f"p{i}", 0))) for i in range(2)]
    await pool.until_sent(1)
    more = asyncio.ensure_future(appender.append(append("p2", 0)))
    await asyncio.sleep(0.01)
    assert [b for _, b in pool.batches] == [["p0", "p1"]]
    pool.answer(0)
    await pool.until_sent(2)
    pool.answer(1)
    await asyncio.wait_for(asyncio.gather(*tasks, more), GUARD)
    assert [b for _, b in pool.batches] == [["p0", "p1"], ["p2"]]


async def _serve(pool: _Pool, appender: PostgresAppender, matches: list[str]) -> list[Any]:
    """Append to each match at once and answer every batch as it comes."""
    tasks = [asyncio.ensure_future(appender.append(append(m, 0))) for m in matches]
    async with asyncio.timeout(GUARD):
        while not all(t.done() for t in tasks):
            await asyncio.sleep(0)
            for gate in pool.in_flight:
                if not gate.done():
                    gate.set_result(None)
    return [t.exception() or t.result() for t in tasks]


async def test_batches_keep_their_connections_and_close_gives_them_back() -> None:
    pool, appender = _appender()
    for round_ in range(5):
        results = await _serve(pool, appender, [f"m{round_}-{i}" for i in range(3)])
        assert all(isinstance(r, AppendResult) for r in results)
    assert len(pool.batches) >= 5
    assert len(pool.acquired) == 1  # the one batch in flight's, kept: not one per batch
    assert pool.released == []
    await appender.close()
    assert pool.out() == 0


async def test_a_connection_that_fails_goes_back_to_the_pool_and_is_not_kept() -> None:
    pool, appender = _appender()
    assert isinstance((await _serve(pool, appender, ["a"]))[0], AppendResult)
    first = pool.acquired[0]
    pool.fail_next = True
    [failed] = await _serve(pool, appender, ["b"])
    assert isinstance(failed, ConnectionResetError)  # that caller is told; nothing else is
    assert pool.released == [first]
    assert isinstance((await _serve(pool, appender, ["c"]))[0], AppendResult)
    assert len(pool.acquired) == 2 and pool.out() == 1  # a fresh one, kept
    await appender.close()
    assert pool.out() == 0


async def test_hold_zero_gives_every_connection_back() -> None:
    pool, appender = _appender(hold=0)
    for round_ in range(3):
        await _serve(pool, appender, [f"m{round_}"])
    assert len(pool.acquired) == 3 and pool.out() == 0
    await appender.close()


async def test_a_kept_connection_that_closed_meanwhile_goes_back_and_a_fresh_one_serves() -> None:
    pool, appender = _appender()
    await _serve(pool, appender, ["a"])
    [kept] = pool.acquired
    kept.closed = True  # the server went away while it was idle
    assert isinstance((await _serve(pool, appender, ["b"]))[0], AppendResult)
    assert pool.released == [kept] and len(pool.acquired) == 2
    await appender.close()
    assert pool.out() == 0

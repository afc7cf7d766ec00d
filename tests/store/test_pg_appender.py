"""The PostgreSQL group commit's lanes, on a fake pool (no server needed): two batches in flight,
never two holding appends that are not plain (those could lock players' rows in opposite orders),
and nothing left behind when a drain steps aside."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from app.service.ports import AppendResult
from app.store.postgres_commit import PostgresAppender
from app.store.postgres_sql import APPEND_PLAIN

from .records import append, idem

GUARD = 5.0


class _Conn:
    """Answers each batch when the test releases it; records what each batch held."""

    def __init__(self, pool: _Pool) -> None:
        self.pool = pool

    async def fetchmany(self, query: str, args: list[tuple[Any, ...]]) -> list[Any]:
        return await self.pool.run(query, args)

    async def fetchrow(self, query: str, *args: Any) -> Any:
        return (await self.pool.run(query, [args]))[0]


class _Pool:
    def __init__(self) -> None:
        self.batches: list[tuple[str, list[str]]] = []  # (statement kind, match ids), as sent
        self.in_flight: list[asyncio.Future[None]] = []
        self.sent = asyncio.Event()

    @asynccontextmanager
    async def acquire(self) -> AsyncIterator[_Conn]:
        yield _Conn(self)

    async def run(self, query: str, args: list[tuple[Any, ...]]) -> list[Any]:
        kind = "plain" if query == APPEND_PLAIN else "full"
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

    def release(self, i: int) -> None:
        self.in_flight[i].set_result(None)


async def test_plain_batches_run_beside_one_that_is_not_and_none_waits_forever() -> None:
    pool = _Pool()

    async def get_pool() -> Any:
        return pool

    appender = PostgresAppender(get_pool, writers=2)
    keyed = [append(f"k{i}", 0, idempotency=idem(f"k{i}")) for i in range(2)]
    plain = [append(f"p{i}", 0) for i in range(3)]

    first = [asyncio.ensure_future(appender.append(a)) for a in (keyed[0], plain[0])]
    await pool.until_sent(1)  # the first batch holds both, so the non-plain slot
    later = [asyncio.ensure_future(appender.append(a)) for a in (keyed[1], plain[1], plain[2])]
    await pool.until_sent(2)  # the second writer takes the plain ones only
    await asyncio.sleep(0.01)
    assert pool.batches == [("full", ["k0", "p0"]), ("plain", ["p1", "p2"])]
    pool.release(1)
    await asyncio.sleep(0.01)
    assert len(pool.batches) == 2  # k1 still waits for the slot: that writer stepped aside
    pool.release(0)
    await pool.until_sent(3)  # the slot's holder looks again when its batch is done
    assert pool.batches[2] == ("full", ["k1"])
    pool.release(2)
    results = await asyncio.wait_for(asyncio.gather(*first, *later), GUARD)
    assert all(isinstance(r, AppendResult) for r in results)
    await appender.close()


async def test_one_writer_is_one_batch_at_a_time() -> None:
    pool = _Pool()

    async def get_pool() -> Any:
        return pool

    appender = PostgresAppender(get_pool, writers=1)
    tasks = [asyncio.ensure_future(appender.append(append(f"p{i}", 0))) for i in range(2)]
    await pool.until_sent(1)
    more = asyncio.ensure_future(appender.append(append("p2", 0)))
    await asyncio.sleep(0.01)
    assert [b for _, b in pool.batches] == [["p0", "p1"]]
    pool.release(0)
    await pool.until_sent(2)
    pool.release(1)
    await asyncio.wait_for(asyncio.gather(*tasks, more), GUARD)
    assert [b for _, b in pool.batches] == [["p0", "p1"], ["p2"]]

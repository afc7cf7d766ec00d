"""The SQLite writer waits briefly for more work before a commit, only while writes come together:
after a batch of several jobs, the next batch waits up to `linger` for company (closing as soon
as it is full); a lone writer's job is committed at once."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

from app.store.sqlite_threads import SqliteWriter

GUARD = 10.0  # a hang guard only: the lingers below are far longer, the work far shorter
LONG = 60.0


def _insert(value: int) -> Callable[[sqlite3.Connection], int]:
    def work(conn: sqlite3.Connection) -> int:
        conn.execute("CREATE TABLE IF NOT EXISTS t (x INTEGER)")
        conn.execute("INSERT INTO t VALUES (?)", (value,))
        return value

    return work


async def test_after_a_batch_of_several_the_next_waits_for_company(tmp_path: Path) -> None:
    writer = SqliteWriter(str(tmp_path / "w.db"), max_batch=2, linger=LONG)
    gate, started = threading.Event(), threading.Event()

    def gated(conn: sqlite3.Connection) -> None:
        started.set()
        gate.wait()

    try:
        async with asyncio.timeout(GUARD):
            blocked = asyncio.ensure_future(writer.run(gated))
            await asyncio.to_thread(started.wait)  # the writer holds the gated job: the next two queue
            pair = [asyncio.ensure_future(writer.run(_insert(i))) for i in (1, 2)]
            await asyncio.sleep(0)
            gate.set()
            await blocked
            assert await asyncio.gather(*pair) == [1, 2]
            assert writer.batches == 2  # the gated job alone, then the pair together

            first = asyncio.ensure_future(writer.run(_insert(3)))
            await asyncio.sleep(0.05)  # long after a lone job would have been committed
            assert not first.done()  # it waits for company…
            second = asyncio.ensure_future(writer.run(_insert(4)))
            assert list(await asyncio.gather(first, second)) == [3, 4]  # …and the batch closes when full
            assert writer.batches == 3
    finally:
        gate.set()
        await writer.close()


async def test_a_lone_writer_never_waits(tmp_path: Path) -> None:
    writer = SqliteWriter(str(tmp_path / "w.db"), linger=LONG)
    try:
        async with asyncio.timeout(GUARD):
            for i in range(3):
                assert await writer.run(_insert(i)) == i
        assert writer.batches == 3
    finally:
        await writer.close()

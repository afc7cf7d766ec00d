"""Kill a process in the middle of batched commits: every acknowledged commit is there, whole, and
every commit that is there is whole (its events, its projection, its idempotency key, its notice).

`crash_writer` appends to many matches at once through the real store, so its appends share
transactions, and prints each acknowledgement as it gets it. It is SIGKILLed at a random moment,
several times over on the same database; after each kill the database is opened again and read.

On PostgreSQL the killed process's server backend can still be running its last batch: it has the
whole pipelined batch and commits it before it notices that its client is gone. That is a commit
that was never acknowledged, which is allowed, but a check that reads the notices before that
commit and the player's cursor after it would see a gap that is not there. So the check waits
until the database has no other connection left (`_settle`).
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import asyncpg
import pytest

from app.service.ports import EventStore, IdempotencyRecord, SeatRecord
from app.store.factory import create_store, parse_url
from app.store.migrate import upgrade
from app.store.sqlite import SqliteEventStore
from tests.api.helpers import eventually

from .crash_writer import commit_of
from .records import match_record, new_player

ROOT = Path(__file__).resolve().parents[2]
MATCHES, PLAYERS, ROUNDS = 24, 3, 5


def _run_and_kill(url: str, players: list[str], matches: list[str], rng: random.Random) -> dict[str, int]:
    """Start the writer, SIGKILL it a random while after its first acknowledgement; what it acked."""
    lines: list[str] = []
    first = threading.Event()
    with (
        tempfile.TemporaryFile("w+") as errors,
        subprocess.Popen(
            [sys.executable, "-m", "tests.store.crash_writer", url, ",".join(players), *matches],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
        ) as child,
    ):

        def read() -> None:
            assert child.stdout is not None
            for line in child.stdout:
                lines.append(line)
                first.set()

        reader = threading.Thread(target=read)
        reader.start()
        started = first.wait(60)
        time.sleep(rng.uniform(0.0, 0.8))
        child.kill()
        child.wait()
        reader.join()
        errors.seek(0)
        assert started, errors.read()
    acked: dict[str, int] = {}
    for line in lines:
        if line.endswith("\n"):  # a line cut by the kill is not an acknowledgement
            _, match_id, seq = line.split()
            acked[match_id] = max(acked.get(match_id, 0), int(seq))
    return acked


_ALONE = (
    "SELECT NOT EXISTS (SELECT 1 FROM pg_stat_activity"
    " WHERE datname = current_database() AND pid <> pg_backend_pid())"
)


async def _settle(url: str) -> None:
    """Wait until no other connection to the database is left (PostgreSQL; SQLite has none)."""
    target = parse_url(url)
    if target.backend != "postgresql":
        return
    conn = await asyncpg.connect(target.target)
    try:
        await eventually(lambda: conn.fetchval(_ALONE), "the killed writer's connections to go")
    finally:
        await conn.close()


async def _check(store: EventStore, matches: list[str], players: list[str], acked: dict[str, int]) -> int:
    """Check every match and notice; return how many commits the database holds."""
    commits = 0
    notified: set[tuple[str, int]] = set()
    for p in players:
        notices = await store.read_notices(p)
        player = await store.get_player(p)
        assert player is not None and [n.cursor for n in notices] == list(range(1, player.cursor + 1))
        notified |= {(str(n.data["match"]), int(str(n.data["seq"]))) for n in notices}
    for match_id in matches:
        record = await store.get_match(match_id)
        events = await store.read(match_id)
        assert record is not None and [e.seq for e in events] == list(range(1, record.seq + 1))
        assert acked.get(match_id, 0) <= record.seq, "an acknowledged commit is missing"
        assert record.to_act == (record.seq % 2,) or record.seq == 0
        start = 0
        while start < record.seq:  # walk the commits: each must be whole
            size = int(str(events[start].data["size"]))
            whole = events[start : start + size]
            assert [e.commit for e in whole] == [start + size] * size, "a commit is cut"
            assert [e.data["size"] for e in whole] == [size] * size
            key = await store.get_idempotent(match_id, 0, f"after-{start}")
            assert key == IdempotencyRecord(match_id, 0, f"after-{start}", "h", start + 1, start + size)
            assert (match_id, start + size) in notified
            start, commits = start + size, commits + 1
        assert start == record.seq
        assert await store.get_idempotent(match_id, 0, f"after-{record.seq}") is None  # nothing beyond
    assert len(notified) == commits  # no notice of a commit that is not there
    return commits


async def _crash_repeatedly(url: str) -> None:
    store = create_store(url)
    try:
        players = [(await new_player(store, f"P{i}")).id for i in range(PLAYERS)]
        matches = []
        for _ in range(MATCHES):
            record = match_record(status="active")
            await store.create_match(record, [SeatRecord(record.id, 0), SeatRecord(record.id, 1)])
            matches.append(record.id)
    finally:
        await store.close()
    seed = int(os.environ.get("CRASH_SEED", random.randrange(2**32)))
    rng, total = random.Random(seed), 0
    for round_ in range(ROUNDS):
        acked = await asyncio.to_thread(_run_and_kill, url, players, matches, rng)
        await _settle(url)
        store = create_store(url)
        try:
            commits = await _check(store, matches, players, acked)
        finally:
            await store.close()
        assert commits >= total, f"seed {seed}, round {round_}: commits were lost"
        total = commits
    assert total > MATCHES, f"seed {seed}: the writer hardly wrote anything"


@pytest.mark.slow
def test_sqlite_survives_kills_during_batched_commits(sqlite_url: str) -> None:
    upgrade(sqlite_url)
    asyncio.run(_crash_repeatedly(sqlite_url))


@pytest.mark.slow
@pytest.mark.postgres
def test_postgres_survives_kills_during_batched_commits(fresh_postgres_url: str) -> None:
    upgrade(fresh_postgres_url)
    asyncio.run(_crash_repeatedly(fresh_postgres_url))


async def test_the_check_catches_a_cut_commit_and_a_lost_acknowledgement(sqlite_url: str) -> None:
    """Control: the checker fails on the damage it looks for (planted, not from a crash)."""
    await asyncio.to_thread(upgrade, sqlite_url)
    store = create_store(sqlite_url)
    assert isinstance(store, SqliteEventStore)
    try:
        players = [(await new_player(store, "P")).id]
        record = match_record(status="active")
        await store.create_match(record, [SeatRecord(record.id, 0), SeatRecord(record.id, 1)])
        seq = 0
        while seq < 6:  # commits of 1, 2, 1 and 2 events
            seq = (await store.append(commit_of(record.id, seq, players[0]))).seq
        assert await _check(store, [record.id], players, {record.id: 6}) == 4
        with pytest.raises(AssertionError, match="acknowledged commit is missing"):
            await _check(store, [record.id], players, {record.id: 7})
        cut = (  # the last event of the commit 5-6 goes, and the projection follows
            "DELETE FROM events WHERE match_id = ? AND seq = 6",
            "UPDATE matches SET seq = 5, to_act = '[1]' WHERE id = ?",
        )
        await store.writer.run(lambda conn: [conn.execute(q, (record.id,)) for q in cut])
        with pytest.raises(AssertionError, match="a commit is cut"):
            await _check(store, [record.id], players, {})
    finally:
        await store.close()

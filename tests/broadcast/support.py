"""Helpers for the broadcast and live-hub tests: a recording handler, matches and appends."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime

import asyncpg
import redis.asyncio as aioredis

from app.broadcast.postgres import PostgresBroadcaster, asyncpg_dsn
from app.broadcast.redis import RedisBroadcaster
from app.service.ports import Append, EventStore, MatchRecord, MatchUpdate, NewEvent, SeatRecord

GUARD = 20.0  # seconds: only a guard against hangs, never an expectation of speed
T0 = datetime(2026, 1, 1, tzinfo=UTC)


class Recorder:
    """A broadcaster handler that records its calls and lets a test wait for a condition on them."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []
        self._changed = asyncio.Event()

    def __call__(self, match_id: str, seq: int) -> None:
        self.calls.append((match_id, seq))
        self._changed.set()

    async def wait_for(self, predicate: Callable[[list[tuple[str, int]]], bool]) -> None:
        async def wait() -> None:
            while not predicate(self.calls):
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(wait(), GUARD)

    async def wait_for_call(self, match_id: str, seq: int) -> None:
        await self.wait_for(lambda calls: (match_id, seq) in calls)


async def eventually(predicate: Callable[[], bool]) -> None:
    """Yield to the loop until `predicate()` holds (guarded against hangs)."""

    async def wait() -> None:
        while not predicate():  # noqa: ASYNC110 - polls state owned by the code under test
            await asyncio.sleep(0.001)

    await asyncio.wait_for(wait(), GUARD)


async def create_match(store: EventStore, match_id: str, players: int = 2) -> None:
    match = MatchRecord(
        id=match_id,
        game="test",
        players=players,
        options={},
        status="active",
        seq=0,
        created_at=T0,
        updated_at=T0,
        secret="s",
        commitment="c",
    )
    await store.create_match(match, [SeatRecord(match_id, seat) for seat in range(players)])


async def append(store: EventStore, match_id: str, count: int = 1) -> int:
    """Append `count` events at the store's current seq; returns the new seq."""
    match = await store.get_match(match_id)
    assert match is not None
    events = tuple(NewEvent("Tick", {"n": match.seq + i + 1}) for i in range(count))
    result = await store.append(Append(match_id, match.seq, events, MatchUpdate("active", (0,)), T0))
    return result.seq


async def kill_postgres_listener(url: str, broadcaster: PostgresBroadcaster) -> None:
    """Terminate exactly this broadcaster's LISTEN connection, from the server side."""
    conn = await asyncpg.connect(asyncpg_dsn(url))
    try:
        killed = await conn.fetchval(
            "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE application_name = $1) AS t",
            broadcaster.application_name,
        )
    finally:
        await conn.close()
    assert killed == 1


async def kill_redis_listener(url: str, broadcaster: RedisBroadcaster) -> None:
    """Kill exactly this broadcaster's subscribed connection, from the server side."""
    client = aioredis.Redis.from_url(url, decode_responses=True)
    try:
        ids = [c["id"] for c in await client.client_list() if c.get("name") == broadcaster.client_name]
        assert len(ids) == 1
        await client.client_kill_filter(_id=ids[0])
    finally:
        await client.aclose()

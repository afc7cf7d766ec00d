"""Two hubs, like two processes, over one store and a shared PostgreSQL or Redis broadcaster.

Each hub has its own broadcaster instance with its own connections; the store is shared, as the
database would be. Commits notified on hub B must reach subscribers on hub A, in order, none
missing, also when A's listening connection is killed in the middle.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from app.broadcast.base import Backoff
from app.broadcast.postgres import PostgresBroadcaster
from app.broadcast.redis import RedisBroadcaster
from app.service.live import LiveHub
from app.service.ports import Broadcaster
from app.service.subscription import SlowConsumer
from app.store.memory import MemoryEventStore
from tests.broadcast.support import GUARD, append, create_match, kill_postgres_listener, kill_redis_listener

Processes = tuple[LiveHub, LiveHub, MemoryEventStore, Callable[[], Awaitable[None]]]


@pytest.fixture(
    params=[
        pytest.param("postgres", marks=pytest.mark.postgres),
        pytest.param("redis", marks=pytest.mark.redis),
    ]
)
def backend_url(request: pytest.FixtureRequest) -> tuple[str, str]:
    # A sync fixture: `postgres_url` creates its database with asyncio.run, outside the test's loop.
    return request.param, request.getfixturevalue(f"{request.param}_url")


@pytest.fixture
async def processes(backend_url: tuple[str, str], channel_prefix: str) -> AsyncIterator[Processes]:
    """(hub A, hub B, the shared store, a function killing A's listening connection)."""
    backend, url = backend_url
    # A's first reconnect waits a little, so commits made meanwhile really are missed (not timed).
    fast = Backoff(0.25, 0.5)
    a: Broadcaster
    b: Broadcaster
    if backend == "postgres":
        a = pg_a = PostgresBroadcaster(url, prefix=channel_prefix, backoff=fast)
        b = PostgresBroadcaster(url, prefix=channel_prefix)

        async def kill() -> None:
            await kill_postgres_listener(url, pg_a)

    else:
        a = redis_a = RedisBroadcaster(url, prefix=channel_prefix, backoff=fast)
        b = RedisBroadcaster(url, prefix=channel_prefix)

        async def kill() -> None:
            await kill_redis_listener(url, redis_a)

    store = MemoryEventStore()
    await create_match(store, "m")
    hub_a, hub_b = LiveHub(store, a), LiveHub(store, b)
    await hub_a.start()
    await hub_b.start()
    try:
        yield hub_a, hub_b, store, kill
    finally:
        await hub_a.stop()
        await hub_b.stop()


async def _commits(hub: LiveHub, store: MemoryEventStore, total: int, rng: random.Random) -> None:
    seq = 0
    while seq < total:
        seq = await append(store, "m", min(rng.randint(1, 3), total - seq))
        await hub.notify("m", seq)
        for _ in range(rng.randrange(3)):
            await asyncio.sleep(0)


async def _read_until(hub: LiveHub, total: int, after: int = 0) -> list[int]:
    seen: list[int] = []
    while after < total:
        try:
            async with hub.subscribe("m", after=after) as sub:
                async for event in sub:
                    seen.append(event.seq)
                    if event.seq == total:
                        break
                after = sub.last_seq
        except SlowConsumer:
            after = seen[-1] if seen else after
    return seen


async def test_a_subscriber_on_one_hub_sees_commits_notified_on_the_other(processes: Processes) -> None:
    hub_a, hub_b, store, _ = processes
    async with hub_a.subscribe("m") as sub_a, hub_b.subscribe("m") as sub_b:
        for expected in range(1, 6):
            await append(store, "m")
            await hub_b.notify("m", expected)
            assert (await asyncio.wait_for(anext(sub_a), GUARD)).seq == expected
            assert (await asyncio.wait_for(anext(sub_b), GUARD)).seq == expected  # once, echo or not


async def test_many_commits_across_hubs_arrive_in_order_none_missing(processes: Processes) -> None:
    hub_a, hub_b, store, _ = processes
    rng = random.Random(7)
    total = 150
    readers = [
        asyncio.ensure_future(_read_until(hub, total, after))
        for hub, after in [(hub_a, 0), (hub_a, 0), (hub_b, 0), (hub_a, 40)]
    ]
    await asyncio.sleep(0)
    # Both hubs commit, as two processes serving the same match would (in turn, like the store).
    writers = [hub_b] * 3 + [hub_a]
    seq = 0
    while seq < total:
        hub = rng.choice(writers)
        seq = await append(store, "m", min(rng.randint(1, 3), total - seq))
        await hub.notify("m", seq)
    for reader, first in zip(readers, (0, 0, 0, 40), strict=True):
        assert await asyncio.wait_for(reader, GUARD) == list(range(first + 1, total + 1))


async def test_nothing_is_missed_when_the_listening_connection_drops(processes: Processes) -> None:
    hub_a, hub_b, store, kill = processes
    rng = random.Random(3)
    async with hub_a.subscribe("m") as sub:
        await append(store, "m")
        await hub_b.notify("m", 1)
        assert (await asyncio.wait_for(anext(sub), GUARD)).seq == 1
        await kill()
        await _commits(hub_b, store, 10, rng)  # some of these notifications are lost on A
        seqs = [(await asyncio.wait_for(anext(sub), GUARD)).seq for _ in range(9)]
        assert seqs == list(range(2, 11))  # the resync after reconnecting read them

"""The rate limits' sliding-window counters, in memory and in Redis, through the same cases on the
injected clock: a full bucket, the previous bucket's weight sliding out, the wait a refusal gives,
a request counted in all of its counters or in none, and old counters forgotten."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from typing import Protocol

import pytest
import redis.asyncio as aioredis
import redis.exceptions

from app.api.rate_counters import Check, MemoryCounters, RedisCounters, Spent

START = 100_000.0  # a bucket boundary for windows of 1, 10 and 60 s


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


class Counters(Protocol):
    async def spend(self, checks: Sequence[Check]) -> Spent | None: ...


class InMemory:
    def __init__(self, clock: Clock) -> None:
        self.counters = MemoryCounters(clock, sweep_every=30)

    async def spend(self, checks: Sequence[Check]) -> Spent | None:
        return self.counters.spend(checks)


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def both(request: pytest.FixtureRequest, clock: Clock) -> AsyncIterator[Counters]:
    if request.param == "memory":
        yield InMemory(clock)
        return
    url = request.getfixturevalue("redis_url")
    prefix = request.getfixturevalue("channel_prefix")
    client = aioredis.Redis.from_url(url)
    try:
        yield RedisCounters(client, prefix, clock)
    finally:
        keys = [key async for key in client.scan_iter(f"{prefix}:*")]
        if keys:
            await client.delete(*keys)
        await client.aclose()


@pytest.fixture
def clock() -> Clock:
    return Clock()


async def passes(counters: Counters, checks: Sequence[Check], n: int) -> int:
    """How many of `n` requests in a row pass."""
    return sum([await counters.spend(checks) is None for _ in range(n)])


async def test_a_full_bucket_refuses_until_the_window_ends(both: Counters, clock: Clock) -> None:
    three = [Check("a", 3, 10.0)]
    clock.now = START + 2
    assert await passes(both, three, 3) == 3
    spent = await both.spend(three)
    assert spent is not None and spent.at == 0 and spent.wait == pytest.approx(8.0)
    assert await passes(both, three, 5) == 0  # refusals count nothing
    clock.now = START + 10  # the next bucket: the previous one weighs all but nothing
    assert await passes(both, three, 1) == 0
    clock.now = START + 10.5
    assert await passes(both, three, 2) == 1  # 3 * 0.95 = 2.85 < 3, then 3.85


async def test_the_previous_bucket_slides_out(both: Counters, clock: Clock) -> None:
    three = [Check("a", 3, 10.0)]
    assert await passes(both, three, 3) == 3
    clock.now = START + 15  # half the previous bucket is left: it weighs 1.5
    assert await passes(both, three, 3) == 2
    spent = await both.spend(three)
    # 3 * (10 - e) / 10 + 2 < 3 from e > 6.67: 1.67 s from e = 5
    assert spent is not None and spent.wait == pytest.approx(10 / 6, rel=1e-6)
    clock.now = START + 16.7
    assert await passes(both, three, 1) == 1
    clock.now = START + 35  # two windows on: nothing is left of either bucket
    assert await passes(both, three, 4) == 3


async def test_a_request_counts_in_all_its_counters_or_in_none(both: Counters, clock: Clock) -> None:
    wide, narrow = Check("wide", 5, 60.0), Check("narrow", 1, 1.0)
    assert await both.spend([wide, narrow]) is None
    spent = await both.spend([wide, narrow])
    assert spent is not None and spent.at == 1 and spent.wait == pytest.approx(1.0)
    # the refused request did not spend `wide`: 4 of its 5 are left
    assert await passes(both, [wide], 10) == 4
    spent = await both.spend([wide, narrow])
    assert spent is not None and spent.at == 0  # the first spent counter is the one named


async def test_requests_at_once_are_counted_one_after_the_other(both: Counters, clock: Clock) -> None:
    spent = await asyncio.gather(
        *(both.spend([Check("a", 3, 60.0), Check(f"own-{i}", 9, 60.0)]) for i in range(10))
    )
    assert [s is None for s in spent] == [True] * 3 + [False] * 7
    if isinstance(both, RedisCounters):  # requests that come together go in one call
        assert both.calls == 1
    assert await passes(both, [Check("own-9", 1, 60.0)], 1) == 1  # refused: `own-9` not spent


async def test_a_failing_redis_fails_every_request_of_the_batch(clock: Clock) -> None:
    client = aioredis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=1)
    try:
        counters = RedisCounters(client, "nowhere", clock)
        results = await asyncio.gather(
            *(counters.spend([Check("a", 1, 1.0)]) for _ in range(3)), return_exceptions=True
        )
        assert all(isinstance(r, redis.exceptions.ConnectionError) for r in results)
        assert counters.calls == 1
    finally:
        await client.aclose()


async def test_counters_are_kept_apart_by_key(both: Counters, clock: Clock) -> None:
    assert await passes(both, [Check("one", 2, 60.0)], 3) == 2
    assert await passes(both, [Check("two", 2, 60.0)], 3) == 2


def test_memory_forgets_counters_two_windows_old(clock: Clock) -> None:
    counters = MemoryCounters(clock, sweep_every=30)
    for i in range(100):
        assert counters.spend([Check(f"client-{i}", 1, 1.0)]) is None
    assert counters.spend([Check("steady", 5, 60.0)]) is None
    clock.now = START + 31  # the next sweep: the 1-second counters are gone, the minute's is not
    assert counters.spend([Check("new", 1, 1.0)]) is None
    assert sorted(counters.keys()) == ["new", "steady"]


@pytest.mark.redis
async def test_redis_counters_expire_two_windows_on(
    redis_url: str, channel_prefix: str, clock: Clock
) -> None:
    client = aioredis.Redis.from_url(redis_url)
    try:
        counters = RedisCounters(client, channel_prefix, clock)
        assert await counters.spend([Check("a", 3, 10.0), Check("b", 3, 60.0)]) is None
        ttls = [await client.pttl(f"{channel_prefix}:{key}") for key in ("a", "b")]
        assert 0 < ttls[0] <= 20_000 and 20_000 < ttls[1] <= 120_000
        # without a clock of its own the script reads Redis's time, which is today's
        live = RedisCounters(client, channel_prefix)
        assert await live.spend([Check("c", 1, 3600.0)]) is None
        spent = await live.spend([Check("c", 1, 3600.0)])
        assert spent is not None and 0 < spent.wait <= 3600
    finally:
        await client.delete(*[f"{channel_prefix}:{key}" for key in ("a", "b", "c")])
        await client.aclose()

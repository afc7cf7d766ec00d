"""The networked broadcasters survive a lost connection and ask for a resync afterwards.

The listening connection is killed from the server side (`pg_terminate_backend`, `CLIENT KILL`),
found by the name each broadcaster gives it, so no other test's connections are touched.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
import redis.exceptions

from app.broadcast.base import Backoff
from app.broadcast.postgres import PostgresBroadcaster
from app.broadcast.redis import RedisBroadcaster
from app.service.live import RESYNC
from app.service.ports import Broadcaster
from tests.broadcast.support import Recorder, kill_postgres_listener, kill_redis_listener


async def _check_reconnect(
    listener: Broadcaster, publisher: Broadcaster, kill: Callable[[], Awaitable[None]]
) -> None:
    heard = Recorder()
    await listener.start(heard)
    await publisher.start(Recorder())
    try:
        await listener.subscribe("a")
        await listener.subscribe("b")
        await publisher.publish("a", 1)
        await heard.wait_for_call("a", 1)

        await kill()
        await listener.subscribe("c")  # while reconnecting, or just after: either way it takes
        await heard.wait_for(lambda calls: {("a", RESYNC), ("b", RESYNC)} <= set(calls))

        await publisher.publish("a", 2)
        await publisher.publish("c", 1)
        await heard.wait_for(lambda calls: {("a", 2), ("c", 1)} <= set(calls))
        assert [seq for m, seq in heard.calls if m == "a" and seq != RESYNC] == [1, 2]
    finally:
        await publisher.stop()
        await listener.stop()


@pytest.mark.postgres
async def test_postgres_reconnects_and_resyncs(postgres_url: str, channel_prefix: str) -> None:
    listener = PostgresBroadcaster(postgres_url, prefix=channel_prefix, backoff=Backoff(0.01, 0.2))
    publisher = PostgresBroadcaster(postgres_url, prefix=channel_prefix)
    await _check_reconnect(listener, publisher, lambda: kill_postgres_listener(postgres_url, listener))


@pytest.mark.redis
async def test_redis_reconnects_and_resyncs(redis_url: str, channel_prefix: str) -> None:
    listener = RedisBroadcaster(redis_url, prefix=channel_prefix, backoff=Backoff(0.01, 0.2))
    publisher = RedisBroadcaster(redis_url, prefix=channel_prefix)
    await _check_reconnect(listener, publisher, lambda: kill_redis_listener(redis_url, listener))


async def test_postgres_start_fails_cleanly_when_unreachable() -> None:
    broadcaster = PostgresBroadcaster("postgresql://postgres@127.0.0.1:1/none")
    with pytest.raises(OSError):
        await broadcaster.start(Recorder())
    await broadcaster.stop()


async def test_redis_start_fails_cleanly_when_unreachable() -> None:
    broadcaster = RedisBroadcaster("redis://127.0.0.1:1/0")
    with pytest.raises(redis.exceptions.ConnectionError):
        await broadcaster.start(Recorder())
    await broadcaster.stop()


async def _check_quiet_connection_survives(listener: Broadcaster, publisher: Broadcaster) -> None:
    # With a tiny health interval the listener pings through every quiet spell; answered pings
    # must not count as a lost connection (which would show as RESYNC calls).
    heard = Recorder()
    await listener.start(heard)
    await publisher.start(Recorder())
    try:
        await listener.subscribe("m")
        await asyncio.sleep(0.3)  # let several health intervals pass; not a timing assertion
        await publisher.publish("m", 1)
        await heard.wait_for_call("m", 1)
        assert heard.calls == [("m", 1)]
    finally:
        await publisher.stop()
        await listener.stop()


@pytest.mark.postgres
async def test_postgres_health_checks_keep_a_quiet_connection(postgres_url: str, channel_prefix: str) -> None:
    await _check_quiet_connection_survives(
        PostgresBroadcaster(postgres_url, prefix=channel_prefix, health_interval=0.02),
        PostgresBroadcaster(postgres_url, prefix=channel_prefix),
    )


@pytest.mark.redis
async def test_redis_health_checks_keep_a_quiet_connection(redis_url: str, channel_prefix: str) -> None:
    await _check_quiet_connection_survives(
        RedisBroadcaster(redis_url, prefix=channel_prefix, health_interval=0.02),
        RedisBroadcaster(redis_url, prefix=channel_prefix),
    )

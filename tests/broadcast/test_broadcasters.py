"""Contract suite for the three broadcasters: one test body, every backend.

For PostgreSQL and Redis the publisher and the listener are two instances with their own
connections, like two processes; the memory broadcaster is in-process, so it is one instance.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from app.broadcast import create_broadcaster
from app.broadcast.memory import MemoryBroadcaster
from app.broadcast.postgres import PostgresBroadcaster
from app.broadcast.redis import RedisBroadcaster
from app.service.ports import Broadcaster
from tests.broadcast.conftest import Factory
from tests.broadcast.support import Recorder

Stopper = Callable[[Callable[[], Awaitable[None]]], None]


async def _pair(make_broadcaster: Factory, stopper: Stopper) -> tuple[Broadcaster, Broadcaster, Recorder]:
    """(publisher, listener, the listener's recorder), started; the same instance for memory."""
    listener = make_broadcaster()
    heard = Recorder()
    await listener.start(heard)
    stopper(listener.stop)
    if isinstance(listener, MemoryBroadcaster):
        return listener, listener, heard
    publisher = make_broadcaster()
    await publisher.start(Recorder())
    stopper(publisher.stop)
    return publisher, listener, heard


async def test_publish_reaches_the_subscriber(make_broadcaster: Factory, stopper: Stopper) -> None:
    publisher, listener, heard = await _pair(make_broadcaster, stopper)
    await listener.subscribe("m1")
    await publisher.publish("m1", 7)
    await heard.wait_for_call("m1", 7)
    assert heard.calls == [("m1", 7)]


async def test_publish_many_reaches_the_subscribers_in_order(
    make_broadcaster: Factory, stopper: Stopper
) -> None:
    publisher, listener, heard = await _pair(make_broadcaster, stopper)
    await listener.subscribe("m1")
    await listener.subscribe("m2")
    await publisher.publish_many([("m1", 1)])  # one: as `publish`
    await publisher.publish_many([("m2", 5), ("other", 3), ("m1", 2), ("m2", 6)])
    await heard.wait_for_call("m2", 6)
    assert heard.calls == [("m1", 1), ("m2", 5), ("m1", 2), ("m2", 6)]


async def test_only_subscribed_matches_are_delivered(make_broadcaster: Factory, stopper: Stopper) -> None:
    publisher, listener, heard = await _pair(make_broadcaster, stopper)
    await listener.subscribe("wanted")
    await publisher.publish("other", 1)
    await publisher.publish("wanted", 2)  # one publisher's messages arrive in order
    await heard.wait_for_call("wanted", 2)
    assert heard.calls == [("wanted", 2)]


async def test_unsubscribe_stops_delivery(make_broadcaster: Factory, stopper: Stopper) -> None:
    publisher, listener, heard = await _pair(make_broadcaster, stopper)
    await listener.subscribe("gone")
    await listener.subscribe("sentinel")
    await publisher.publish("gone", 1)
    await heard.wait_for_call("gone", 1)
    await listener.unsubscribe("gone")
    await publisher.publish("gone", 2)
    await publisher.publish("sentinel", 1)
    await heard.wait_for_call("sentinel", 1)
    assert heard.calls == [("gone", 1), ("sentinel", 1)]


async def test_subscriptions_are_ref_counted(make_broadcaster: Factory, stopper: Stopper) -> None:
    publisher, listener, heard = await _pair(make_broadcaster, stopper)
    await listener.subscribe("m")
    await listener.subscribe("m")
    await listener.subscribe("sentinel")
    await listener.unsubscribe("m")
    await publisher.publish("m", 1)  # still one subscription left
    await heard.wait_for_call("m", 1)
    await listener.unsubscribe("m")
    await listener.unsubscribe("m")  # one too many: ignored
    await publisher.publish("m", 2)
    await publisher.publish("sentinel", 1)
    await heard.wait_for_call("sentinel", 1)
    await listener.subscribe("m")  # counting starts again from zero
    await publisher.publish("m", 3)
    await heard.wait_for_call("m", 3)
    assert heard.calls == [("m", 1), ("sentinel", 1), ("m", 3)]


async def test_many_matches(make_broadcaster: Factory, stopper: Stopper) -> None:
    publisher, listener, heard = await _pair(make_broadcaster, stopper)
    matches = [f"match-{i}" for i in range(40)]
    for match_id in matches:
        await listener.subscribe(match_id)
    for seq in (1, 2):
        for match_id in matches:
            await publisher.publish(match_id, seq)
    expected = {(m, seq) for m in matches for seq in (1, 2)}
    await heard.wait_for(lambda calls: expected <= set(calls))
    assert sorted(heard.calls) == sorted(expected)
    for match_id in matches:  # each match's seqs arrive in publish order
        assert [s for m, s in heard.calls if m == match_id] == [1, 2]


async def test_a_broadcaster_hears_its_own_publishes(make_broadcaster: Factory, stopper: Stopper) -> None:
    # The hub relies on de-duplicating this echo, not on its absence.
    broadcaster = make_broadcaster()
    heard = Recorder()
    await broadcaster.start(heard)
    stopper(broadcaster.stop)
    await broadcaster.subscribe("m")
    await broadcaster.publish("m", 1)
    await heard.wait_for_call("m", 1)


async def test_stop_is_clean_and_idempotent(make_broadcaster: Factory) -> None:
    broadcaster = make_broadcaster()
    heard = Recorder()
    await broadcaster.start(heard)
    await broadcaster.subscribe("m")
    await broadcaster.publish("m", 1)
    await heard.wait_for_call("m", 1)
    await broadcaster.stop()
    await broadcaster.stop()
    # A stopped broadcaster can be started again (a fresh connection).
    await broadcaster.start(heard)
    await broadcaster.stop()


async def test_start_twice_is_refused(make_broadcaster: Factory, stopper: Stopper) -> None:
    broadcaster = make_broadcaster()
    await broadcaster.start(Recorder())
    stopper(broadcaster.stop)
    with pytest.raises(RuntimeError):
        await broadcaster.start(Recorder())


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("memory://", MemoryBroadcaster),
        ("postgresql://u@h/db", PostgresBroadcaster),
        ("postgresql+asyncpg://u:p@h:5432/db", PostgresBroadcaster),
        ("postgres://h/db", PostgresBroadcaster),
        ("redis://localhost:6379/0", RedisBroadcaster),
        ("rediss://localhost", RedisBroadcaster),
    ],
)
def test_factory_picks_by_scheme(url: str, kind: type[object]) -> None:
    broadcaster: Broadcaster = create_broadcaster(url, prefix="p")
    assert type(broadcaster) is kind


@pytest.mark.parametrize("url", ["sqlite:///x.db", "kafka://h", "nonsense"])
def test_factory_refuses_unknown_schemes(url: str) -> None:
    with pytest.raises(ValueError, match="scheme"):
        create_broadcaster(url)


def test_postgres_channel_name_must_fit_an_identifier() -> None:
    with pytest.raises(ValueError, match="longer than 63"):
        PostgresBroadcaster("postgresql://h/db", prefix="x" * 60)

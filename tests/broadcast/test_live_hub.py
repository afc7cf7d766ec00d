"""The live hub over the in-memory store and broadcaster: order, resumption, races, slow consumers."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import pytest

from app.broadcast.memory import MemoryBroadcaster
from app.service import publishing
from app.service.live import RESYNC, LiveHub
from app.service.ports import EventStore, MessageHandler, Notifier, StoredEvent
from app.service.subscription import GoingAway, SlowConsumer, Subscription
from app.store.memory import MemoryEventStore
from tests.broadcast.support import GUARD, append, create_match, eventually


class SpyBroadcaster(MemoryBroadcaster):
    """The memory broadcaster, recording calls; `fail_publish` makes `publish` raise; a `gate`
    holds every publish until it is set."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, str]] = []
        self.handler: MessageHandler | None = None
        self.fail_publish = False
        self.gate: asyncio.Event | None = None
        self.batches: list[list[tuple[str, int]]] = []

    async def start(self, handler: MessageHandler) -> None:
        self.calls.append(("start", ""))
        self.handler = handler
        await super().start(handler)

    async def stop(self) -> None:
        self.calls.append(("stop", ""))
        await super().stop()

    async def publish_many(self, items: Sequence[tuple[str, int]]) -> None:
        self.batches.append(list(items))
        await super().publish_many(items)

    async def publish(self, match_id: str, seq: int) -> None:
        if self.gate is not None:
            await self.gate.wait()
        self.calls.append(("publish", f"{match_id}:{seq}"))
        if self.fail_publish:
            raise ConnectionError("broadcast backend down")
        await super().publish(match_id, seq)

    async def subscribe(self, match_id: str) -> None:
        self.calls.append(("subscribe", match_id))
        await super().subscribe(match_id)

    async def unsubscribe(self, match_id: str) -> None:
        self.calls.append(("unsubscribe", match_id))
        await super().unsubscribe(match_id)

    def count(self, kind: str, arg: str) -> int:
        return self.calls.count((kind, arg))


class FlakyStore(MemoryEventStore):
    """A memory store whose next `fail_reads` reads (and `get_match` calls) raise; with
    `stubborn_read`, its next read swallows the first cancellation (as a driver shielding its
    connection's cleanup may) and hangs on until cancelled again."""

    def __init__(self) -> None:
        super().__init__()
        self.fail_reads = 0
        self.fail_get_match = 0
        self.stubborn_read = False
        self.reading = asyncio.Event()  # set when the stubborn read starts
        self.swallowed = False

    async def read(self, match_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        if self.fail_reads:
            self.fail_reads -= 1
            raise OSError("database unreachable")
        if self.stubborn_read:
            self.stubborn_read = False
            self.reading.set()
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                task = asyncio.current_task()
                assert task is not None
                task.uncancel()
                self.swallowed = True
            await asyncio.sleep(3600)
        return await super().read(match_id, after, limit)

    async def get_match(self, match_id: str) -> Any:
        if self.fail_get_match:
            self.fail_get_match -= 1
            raise OSError("database unreachable")
        return await super().get_match(match_id)


@pytest.fixture
async def store() -> FlakyStore:
    store = FlakyStore()
    await create_match(store, "m")
    await create_match(store, "n")
    return store


@pytest.fixture
def spy() -> SpyBroadcaster:
    return SpyBroadcaster()


@pytest.fixture
async def hub(store: FlakyStore, spy: SpyBroadcaster) -> AsyncIterator[LiveHub]:
    hub = LiveHub(store, spy, quiet_s=0)  # no rounds of quiet feeds: only what a test does reads
    await hub.start()
    yield hub
    await hub.stop()


async def take(sub: Subscription, count: int) -> list[int]:
    """The seqs of the next `count` events (guarded against hangs)."""

    async def collect() -> list[int]:
        return [(await anext(sub)).seq for _ in range(count)]

    return await asyncio.wait_for(collect(), GUARD)


async def commit(hub: LiveHub, store: EventStore, match_id: str, count: int = 1) -> int:
    """What the service does: append, then notify."""
    seq = await append(store, match_id, count)
    await hub.notify(match_id, seq)
    return seq


def test_the_hub_is_the_services_notifier(hub: LiveHub) -> None:
    notifier: Notifier = hub
    assert notifier is hub


async def test_backlog_then_live_in_order(hub: LiveHub, store: FlakyStore) -> None:
    await commit(hub, store, "m", 3)
    async with hub.subscribe("m", after=0) as sub:
        assert await take(sub, 3) == [1, 2, 3]
        await commit(hub, store, "m", 2)
        assert await take(sub, 2) == [4, 5]
        await commit(hub, store, "m")
        event = await asyncio.wait_for(anext(sub), GUARD)
        assert (event.match_id, event.seq, event.type, event.data) == ("m", 6, "Tick", {"n": 6})
        assert sub.last_seq == 6


async def test_resume_with_after_gets_exactly_the_missed_events(hub: LiveHub, store: FlakyStore) -> None:
    await commit(hub, store, "m", 5)
    async with hub.subscribe("m", after=2) as sub:
        assert await take(sub, 3) == [3, 4, 5]
        await commit(hub, store, "m")
        assert await take(sub, 1) == [6]


async def test_a_subscriber_ahead_of_the_hub_skips_what_it_has(hub: LiveHub, store: FlakyStore) -> None:
    await append(store, "m", 2)  # the client saw 3 and 4 in its HTTP reply before the notify
    async with hub.subscribe("m", after=4) as sub:
        await commit(hub, store, "m", 3)  # 3..5
        assert await take(sub, 1) == [5]


async def test_subscribers_share_one_read_per_commit(hub: LiveHub, store: FlakyStore) -> None:
    async with hub.subscribe("m") as a, hub.subscribe("m") as b, hub.subscribe("m") as c:
        stats = hub.stats()
        assert (stats["matches"], stats["subscribers"]) == (1, 3)
        waiting = [asyncio.ensure_future(take(sub, 2)) for sub in (a, b, c)]
        await asyncio.sleep(0)  # all three are waiting on the live feed
        await commit(hub, store, "m", 2)
        assert [await w for w in waiting] == [[1, 2]] * 3
    stats = hub.stats()
    assert (stats["events_read"], stats["backlog_events_read"]) == (2, 0)  # once, for all three


async def test_each_event_reaches_a_subscriber_once_despite_echoes(
    hub: LiveHub, store: FlakyStore, spy: SpyBroadcaster
) -> None:
    async with hub.subscribe("m") as sub:
        for _ in range(5):
            seq = await commit(hub, store, "m")
            await hub.notify("m", seq)  # a repeat
            await hub.notify("m", seq - 1)  # stale
        assert spy.handler is not None
        spy.handler("m", 3)  # late, from another process
        await commit(hub, store, "m")
        assert await take(sub, 6) == [1, 2, 3, 4, 5, 6]
        assert not sub._queue  # nothing extra was queued


async def test_a_quiet_feed_is_read_again_each_round_it_has_not_moved(
    store: FlakyStore, spy: SpyBroadcaster
) -> None:
    """A notification lost altogether (its process killed between commit and publish) after a
    match's last commit: no later notification mends it, the hub's round of quiet feeds does. A feed
    that moved since the last round is not read (it is being told)."""
    hub = LiveHub(store, spy, quiet_s=0)  # rounds run by hand here (the server runs them every 30 s)
    await hub.start()
    try:
        async with hub.subscribe("m") as m, hub.subscribe("n") as n:
            assert await hub.read_quiet() == 0  # the first round marks where each feed is
            await append(store, "m", 2)  # committed elsewhere; the notification was lost
            await commit(hub, store, "n")  # told: n moved
            assert await take(n, 1) == [1]
            assert await hub.read_quiet() == 1  # m has not moved since the last round; n has
            assert await take(m, 2) == [1, 2]
            await append(store, "n", 1)  # lost too
            assert await hub.read_quiet() == 1  # n; m moved since the last round (by that round's read)
            assert await take(n, 1) == [2]
            assert await hub.read_quiet() == 1  # m, quiet since; n moved
            assert hub.stats()["quiet_reads"] == 3
            assert not m._queue and not n._queue  # reads that found nothing new queue nothing
    finally:
        await hub.stop()
    with pytest.raises(ValueError, match="quiet_s"):
        LiveHub(store, spy, quiet_s=-1)


async def test_the_hub_reads_quiet_feeds_on_its_own(store: FlakyStore, spy: SpyBroadcaster) -> None:
    hub = LiveHub(store, spy, quiet_s=0.01)  # a short pace: a guard waits for it, nothing is timed
    await hub.start()
    try:
        async with hub.subscribe("m") as sub:
            await append(store, "m", 1)  # the notification was lost
            assert await take(sub, 1) == [1]
            assert hub.stats()["quiet_reads"] >= 1
    finally:
        await hub.stop()


async def test_resync_makes_the_hub_read_what_it_was_not_told(
    hub: LiveHub, store: FlakyStore, spy: SpyBroadcaster
) -> None:
    async with hub.subscribe("m") as sub:
        await commit(hub, store, "m")
        assert await take(sub, 1) == [1]
        await append(store, "m", 2)  # committed elsewhere; the notification was lost
        assert spy.handler is not None
        spy.handler("m", RESYNC)
        assert await take(sub, 2) == [2, 3]


async def test_slow_consumer_ends_and_resumes_without_loss(store: FlakyStore) -> None:
    hub = LiveHub(store, MemoryBroadcaster(), queue_limit=4)
    await hub.start()
    try:
        async with hub.subscribe("m") as sub:
            await commit(hub, store, "m", 2)
            assert await take(sub, 2) == [1, 2]
            waiting = asyncio.ensure_future(anext(sub))
            await commit(hub, store, "m")
            assert (await asyncio.wait_for(waiting, GUARD)).seq == 3
            for _ in range(3):  # the consumer stalls while commits keep coming
                await commit(hub, store, "m", 2)
            await eventually(lambda: hub.stats()["slow_consumers"] == 1)
            with pytest.raises(SlowConsumer):
                await anext(sub)
            with pytest.raises(SlowConsumer):  # and it stays ended
                await anext(sub)
            resume_after = sub.last_seq
        assert resume_after == 3
        async with hub.subscribe("m", after=resume_after) as again:
            assert await take(again, 6) == [4, 5, 6, 7, 8, 9]
    finally:
        await hub.stop()


async def test_a_long_backlog_is_read_in_pages_without_overflowing(store: FlakyStore) -> None:
    hub = LiveHub(store, MemoryBroadcaster(), queue_limit=4)
    await hub.start()
    try:
        await commit(hub, store, "m", 30)
        async with hub.subscribe("m") as sub:
            assert await take(sub, 30) == list(range(1, 31))
            await commit(hub, store, "m")
            assert await take(sub, 1) == [31]
        assert hub.stats()["slow_consumers"] == 0
    finally:
        await hub.stop()


async def test_one_broadcaster_subscription_per_match_and_the_last_leaver_unsubscribes(
    hub: LiveHub, spy: SpyBroadcaster
) -> None:
    a = await hub.subscribe("m").__aenter__()
    b = await hub.subscribe("m").__aenter__()
    c = await hub.subscribe("n").__aenter__()
    assert (spy.count("subscribe", "m"), spy.count("subscribe", "n")) == (1, 1)
    stats = hub.stats()
    assert (stats["matches"], stats["subscribers"]) == (2, 3)
    await a.__aexit__(None, None, None)
    assert spy.count("unsubscribe", "m") == 0
    await b.__aexit__(None, None, None)
    assert spy.count("unsubscribe", "m") == 1
    assert spy.count("unsubscribe", "n") == 0
    assert hub.stats()["matches"] == 1
    async with hub.subscribe("m"):  # a new first subscriber subscribes again
        assert spy.count("subscribe", "m") == 2
    await c.__aexit__(None, None, None)
    assert (spy.count("unsubscribe", "m"), spy.count("unsubscribe", "n")) == (2, 1)
    assert hub.stats()["matches"] == 0
    assert asyncio.all_tasks() == {asyncio.current_task()}  # no reader task left behind


async def test_stop_ends_every_subscription_with_going_away(store: FlakyStore, spy: SpyBroadcaster) -> None:
    hub = LiveHub(store, spy)
    await hub.start()
    await commit(hub, store, "m", 3)
    async with hub.subscribe("m", after=3) as live, hub.subscribe("m") as behind:
        waiting = asyncio.ensure_future(anext(live))
        await asyncio.sleep(0)
        await hub.stop()
        with pytest.raises(GoingAway):
            await asyncio.wait_for(waiting, GUARD)
        with pytest.raises(GoingAway):
            await anext(behind)
    assert spy.calls[-2:] == [("unsubscribe", "m"), ("stop", "")]
    with pytest.raises(GoingAway):
        async with hub.subscribe("m"):
            pass
    await hub.stop()  # idempotent


async def test_notify_publishes_and_a_failed_publish_still_delivers_locally(
    hub: LiveHub, store: FlakyStore, spy: SpyBroadcaster, caplog: pytest.LogCaptureFixture
) -> None:
    async with hub.subscribe("m") as sub:
        await commit(hub, store, "m")
        await hub.published()
        assert spy.count("publish", "m:1") == 1
        spy.fail_publish = True
        await commit(hub, store, "m")  # does not raise: the commit stands
        assert await take(sub, 2) == [1, 2]
        await hub.published()
    assert hub.stats()["publish_errors"] == 1
    assert "publishing m at 2 failed" in caplog.text


async def test_notify_does_not_wait_for_the_publish_and_a_batch_tells_each_match_once(
    hub: LiveHub, store: FlakyStore, spy: SpyBroadcaster
) -> None:
    spy.gate = asyncio.Event()  # the broadcaster's round trip does not end until the test says so
    async with hub.subscribe("m") as sub:
        await asyncio.wait_for(commit(hub, store, "m"), GUARD)  # returns with the publish pending
        assert await take(sub, 1) == [1]  # and this process's subscribers have it
        assert spy.batches == [[("m", 1)]] and spy.count("publish", "m:1") == 0
        await commit(hub, store, "m", 2)  # while that publish is on its way: the next batch
        await commit(hub, store, "n")
        await commit(hub, store, "m")
        assert await take(sub, 3) == [2, 3, 4]
        spy.gate.set()
        await asyncio.wait_for(hub.published(), GUARD)
    assert spy.batches == [[("m", 1)], [("m", 4), ("n", 1)]]  # each match at its newest seq
    assert [c for c in spy.calls if c[0] == "publish"] == [
        ("publish", "m:1"),
        ("publish", "m:4"),
        ("publish", "n:1"),
    ]
    assert hub.stats()["publish_errors"] == 0


async def test_stop_publishes_what_notify_was_told_first(
    hub: LiveHub, store: FlakyStore, spy: SpyBroadcaster
) -> None:
    await commit(hub, store, "m")
    await commit(hub, store, "n")
    await hub.stop()
    assert [c for c in spy.calls if c[0] in ("publish", "stop")] == [
        ("publish", "m:1"),
        ("publish", "n:1"),
        ("stop", ""),
    ]


async def test_stop_gives_up_on_a_broadcaster_that_does_not_answer(
    hub: LiveHub, store: FlakyStore, spy: SpyBroadcaster, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(publishing, "CLOSE_WAIT_S", 0.01)
    spy.gate = asyncio.Event()  # never set: the publish never ends
    await commit(hub, store, "m")
    await asyncio.wait_for(hub.stop(), GUARD)
    assert spy.calls[-1] == ("stop", "") and spy.count("publish", "m:1") == 0


async def test_a_failed_store_read_is_retried(
    hub: LiveHub, store: FlakyStore, caplog: pytest.LogCaptureFixture
) -> None:
    async with hub.subscribe("m") as sub:
        waiting = asyncio.ensure_future(anext(sub))
        await asyncio.sleep(0)
        store.fail_reads = 1
        await commit(hub, store, "m")
        assert (await asyncio.wait_for(waiting, GUARD)).seq == 1
    assert hub.stats()["read_errors"] == 1


async def test_a_failed_feed_start_fails_the_subscribe_and_the_next_one_retries(
    hub: LiveHub, store: FlakyStore, spy: SpyBroadcaster, caplog: pytest.LogCaptureFixture
) -> None:
    store.fail_get_match = 1
    with pytest.raises(OSError, match="unreachable"):
        async with hub.subscribe("m"):
            pass
    assert spy.count("unsubscribe", "m") == 1  # its subscribe was balanced
    assert hub.stats()["matches"] == 0
    await commit(hub, store, "m")
    async with hub.subscribe("m") as sub:
        assert await take(sub, 1) == [1]


async def test_misuse_is_refused(hub: LiveHub, store: FlakyStore) -> None:
    with pytest.raises(ValueError, match="after"):
        hub.subscribe("m", after=-1)
    sub = hub.subscribe("m")
    with pytest.raises(RuntimeError, match="async with"):
        await anext(sub)
    with pytest.raises(RuntimeError):
        await LiveHub(store, MemoryBroadcaster()).subscribe("m").__aenter__()
    with pytest.raises(ValueError, match="queue_limit"):
        LiveHub(store, MemoryBroadcaster(), queue_limit=0)


@pytest.mark.parametrize("seed", range(8))
async def test_concurrent_subscribers_see_gap_free_duplicate_free_sequences(
    store: FlakyStore, seed: int
) -> None:
    """Subscribers join (at random `after`), stall, leave and come back while commits happen;
    notifications are sometimes skipped, repeated or stale. Each subscriber's events, joined
    across its resubscriptions, must be exactly after+1 … TOTAL."""
    rng = random.Random(seed)
    total = 120
    hub = LiveHub(store, MemoryBroadcaster(), queue_limit=rng.choice([2, 5, 50]))
    await hub.start()

    async def yield_some() -> None:
        for _ in range(rng.randrange(4)):
            await asyncio.sleep(0)

    async def writer() -> None:
        seq = 0
        while seq < total:
            seq = await append(store, "m", min(rng.randint(1, 4), total - seq))
            if rng.random() < 0.8:
                await hub.notify("m", seq)
            if rng.random() < 0.2:
                await hub.notify("m", max(0, seq - rng.randint(0, 3)))
            await yield_some()
        await hub.notify("m", seq)  # the last one is never skipped

    async def subscriber() -> tuple[int, list[int]]:
        await yield_some()
        head = (await store.get_match("m")).seq
        first = after = rng.randint(0, head)
        seen: list[int] = []
        while after < total:
            try:
                async with hub.subscribe("m", after=after) as sub:
                    async for event in sub:
                        seen.append(event.seq)
                        if event.seq == total or rng.random() < 0.05:
                            break  # done, or leave and come back later
                        await yield_some()
                    after = sub.last_seq
            except SlowConsumer:
                after = seen[-1] if seen else first
            await yield_some()
        return first, seen

    subscribers = [asyncio.ensure_future(subscriber()) for _ in range(12)]
    await asyncio.wait_for(writer(), GUARD)
    for first, seen in [await asyncio.wait_for(sub, GUARD) for sub in subscribers]:
        assert seen == list(range(first + 1, total + 1))
    assert hub.stats()["matches"] == 0  # everyone left: no feed, no reader task
    await hub.stop()


async def test_a_cancelled_last_leaver_still_closes_the_feed(hub: LiveHub, spy: SpyBroadcaster) -> None:
    async def subscribe_and_hang() -> None:
        async with hub.subscribe("m") as sub:
            await anext(sub)

    task = asyncio.ensure_future(subscribe_and_hang())
    await eventually(lambda: hub.stats()["subscribers"] == 1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await eventually(lambda: spy.count("unsubscribe", "m") == 1)
    assert hub.stats()["matches"] == 0


async def test_the_last_leaver_closes_a_feed_whose_reader_swallowed_a_cancel(
    hub: LiveHub, store: FlakyStore, spy: SpyBroadcaster
) -> None:
    async def subscribe_then_leave() -> None:
        async with hub.subscribe("m"):
            store.stubborn_read = True
            await commit(hub, store, "m")  # the feed reads the new commit: the read hangs
            await store.reading.wait()

    await asyncio.wait_for(subscribe_then_leave(), GUARD)
    # Leaving waited for the feed's reader, cancelling it again after it swallowed the first.
    assert store.swallowed
    assert spy.count("unsubscribe", "m") == 1
    assert hub.stats()["matches"] == 0


# --- direct delivery (the fan-out without a task wake-up per subscriber) --------------------------


class Sink:
    """A `LiveSink` whose `take` is the function given."""

    def __init__(self, take: Callable[[Sequence[StoredEvent]], int]) -> None:
        self.take = take


async def test_direct_delivery_hands_live_events_to_the_sink_in_order(
    hub: LiveHub, store: FlakyStore
) -> None:
    await commit(hub, store, "m", 2)
    async with hub.subscribe("m", after=0) as sub:
        await asyncio.wait_for(sub.deliver_directly(Sink(len)), GUARD)  # a backlog: returns at once
        assert await take(sub, 2) == [1, 2]
        got: list[int] = []

        def sink(events: Sequence[StoredEvent]) -> int:
            got.extend(e.seq for e in events)
            return len(events)

        parked = asyncio.ensure_future(sub.deliver_directly(Sink(sink)))
        await asyncio.sleep(0)
        await commit(hub, store, "m", 3)
        await commit(hub, store, "m")
        await eventually(lambda: got == [3, 4, 5, 6])
        assert sub.last_seq == 6 and not parked.done()
        parked.cancel()
        await asyncio.gather(parked, return_exceptions=True)
        await commit(hub, store, "m")
        assert await take(sub, 1) == [7] and got == [3, 4, 5, 6]  # no sink once it is no longer awaited


async def test_what_the_sink_declines_is_iterated_next_exactly_once(hub: LiveHub, store: FlakyStore) -> None:
    async with hub.subscribe("m") as sub:
        got: list[int] = []

        def sink(events: Sequence[StoredEvent]) -> int:
            taken = [e.seq for e in events if e.seq < 3]
            got.extend(taken)
            return len(taken)

        parked = asyncio.ensure_future(sub.deliver_directly(Sink(sink)))
        await asyncio.sleep(0)
        await commit(hub, store, "m", 5)
        await asyncio.wait_for(parked, GUARD)  # declined: the caller is back
        assert got == [1, 2]
        assert await take(sub, 3) == [3, 4, 5]


async def test_an_offered_commit_reaches_the_sink_in_one_call(hub: LiveHub, store: FlakyStore) -> None:
    """The committing process offers a commit's events: each subscriber's sink gets them at once."""
    async with hub.subscribe("m") as sub, hub.subscribe("m") as other:
        calls: list[list[int]] = []

        def sink(events: Sequence[StoredEvent]) -> int:
            calls.append([e.seq for e in events])
            return len(events)

        parked = [asyncio.ensure_future(s.deliver_directly(Sink(sink))) for s in (sub, other)]
        await asyncio.sleep(0)
        seq = await append(store, "m", 3)
        await hub.notify("m", seq, await store.read("m", 0))
        assert calls == []  # not before the committing task yields (its reply goes first)
        await asyncio.sleep(0)
        assert calls == [[1, 2, 3], [1, 2, 3]]  # then at once, with no task woken
        assert sub.last_seq == other.last_seq == 3
        for p in parked:
            p.cancel()
        await asyncio.gather(*parked, return_exceptions=True)


async def test_a_subscriber_that_asks_first_gets_the_next_commit_before_the_others(
    hub: LiveHub, store: FlakyStore
) -> None:
    """The seat acting over its stream asks first: its answer waits for its commit's frame, which
    is then not built after every other viewer's. Only the next commit; the others still get it."""
    subs = [hub.subscribe("m") for _ in range(4)]
    entered = [await s.__aenter__() for s in subs]
    order: list[tuple[int, int]] = []

    def sink(n: int) -> Sink:
        def take(events: Sequence[StoredEvent]) -> int:
            order.append((n, events[-1].seq))
            return len(events)

        return Sink(take)

    parked = [asyncio.ensure_future(s.deliver_directly(sink(n))) for n, s in enumerate(entered)]
    await asyncio.sleep(0)
    try:
        for asker, expected_seq in ((2, 1), (3, 2), (1, 3), (3, 4)):
            entered[asker].first()
            seq = await append(store, "m")
            assert seq == expected_seq
            await hub.notify("m", seq, await store.read("m", seq - 1))
            await asyncio.sleep(0)
            got = [n for n, at in order if at == seq]
            assert got[0] == asker and sorted(got) == [0, 1, 2, 3], order
        # An asker that left is skipped, and the others get the commit as before.
        entered[1].first()
        await subs[1].__aexit__(None, None, None)
        seq = await append(store, "m")
        await hub.notify("m", seq, await store.read("m", seq - 1))
        await asyncio.sleep(0)
        assert sorted(n for n, at in order if at == seq) == [0, 2, 3]
    finally:
        for p in parked:
            p.cancel()
        await asyncio.gather(*parked, return_exceptions=True)
        for s in subs:
            await s.__aexit__(None, None, None)


async def test_a_failing_sink_raises_in_its_caller_and_going_away_unparks(
    hub: LiveHub, store: FlakyStore, spy: SpyBroadcaster
) -> None:
    async with hub.subscribe("m") as sub:

        def broken(events: Sequence[StoredEvent]) -> int:
            raise ConnectionResetError("the socket is gone")

        parked = asyncio.ensure_future(sub.deliver_directly(Sink(broken)))
        await asyncio.sleep(0)
        await commit(hub, store, "m")
        with pytest.raises(ConnectionResetError):
            await asyncio.wait_for(parked, GUARD)
    async with hub.subscribe("m") as sub:
        parked = asyncio.ensure_future(sub.deliver_directly(Sink(len)))
        await asyncio.sleep(0)
        await hub.stop()
        await asyncio.wait_for(parked, GUARD)
        with pytest.raises(GoingAway):
            await anext(sub)


async def test_the_chat_is_published_by_the_same_publisher_in_the_background(
    hub: LiveHub, spy: SpyBroadcaster
) -> None:
    spy.gate = asyncio.Event()
    await hub.chat.notify("m", 3)  # returns at once: the publish is the publisher's task
    await asyncio.sleep(0)  # which starts, and waits for the broadcaster
    assert spy.batches == [[("chat:m", 3)]] and spy.count("publish", "chat:m:3") == 0
    await hub.chat.notify("m", 4)
    spy.gate.set()
    await asyncio.wait_for(hub.published(), GUARD)
    assert spy.batches == [[("chat:m", 3)], [("chat:m", 4)]]
    assert spy.count("publish", "chat:m:4") == 1

"""One subscriber's view of a live feed: the items after its cursor, each once, in order.

`LiveHub.subscribe` (`app.service.live`) hands out a `Subscription`; it reads its backlog from the
store, then takes what the hub's feed pushes. A subscriber that can send without waiting registers
a `LiveSink` (`deliver_directly`): the port through which the hub pushes to the edge synchronously,
without a task wake-up per subscriber and commit, and without the service layer knowing the edge.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from app.service.live import LiveHub, _Feed


class LiveSink(Protocol):
    """Takes live items synchronously, as the hub pushes them (`Subscription.deliver_directly`)."""

    def take(self, items: Sequence[Any]) -> int:
        """Take `items` (in order, after the last one taken); how many, from the first, were taken.
        The rest are queued and the subscriber's task iterates them. An exception ends the
        delivery and is raised from `deliver_directly`."""
        ...


class SubscriptionEnded(Exception):
    """The hub ended a subscription; resubscribe with `after=sub.last_seq` to lose nothing."""


class SlowConsumer(SubscriptionEnded):
    """The subscriber fell more than `queue_limit` events behind the live feed."""


class GoingAway(SubscriptionEnded):
    """The hub is shutting down (the process is going away)."""


class Subscription:
    """The events of one match with seq > `after`, in seq order, each exactly once.

    Iterate it inside `async with hub.subscribe(match_id, after) as sub:`. It yields the backlog
    read from the store, then live events, and never ends on its own: it raises `SlowConsumer` if
    the reader falls more than `queue_limit` events behind, or `GoingAway` when the hub stops.
    Then resubscribe with `after=sub.last_seq` (possibly to another process) to lose nothing.
    A store error while reading its backlog propagates from the iteration as it is.
    """

    __slots__ = (  # the hub walks every subscription of a match per commit: compact instances
        "_closed",
        "_ended",
        "_feed",
        "_hub",
        "_live",
        "_parked",
        "_pos",
        "_queue",
        "_signal",
        "_sink",
        "last_seq",
        "match_id",
    )

    def __init__(self, hub: LiveHub, match_id: str, after: int) -> None:
        if after < 0:
            raise ValueError("after must be >= 0")
        self.match_id = match_id
        self.last_seq = after  # the seq of the last event handed out
        self._hub = hub
        self._feed: _Feed | None = None
        self._pos = after  # the seq of the last event queued
        self._live = False  # catching up from the store until the hub's cursor is reached
        self._queue: deque[Any] = deque()
        self._ended: SubscriptionEnded | None = None
        self._closed = False
        self._signal = asyncio.Event()
        self._sink: Callable[[Sequence[Any]], int] | None = None  # a `LiveSink`'s `take`, while delivering
        self._parked: asyncio.Future[None] | None = None

    async def __aenter__(self) -> Subscription:
        if self._feed is not None or self._closed:
            raise RuntimeError("a Subscription is entered once")
        self._feed = await self._hub._join(self)
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._closed = True
        self._live = False
        self._queue.clear()
        if self._feed is not None:
            await self._hub._leave(self, self._feed)

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> Any:
        feed = self._feed
        if feed is None or self._closed:
            raise RuntimeError("iterate a Subscription inside `async with hub.subscribe(...)`")
        while True:
            if self._ended is not None:
                raise self._ended
            if self._queue:
                event = self._queue.popleft()
                self.last_seq = event.seq
                return event
            if self._live:
                self._signal.clear()
                await self._signal.wait()
            elif self._pos >= feed.cursor:
                # Nothing queued and caught up: from now on the reader pushes every seq > _pos.
                self._live = True
            else:
                events = await self._hub._read_backlog(self.match_id, self._pos)
                if self._ended is None and not self._closed:
                    if not events:
                        raise RuntimeError(f"match {self.match_id}: store has no events after {self._pos}")
                    self._queue.extend(events)
                    self._pos = events[-1].seq

    async def next_batch(self) -> list[Any]:
        """Everything queued now, in order (at least one event): one wake-up of the reader per
        batch rather than per event, which is what a fan-out to many connections pays for."""
        first = await self.__anext__()
        if not self._queue:
            return [first]
        batch = [first, *self._queue]
        self._queue.clear()
        self.last_seq = batch[-1].seq
        return batch

    async def deliver_directly(self, sink: LiveSink) -> None:
        """Hand live events to `sink` synchronously, as the reader pushes them (a commit's events at
        once, or a run of them read from the store), until the sink declines some, raises (the
        error is raised here), or the subscription ends. The sink returns how many of the events,
        from the first, it took; the rest are queued as usual and this returns. Returns at once when
        events are queued or the backlog is still being read: iterate (`next_batch`) first.

        A fan-out to many connections pays a task wake-up per connection and commit; a sink that
        can send without waiting (a WebSocket write that only buffers) saves it. The order and
        exactly-once guarantees are the iteration's: the sink sees each seq > the last one handed
        out, in order, and what it declines is iterated next.
        """
        feed = self._feed
        if feed is None or self._closed:
            raise RuntimeError("deliver inside `async with hub.subscribe(...)`")
        if self._ended is not None or self._queue:
            return
        if not self._live:
            if self._pos < feed.cursor:
                return  # a backlog to read first
            self._live = True  # caught up: from now on the reader pushes every seq > _pos
        self._parked = asyncio.get_running_loop().create_future()
        self._sink = sink.take  # bound once: the hub calls it per commit
        try:
            await self._parked
        finally:
            self._sink = None
            self._parked = None

    def _unpark(self, error: BaseException | None = None) -> None:
        self._sink = None
        parked = self._parked
        if parked is not None and not parked.done():
            if error is None:
                parked.set_result(None)
            else:
                parked.set_exception(error)

    def first(self) -> None:
        """Be handed the next commit pushed live before the match's other subscribers (the seat
        acting through this subscriber's connection: its answer waits for that commit's frame)."""
        if self._feed is not None and not self._closed:
            self._feed.first = self

    def _push(self, events: Sequence[Any]) -> None:
        """Queue (or hand to the sink) `events`, seq-ordered: those after the last one queued."""
        if not self._live:
            return
        if events[0].seq <= self._pos:
            events = [e for e in events if e.seq > self._pos]
            if not events:
                return
        sink = self._sink
        if sink is not None and not self._queue:
            try:
                taken = sink(events)
            except Exception as e:  # the sink's own failure (a closed socket): its caller's to handle
                self._unpark(e)
                return
            if taken:
                self._pos = self.last_seq = events[taken - 1].seq
                if taken >= len(events):
                    return
                events = events[taken:]
            self._unpark()  # declined: queued below, and the caller iterates
        if len(self._queue) + len(events) > self._hub._queue_limit:
            self._hub._counters["slow_consumers"] += 1
            self._end(SlowConsumer(f"more than {self._hub._queue_limit} events behind"))
            return
        self._queue.extend(events)
        self._pos = events[-1].seq
        self._signal.set()

    def _end(self, reason: SubscriptionEnded) -> None:
        if self._ended is None:
            self._ended = reason
        self._live = False
        self._queue.clear()
        if self._feed is not None:
            self._feed.subscribers.discard(self)  # the feed is closed when this one leaves
        self._signal.set()
        self._unpark()

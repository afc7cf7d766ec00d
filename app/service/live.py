"""The per-process live hub: one store reader per match, fanned out to local subscribers.

Realtime is notification + read (DESIGN.md). The broadcaster says only "match M is at seq N"; for
each match with local subscribers the hub keeps one broadcaster subscription and one reader task,
which reads the new events from the store once, after the hub's cursor for that match, and pushes
them into every subscriber's bounded queue. A subscriber that starts behind the hub reads its
backlog from the store itself (page by page, on demand) and then joins the live feed. Either way it
sees every seq > `after` exactly once and in order.

A notification can be lost altogether: the committing process dies between its commit and its
publish, or its publish fails while the listeners stay connected. The next commit of the match
mends it, but after a match's last commit there is none. So every `quiet_s` (30 s) the hub reads
again each feed whose cursor has not moved since the last round (`read_quiet`): a lost
notification delays its streams by at most twice that, never for good. A feed that moves costs
nothing more; a quiet one costs one read of the store per round. The same rounds read the chat
head of each match whose chat this process watches (`ChatWatchers.read_quiet`).

Channels are match ids (the items are the match's `StoredEvent`s) and `player:<id>` (the items are
that player's `StoredNotice`s, public facts only); both are read from the store after a cursor,
and each item's position is its `seq`. The hub hands out raw, unredacted events: redacting for each
viewer is the job of whoever sends them on (the WebSocket handler), never the hub's. What one
subscriber sees — its backlog, then the live feed, or a `LiveSink` the hub pushes to — is
`app.service.subscription`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from app.service.chat import keeps_chat
from app.service.chat_live import ChatWatchers
from app.service.periodic import Periodic
from app.service.ports import Broadcaster, EventStore, StoredEvent, StoredNotice
from app.service.publishing import Publisher
from app.service.subscription import GoingAway, Subscription
from app.service.tasks import cancel_and_wait

PLAYER_CHANNEL = "player:"
Item = StoredEvent | StoredNotice

log = logging.getLogger(__name__)

RESYNC = -1
"""The seq a broadcaster passes to its handler after it reconnected, for every match still
subscribed: notifications may have been lost, so re-read the store. The hub reads after its cursor
on any notification anyway; a negative seq simply never counts as stale."""


_COUNTERS = (
    "notifications",  # received from the broadcaster
    "store_reads",
    "events_read",  # by the per-match readers, once for all subscribers
    "backlog_events_read",  # by subscribers catching up
    "events_offered",  # handed over by a commit in this process, not read back
    "slow_consumers",
    "read_errors",
    "quiet_reads",  # feeds read again by `read_quiet`, having not moved for a round
    "quiet_chat_wakes",  # matches whose chat a round found past the head known here
)


class _Feed:
    """The live feed of one match: its cursor, subscribers and reader task."""

    def __init__(self, match_id: str) -> None:
        self.match_id = match_id
        self.cursor = 0  # last seq read from the store and pushed to the live subscribers
        self.requested = 0  # highest seq any notification has named
        self.covered = 0  # highest seq the read under way is sure to see (it started after it)
        self.subscribers: set[Subscription] = set()
        self.first: Subscription | None = None  # served before the others at the next commit pushed
        self.wake = asyncio.Event()
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.task: asyncio.Task[None] | None = None
        self.subscribed = False  # broadcaster.subscribe succeeded; unsubscribe on close
        self.closed = False
        self.quiet_mark = -1  # the cursor at the last round of `LiveHub.read_quiet`


class LiveHub:
    """Fans "match M is at seq N" notifications out to this process's subscribers.

    `start` starts the broadcaster with the hub's handler and `stop` stops it (the hub owns the
    broadcaster's lifecycle, not the store's). Use `subscribe` per listener and `notify` after
    each commit. `quiet_s`: the pace of `read_quiet` (0: never).
    """

    def __init__(
        self, store: EventStore, broadcaster: Broadcaster, *, queue_limit: int = 256, quiet_s: float = 30.0
    ) -> None:
        if queue_limit < 1:
            raise ValueError("queue_limit must be at least 1")
        if quiet_s < 0:
            raise ValueError("quiet_s must be at least 0")
        self._store = store
        self._broadcaster = broadcaster
        self._queue_limit = queue_limit
        self._feeds: dict[str, _Feed] = {}
        self._running = False
        self._stopped = False
        self._counters = dict.fromkeys(_COUNTERS, 0)
        self._publisher = Publisher(broadcaster)  # the commits' and the chat's notifications
        self.chat = ChatWatchers(broadcaster, self._publisher)  # the chat rides the same broadcaster
        self._chat_head = store.chat_head if keeps_chat(store) else None
        self._quiet = None if quiet_s == 0 else Periodic(
            "live-quiet-reads", self.read_quiet, quiet_s, log=log, failure="reading quiet feeds failed"
        )  # fmt: skip

    async def start(self) -> None:
        if self._running or self._stopped:
            raise RuntimeError("a LiveHub starts once")
        await self._broadcaster.start(self._on_message)
        self._running = True
        if self._quiet is not None:
            await self._quiet.start()

    async def stop(self) -> None:
        """End every subscription with `GoingAway`, drop the feeds and stop the broadcaster."""
        if not self._running:
            return
        self._running = False
        self._stopped = True
        if self._quiet is not None:
            await self._quiet.stop()
        feeds = list(self._feeds.values())
        for feed in feeds:
            for sub in list(feed.subscribers):
                sub._end(GoingAway("the server is going away"))
        await asyncio.gather(*(self._close_feed(feed) for feed in feeds))
        # The last commits are told before the broadcaster goes; a broadcaster that does not answer
        # in time is given up on (the other processes' quiet reads catch up).
        await self._publisher.close()
        await self._broadcaster.stop()

    def subscribe(self, match_id: str, after: int = 0) -> Subscription:
        """Events of `match_id` with seq > `after`: `async with hub.subscribe(m, after) as sub:`."""
        return Subscription(self, match_id, after)

    async def notify(self, match_id: str, seq: int, events: Sequence[StoredEvent] = ()) -> None:
        """Match `match_id` committed up to `seq`: wake local readers and tell the other processes.

        With the committed `events` (the committing process has them), a live feed that is right
        before them pushes them at once instead of reading them back from the store. Either way
        local subscribers are served directly; the broadcaster's echo of the same seq is then stale
        and ignored, so each event still reaches each subscriber once. The publish to the other
        processes runs in the background (`app.service.publishing`): this returns without waiting
        for it. A failing publish is logged and counted: the commit has happened, and the other
        processes catch up on the next notification (or their quiet reads).
        """
        if events:  # after the caller's reply, which needs none of this: right after this task yields
            asyncio.get_running_loop().call_soon(self._offer_and_wake, match_id, seq, events)
        else:
            self._wake(match_id, seq)
        if not self._running:
            return
        self._publisher.soon(match_id, seq)

    async def published(self) -> None:
        """Wait until what `notify` was told so far has been handed to the broadcaster (or failed)."""
        await self._publisher.published()

    async def read_quiet(self) -> int:
        """Read again every feed whose cursor has not moved since the last call, and the chat head
        of every match whose chat is watched here (a lost notification, see the module's
        docstring); how many feeds and chats were woken. The hub calls it every `quiet_s`."""
        woken = 0
        for feed in list(self._feeds.values()):
            if feed.closed or not feed.ready.done():
                continue
            if feed.cursor == feed.quiet_mark:
                woken += 1
                self._wake(feed.match_id, RESYNC)
            feed.quiet_mark = feed.cursor
        self._counters["quiet_reads"] += woken
        if self._chat_head is not None:
            chats = await self.chat.read_quiet(self._chat_head)
            self._counters["quiet_chat_wakes"] += chats
            woken += chats
        return woken

    def stats(self) -> dict[str, int]:
        """Counters for /metrics: matches served, subscribers, store reads and events read."""
        return {
            "matches": len(self._feeds),
            "subscribers": sum(len(feed.subscribers) for feed in self._feeds.values()),
            **self._counters,
            "publish_errors": self._publisher.errors,  # of the commits' and the chat's notifications
        }

    # Notifications

    def _offer(self, match_id: str, events: Sequence[StoredEvent]) -> None:
        feed = self._feeds.get(match_id)
        if feed is None or not feed.ready.done() or events[0].seq != feed.cursor + 1:
            return  # not served here, starting, or behind: the reader reads the store as usual
        # No await: the cursor and every live queue move together (as in `_read_new`, which skips
        # whatever this already pushed).
        feed.cursor = events[-1].seq
        first, feed.first = feed.first, None
        if first is not None and first in feed.subscribers:
            first._push(events)
        for sub in list(feed.subscribers):
            if sub is not first:
                sub._push(events)  # the whole commit at once: one call per subscriber, not per event
        self._counters["events_offered"] += len(events)

    def _offer_and_wake(self, match_id: str, seq: int, events: Sequence[StoredEvent]) -> None:
        self._offer(match_id, events)
        self._wake(match_id, seq)

    def _on_message(self, match_id: str, seq: int) -> None:
        self._counters["notifications"] += 1
        if self.chat.on_message(match_id, seq):
            return
        self._wake(match_id, seq)

    def _wake(self, match_id: str, seq: int) -> None:
        feed = self._feeds.get(match_id)
        if feed is None:
            return
        if feed.ready.done() and 0 <= seq <= max(feed.cursor, feed.covered):
            return  # read, or being read: an echo of a local notify, or a repeat
        feed.requested = max(feed.requested, seq)
        feed.wake.set()

    # Feeds

    async def _join(self, sub: Subscription) -> _Feed:
        if self._stopped:
            raise GoingAway("the server is going away")
        if not self._running:
            raise RuntimeError("LiveHub.start() has not been called")
        feed = self._feeds.get(sub.match_id)
        if feed is None:
            feed = self._feeds[sub.match_id] = _Feed(sub.match_id)
            feed.task = asyncio.create_task(self._run_feed(feed), name=f"live-feed-{sub.match_id}")
        feed.subscribers.add(sub)
        try:
            await asyncio.shield(feed.ready)
        except BaseException:
            await self._leave(sub, feed)
            raise
        return feed

    async def _leave(self, sub: Subscription, feed: _Feed) -> None:
        feed.subscribers.discard(sub)
        if not feed.subscribers:
            # Shielded: a leaver cancelled mid-way (a torn-down WebSocket task) must not leave
            # the reader task running or the broadcaster subscription dangling.
            await asyncio.shield(self._close_feed(feed))

    async def _close_feed(self, feed: _Feed) -> None:
        if feed.closed:
            return
        feed.closed = True
        if self._feeds.get(feed.match_id) is feed:
            del self._feeds[feed.match_id]
        # Let the start-up finish, so that the unsubscribe below balances its subscribe.
        await asyncio.wait({feed.ready})
        if not feed.ready.cancelled():
            feed.ready.exception()  # retrieved here so asyncio does not log it as lost
        if feed.task is not None:
            await cancel_and_wait(feed.task)  # again if a cancel is swallowed; a failure is logged
            feed.task = None  # its cancellation's traceback holds the feed: no cycle left behind
        if feed.subscribed:
            try:
                await self._broadcaster.unsubscribe(feed.match_id)
            except Exception:
                log.exception("unsubscribing from match %s failed", feed.match_id)

    async def _run_feed(self, feed: _Feed) -> None:
        # Subscribe before reading the head, so any commit after the read is notified.
        try:
            await self._broadcaster.subscribe(feed.match_id)
            feed.subscribed = True
            feed.cursor = await self._head(feed.match_id)
        except Exception as exc:
            log.exception("starting the live feed of match %s failed", feed.match_id)
            if self._feeds.get(feed.match_id) is feed:
                del self._feeds[feed.match_id]  # the next subscriber tries afresh
            feed.ready.set_exception(exc)
            return
        except asyncio.CancelledError:
            feed.ready.cancel()
            raise
        feed.ready.set_result(None)
        delay = 0.05
        while True:
            await feed.wake.wait()
            feed.covered = feed.requested  # committed before this read starts, so it will see them
            feed.wake.clear()
            try:
                await self._read_new(feed)
            except Exception:
                self._counters["read_errors"] += 1
                log.exception("reading match %s after seq %d failed", feed.match_id, feed.cursor)
                feed.wake.set()  # try again after a pause
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
            else:
                delay = 0.05

    async def _read_new(self, feed: _Feed) -> None:
        while True:
            events = await self._read(feed.match_id, feed.cursor, self._queue_limit)
            self._counters["store_reads"] += 1
            self._counters["events_read"] += len(events)
            # No await from here to the end of the loop: the cursor and every live queue move together.
            fresh = [event for event in events if event.seq > feed.cursor]
            if fresh:
                feed.cursor = fresh[-1].seq
                for sub in list(feed.subscribers):
                    sub._push(fresh)
            if len(events) < self._queue_limit:
                return

    async def _head(self, channel: str) -> int:
        """The channel's position now: the match's seq, or the player's notice cursor."""
        if channel.startswith(PLAYER_CHANNEL):
            player = await self._store.get_player(channel.removeprefix(PLAYER_CHANNEL))
            return player.cursor if player is not None else 0
        match = await self._store.get_match(channel)
        return match.seq if match is not None else 0

    async def _read(self, channel: str, after: int, limit: int) -> list[StoredEvent] | list[StoredNotice]:
        if channel.startswith(PLAYER_CHANNEL):
            return await self._store.read_notices(channel.removeprefix(PLAYER_CHANNEL), after, limit)
        return await self._store.read(channel, after=after, limit=limit)

    async def _read_backlog(self, match_id: str, after: int) -> list[StoredEvent] | list[StoredNotice]:
        events = await self._read(match_id, after, self._queue_limit)
        self._counters["store_reads"] += 1
        self._counters["backlog_events_read"] += len(events)
        return events

"""Live chat notifications: "match M's chat is at N" on the process's broadcaster, as events are.

Like events, a notification carries no content: each watching stream reads the store after its
own chat cursor when woken (`app.service.chat.ChatReader`), so a lost or repeated notification
only delays or costs a read. The streams of a match that one notification wakes mostly sit at
the same cursor: they share one read of the store (`ChatWatchers.shared`), not one each. A stream
that opens while its match is already watched here starts from the head this process knows
(`ChatWatchers.head`), without reading it again, and a stream whose cursor is at that head
reads nothing when woken (`ChatWatchers.nothing_after`). The
broadcaster channel of match M's chat is `chat:M`; the live hub hands this class the
notifications of those channels (`LiveHub._on_message`). A stream also wakes its watch itself
when a commit changes what it may read (the match ended, a seat was taken). A notification lost
altogether (its process died between storing the message and publishing it) is made up for by
the live hub's rounds of quiet feeds, which read each watched match's chat head (`read_quiet`).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from app.service.ports import Broadcaster
from app.service.publishing import Publisher

CHAT_CHANNEL = "chat:"

T = TypeVar("T")


class ChatWatch:
    """One stream's wake-up, and what its next read may judge the rights by.

    Set by a notification of its match's chat, or by the stream for its backlog (`notify`: read
    by the match as the store has it now), or by the stream when a commit it sent may have
    changed what its viewer may read (`rights_changed`: that commit's seq; this process's cached
    state at or after that commit will do, so such a wake-up costs no read of the match)."""

    __slots__ = ("match_id", "notified", "rights_at", "wake")

    def __init__(self, match_id: str) -> None:
        self.match_id = match_id
        self.wake = asyncio.Event()
        self.notified = False  # a notification (or the backlog) since the last `take`
        self.rights_at: int | None = None  # the newest rights-changing commit since the last `take`

    def notify(self) -> None:
        self.notified = True
        self.wake.set()

    def rights_changed(self, seq: int) -> None:
        if self.rights_at is None or seq > self.rights_at:
            self.rights_at = seq
        self.wake.set()

    def take(self) -> int | None:
        """Clear the wake-up: the seq of the commit the read may judge by, at the earliest (None:
        read the match from the store, as after any notification)."""
        self.wake.clear()
        at = None if self.notified else self.rights_at
        self.notified, self.rights_at = False, None
        return at


class ChatWatchers:
    """The chat watches of this process, by match; subscribed on the broadcaster while watched."""

    def __init__(self, broadcaster: Broadcaster, publisher: Publisher | None = None) -> None:
        self._broadcaster = broadcaster
        self._publisher = publisher or Publisher(broadcaster)  # the live hub's, shared with the commits
        self._watches: dict[str, set[ChatWatch]] = {}
        # Moves on at every notification and every new watch: a read is shared only within one era.
        self._era = 0
        self._reads: dict[tuple[int, Hashable], asyncio.Future[Any]] = {}
        self.shared_reads = 0  # reads that joined one already under way (for tests)
        # The heads this process knows, of watched matches only (see `head`).
        self._heads: dict[str, int] = {}
        self._notified: dict[str, int] = {}  # the newest chat_seq notified since the match's watching began
        self._watching: dict[str, object] = {}  # a new object when watching begins or may have missed one
        self.head_reads = 0  # heads read from the store (for tests)

    async def head(self, match_id: str, read: Callable[[], Awaitable[int]], at_least: int = 0) -> int:
        """The chat head of a match a watch of this process is on (the caller's, in place: so
        every message after the head wakes it), read (`read()`) only when this process does not
        know it. Known: the head read once the match was watched, raised by every notification
        since; forgotten when the match's last watch goes, or when the broadcaster may have missed
        a notification (a resync). A message whose notification is still on its way is not in
        it, as it would not be in a read of a moment before: the stream gets it as a frame. A head
        known below `at_least` (a cursor the caller was given elsewhere) is read again."""
        known = self._heads.get(match_id)
        if known is not None and known >= at_least:
            return known
        self.head_reads += 1
        head, throughout = await self._read_watched(match_id, read)
        if throughout:
            head = max(head, self._notified.get(match_id, 0), self._heads.get(match_id, 0))
            self._heads[match_id] = head
        return head

    async def _read_watched(self, match_id: str, read: Callable[[], Awaitable[int]]) -> tuple[int, bool]:
        """`read()`, and whether the match was watched throughout it: no resync meanwhile, its
        watching neither ended nor begun afresh (only then may what it read be kept as known)."""
        watching = self._watching.get(match_id)
        value = await read()
        return value, watching is not None and self._watching.get(match_id) is watching

    def nothing_after(self, match_id: str, chat_seq: int) -> bool:
        """True when this process knows the match's chat head (see `head`) and it is at or below
        `chat_seq`: a watch whose cursor is there has no message to read, whatever woke it (a
        change of rights, `ChatWatch.rights_changed`, with nothing to judge by them; a notification
        of a message it has read already, such as this process's own publish coming back from the
        broadcaster). A message whose notification is still on its way is not counted: that
        notification raises the head and wakes the watch, and its read gets the message."""
        known = self._heads.get(match_id)
        return known is not None and known <= chat_seq

    async def shared(self, key: Hashable, read: Callable[[], Awaitable[T]]) -> T:
        """`read()`, or the same read under way for another stream: the streams a notification
        wakes read at once. A read begun before a notification (or before a watch was added) is
        never joined after it, so it cannot hide the message that woke the caller (or one its
        backlog must hold). `key` names the read and its arguments. Shielded: a stream going away
        does not cancel the read the others wait for."""
        era_key = (self._era, key)
        future = self._reads.get(era_key)
        if future is None:
            future = asyncio.ensure_future(read())
            self._reads[era_key] = future
            future.add_done_callback(functools.partial(self._read_done, era_key))
        else:
            self.shared_reads += 1
        result: T = await asyncio.shield(future)
        return result

    def _read_done(self, era_key: tuple[int, Hashable], future: asyncio.Future[Any]) -> None:
        if self._reads.get(era_key) is future:
            del self._reads[era_key]
        if not future.cancelled():
            future.exception()  # retrieved: every waiter got it, or none is left to

    @asynccontextmanager
    async def watch(self, match_id: str) -> AsyncIterator[ChatWatch]:
        watch = ChatWatch(match_id)
        watches = self._watches.get(match_id)
        if watches is None:
            watches = self._watches[match_id] = set()
            self._watching[match_id] = object()
        watches.add(watch)
        self._era += 1
        channel = CHAT_CHANNEL + match_id
        try:
            await self._broadcaster.subscribe(channel)  # ref-counted by every broadcaster
            try:
                yield watch
            finally:
                await asyncio.shield(self._broadcaster.unsubscribe(channel))
        finally:
            watches.discard(watch)
            if not watches and self._watches.get(match_id) is watches:
                del self._watches[match_id]
                self._forget(match_id)

    def _forget(self, match_id: str) -> None:
        self._watching.pop(match_id, None)
        self._heads.pop(match_id, None)
        self._notified.pop(match_id, None)

    def wake(self, match_id: str, chat_seq: int) -> None:
        """Message `chat_seq` of the match was stored (negative: messages may have been missed)."""
        self._era += 1
        watches = self._watches.get(match_id)
        if watches is None:
            return
        if chat_seq < 0:  # a resync: what this process knew of the head may be behind
            self._forget(match_id)
            self._watching[match_id] = object()
        else:
            if chat_seq > self._notified.get(match_id, 0):
                self._notified[match_id] = chat_seq
            known = self._heads.get(match_id)
            if known is not None and chat_seq > known:
                self._heads[match_id] = chat_seq
        for watch in watches:
            watch.notify()

    async def read_quiet(self, read_head: Callable[[str], Awaitable[int]]) -> int:
        """Read the chat head of every match watched here (`read_head`: the store's) and wake its
        watches when it is past the head this process knows, or when it knows none (a notification
        lost altogether: the process that stored the message died before publishing it); how many
        matches were woken. The live hub runs it with its rounds of quiet feeds, so a lost chat
        notification delays its streams by one round at most (`LiveHub.read_quiet`)."""
        woken = 0
        for match_id in list(self._watches):
            head, throughout = await self._read_watched(match_id, functools.partial(read_head, match_id))
            if not throughout:
                continue  # no longer watched, or resynced meanwhile (its streams read anyway)
            known = self._heads.get(match_id)
            if known is not None and head <= known:
                continue
            woken += 1
            self.wake(match_id, head)  # raises a known head; the watches read after their cursors
            self._heads.setdefault(match_id, head)  # and one is known from now on
        return woken

    def on_message(self, channel: str, chat_seq: int) -> bool:
        """A broadcaster notification: True if it was a chat channel's (handled here)."""
        if not channel.startswith(CHAT_CHANNEL):
            return False
        self.wake(channel.removeprefix(CHAT_CHANNEL), chat_seq)
        return True

    async def notify(self, match_id: str, chat_seq: int) -> None:
        """A message was stored: wake this process's watches and tell the other processes, in the
        background (`app.service.publishing`: a failing publish is logged, the message is stored,
        the next notification catches up)."""
        self.wake(match_id, chat_seq)
        self._publisher.soon(CHAT_CHANNEL + match_id, chat_seq)

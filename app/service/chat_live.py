"""Live chat notifications: "match M's chat is at N" on the process's broadcaster, as events are.

Like events, a notification carries no content: each watching stream reads the store after its
own chat cursor when woken (`app.service.chat.ChatReader`), so a lost or repeated notification
only delays or costs a read. The broadcaster channel of match M's chat is `chat:M`; the live hub
hands this class the notifications of those channels (`LiveHub._on_message`). A stream also wakes
its watch itself when a commit changes what it may read (the match ended, a seat was taken).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from app.service.ports import Broadcaster

CHAT_CHANNEL = "chat:"

log = logging.getLogger(__name__)


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

    def __init__(self, broadcaster: Broadcaster) -> None:
        self._broadcaster = broadcaster
        self._watches: dict[str, set[ChatWatch]] = {}
        self.publish_errors = 0

    @asynccontextmanager
    async def watch(self, match_id: str) -> AsyncIterator[ChatWatch]:
        watch = ChatWatch(match_id)
        watches = self._watches.setdefault(match_id, set())
        watches.add(watch)
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

    def wake(self, match_id: str) -> None:
        for watch in self._watches.get(match_id, ()):
            watch.notify()

    def on_message(self, channel: str) -> bool:
        """A broadcaster notification: True if it was a chat channel's (handled here)."""
        if not channel.startswith(CHAT_CHANNEL):
            return False
        self.wake(channel.removeprefix(CHAT_CHANNEL))
        return True

    async def notify(self, match_id: str, chat_seq: int) -> None:
        """A message was stored: wake this process's watches and tell the other processes (a
        failing publish is logged: the message is stored, the next notification catches up)."""
        self.wake(match_id)
        try:
            await self._broadcaster.publish(CHAT_CHANNEL + match_id, chat_seq)
        except Exception:
            self.publish_errors += 1
            log.exception("publishing the chat of match %s at %d failed", match_id, chat_seq)

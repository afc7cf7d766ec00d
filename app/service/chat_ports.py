"""The chat's port: the records that cross it and `ChatStore`.

Chat lives beside the event log, never in it: a message is not part of the game and never
changes a view. Each match has one chat cursor, `chat_seq`, shared by both rooms and given out
by the store (the next after the match's newest, under the same uniqueness the events' seq has:
a concurrent writer that loses gets `ChatConflict` and retries). Blocks and reports belong to
players; reports stay until an operator resolves them. The event stores implement this port
beside `EventStore` (same database, same migrations); the memory store is its twin.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol, runtime_checkable

Room = Literal["players", "spectators"]
ROOMS: tuple[Room, ...] = ("players", "spectators")


class ChatConflict(Exception):
    """Another message took this `chat_seq` meanwhile: nothing was written."""


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """A stored message. `author_key` is who the rate limit counts (`p:<player id>`, or
    `s:<match id>:<seat>` for a seat without a player); the others are what readers see."""

    match_id: str
    chat_seq: int
    id: str
    room: Room
    author_key: str
    author_seat: int | None
    author_player_id: str | None
    author_name: str | None
    text: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ChatReport:
    id: str
    match_id: str
    message_id: str
    reporter_id: str  # a player id, or `s:<match id>:<seat>` for a seat token without a player
    reason: str
    created_at: datetime
    resolved: bool = False


@dataclass(frozen=True, slots=True)
class Block:
    blocked_id: str
    created_at: datetime


@runtime_checkable
class ChatStore(Protocol):
    async def append_chat(self, message: ChatMessage) -> None:
        """Store `message` at its `chat_seq`; `ChatConflict` when that seq is taken."""
        ...

    async def chat_head(self, match_id: str) -> int:
        """The match's newest `chat_seq` (0: none)."""
        ...

    async def read_chat(
        self, match_id: str, after: int, limit: int, rooms: Sequence[Room]
    ) -> list[ChatMessage]:
        """Messages of `rooms` with `chat_seq > after`, in order, at most `limit`."""
        ...

    async def get_chat_message(self, match_id: str, message_id: str) -> ChatMessage | None: ...

    async def recent_chat(self, author_key: str, since: datetime) -> list[datetime]:
        """When `author_key`'s messages after `since` were written, oldest first (the rate limit)."""
        ...

    async def prune_chat(self, before: datetime, keep: int) -> int:
        """Delete messages older than `before` that are not among their room's newest `keep`."""
        ...

    async def add_chat_report(self, report: ChatReport) -> None: ...

    async def open_chat_reports(self, limit: int) -> list[ChatReport]:
        """Unresolved reports, oldest first."""
        ...

    async def block_player(self, blocker_id: str, blocked_id: str, at: datetime) -> bool:
        """Record the block; False if it existed already (nothing changes)."""
        ...

    async def unblock_player(self, blocker_id: str, blocked_id: str) -> bool: ...

    async def blocks_of(self, blocker_id: str) -> list[Block]:
        """The players `blocker_id` blocks, oldest block first."""
        ...

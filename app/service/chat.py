"""The chat's use cases: write a message, read a page, and what a live stream reads after its
cursor (docs/chat.md). Rights are `app.service.chat_rights`'; blocks and reports are
`app.service.moderation`'.

A message is checked (text 1–500 characters once trimmed, no control characters; the room
writable by the caller; the author within the rate limit), stored at the match's next
`chat_seq` and announced on the broadcaster (`ctx.chat`). Nothing is stored for a refused one.
The rate limit counts the author's stored messages in the window by the injected clock: it holds
across processes with no other shared state, and `Retry-After` is when the oldest of them leaves
the window. A process remembers its refusals until then (`Context.chat_refusals`), so a flood is
refused without reading anything. Readers never see the messages of players they block or of banned players.
"""

from __future__ import annotations

import functools
import math
import unicodedata
import uuid
from collections.abc import Awaitable, Callable, Collection, Hashable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Final, Protocol, TypeGuard, TypeVar

from app.service.auth import Caller
from app.service.cache import Loaded
from app.service.chat_ports import ROOMS, ChatConflict, ChatMessage, ChatStore, Room
from app.service.chat_rights import (
    Reader,
    check_writable,
    readable,
    reader_of,
    shown,
    spectator_chat,
)
from app.service.context import Context
from app.service.errors import ChatClosed, Forbidden, InternalError, RateLimited, ValidationFailed

T = TypeVar("T")


class SharedReads(Protocol):
    """What this process's live chat (`ChatWatchers`) gives the streams' readers: one read for the
    streams that ask for the same at once, and whether a match has nothing after a cursor."""

    async def shared(self, key: Hashable, read: Callable[[], Awaitable[T]]) -> T: ...

    def nothing_after(self, match_id: str, chat_seq: int) -> bool: ...


async def _read(shared: SharedReads | None, key: Hashable, read: Callable[[], Awaitable[T]]) -> T:
    return await (read() if shared is None else shared.shared(key, read))


MAX_TEXT: Final = 500
DEFAULT_PAGE: Final = 50
MAX_PAGE: Final = 200
_MAX_REFUSALS: Final = 10_000  # authors refused and remembered by one process
_APPEND_TRIES: Final = 20  # concurrent writers in one match: each loses at most this often


@dataclass(frozen=True, slots=True)
class ChatPage:
    messages: tuple[ChatMessage, ...]
    next: int | None  # the cursor to read on after, when the page was full


def keeps_chat(store: object) -> TypeGuard[ChatStore]:
    """Whether `store` keeps chat (`ChatStore`), checked once per type of store: a check against a
    runtime protocol looks every member up again each time, and a stream opens with one."""
    kind = type(store)
    known = _CHAT_TYPES.get(kind)
    if known is None:
        known = _CHAT_TYPES[kind] = issubclass(kind, ChatStore)
    return known


_CHAT_TYPES: dict[type, bool] = {}


def chat_store(ctx: Context) -> ChatStore:
    store = ctx.store
    if not keeps_chat(store):
        raise InternalError("this store keeps no chat")
    return store


def clean_text(text: str) -> str:
    """The text as stored: trimmed; 1–500 characters, no control characters (Unicode Cc)."""
    text = text.strip()
    if not 1 <= len(text) <= MAX_TEXT:
        raise ValidationFailed(f"text must be 1 to {MAX_TEXT} characters once trimmed", {"field": "text"})
    if any(unicodedata.category(c) == "Cc" for c in text):
        raise ValidationFailed("text must not contain control characters", {"field": "text"})
    return text


def author_key(caller: Caller) -> str:
    """Whom the rate limit counts: the player of a key, else the seat of a seat token (known from
    the credential alone, so a refusal costs no read of the match)."""
    return f"p:{caller.player_id}" if caller.kind == "player" else f"s:{caller.match_id}:{caller.seat}"


def _refused(ctx: Context, retry: float, limit: int) -> RateLimited:
    seconds = max(1, math.ceil(retry))
    return RateLimited(
        f"at most {limit} chat messages in {ctx.config.chat_rate_s:g} s; retry in {seconds} s",
        {"budget": "chat", "limit": limit, "retry_after": seconds},
    )


def _check_refused(ctx: Context, key: str) -> None:
    """A refusal this process gave `key` still holds (its messages cannot leave the window
    sooner; other processes' messages could only make it later): 429 at once, no I/O. A flood
    then costs the server little more than its requests' parsing: `bench/chat_flood.py`, a flood
    of 1,000 messages beside `bench.api`'s one-match load, action p50 1.01x without it (median of
    5 rounds, SQLite). Flooding without pause for the whole run (about 9,000 requests) is still
    1.9x: one core serves every request; the general rate limits (`DRAGO_RATE_LIMIT_*`, off in the
    benchmarks) bound a single credential's request rate."""
    until = ctx.chat_refusals.get(key)
    if until is not None:
        now = ctx.clock()
        if now < until:
            raise _refused(ctx, (until - now).total_seconds(), ctx.config.chat_rate_messages)
        del ctx.chat_refusals[key]


async def _name_of(ctx: Context, reader: Reader) -> str | None:
    if reader.name is not None or reader.player_id is None:
        return reader.name
    player = await ctx.store.get_player(reader.player_id)
    return None if player is None else player.name


async def _check_rate(ctx: Context, store: ChatStore, key: str) -> None:
    cfg, now = ctx.config, ctx.clock()
    window = timedelta(seconds=cfg.chat_rate_s)
    times = await store.recent_chat(key, now - window)
    if len(times) >= cfg.chat_rate_messages:
        free_at = times[-cfg.chat_rate_messages] + window
        refusals = ctx.chat_refusals
        if len(refusals) >= _MAX_REFUSALS:  # forget the ones that no longer hold
            for stale in [k for k, until in refusals.items() if until <= now]:
                del refusals[stale]
        if len(refusals) < _MAX_REFUSALS:
            refusals[key] = free_at
        raise _refused(ctx, (free_at - now).total_seconds(), cfg.chat_rate_messages)


async def post_message(ctx: Context, match_id: str, caller: Caller, room: Room, text: str) -> ChatMessage:
    store = chat_store(ctx)
    key = author_key(caller)
    _check_refused(ctx, key)
    text = clean_text(text)
    loaded = await ctx.loader.load(match_id)
    if room == "spectators" and not spectator_chat(loaded):
        raise ChatClosed()
    reader = reader_of(loaded, caller)
    check_writable(loaded, reader, room)
    await _check_rate(ctx, store, key)
    name = await _name_of(ctx, reader)
    for _ in range(_APPEND_TRIES):
        head = await store.chat_head(match_id)
        message = ChatMessage(
            match_id,
            head + 1,
            uuid.uuid4().hex,
            room,
            key,
            reader.seat,
            reader.player_id,
            name,
            text,
            ctx.clock(),
        )
        try:
            await store.append_chat(message)
        except ChatConflict:
            continue
        await ctx.chat.notify(match_id, message.chat_seq)
        return message
    raise InternalError("the chat is too busy; try again")


async def hidden_for(
    ctx: Context,
    store: ChatStore,
    reader: Reader,
    authors: Sequence[str],
    shared: SharedReads | None = None,
) -> frozenset[str]:
    """Of `authors` (player ids), those `reader` never sees: blocked by the reader, or banned
    (`shared`: the bans read once for the streams asking about the same authors at once)."""
    hidden: set[str] = set()
    if reader.player_id is not None:
        blocked = {b.blocked_id for b in await store.blocks_of(reader.player_id)}
        hidden |= blocked & set(authors)
    others = frozenset(authors) - hidden
    if others:
        hidden |= await _read(shared, ("banned", others), functools.partial(ctx.store.banned_among, others))
    return frozenset(hidden)


async def read_visible(
    ctx: Context,
    store: ChatStore,
    loaded: Loaded,
    reader: Reader,
    rooms: Sequence[Room],
    after: int,
    limit: int,
    keep: Collection[Room] | None = None,
    shared: SharedReads | None = None,
) -> tuple[list[ChatMessage], int | None, bool]:
    """Up to `limit` stored messages of `rooms` after `after`, less those hidden from `reader`
    (`keep`: and less those of other rooms, dropped before blocks and bans are looked up); the
    last `chat_seq` read (None: nothing), and whether `limit` were read (there may be more).
    `shared`: the store's rows (and the bans) read once for the streams asking at once."""
    match_id = loaded.record.id
    read = functools.partial(store.read_chat, match_id, after, limit, rooms)
    rows = await _read(shared, ("chat", match_id, after, limit, tuple(rooms)), read)
    if not rows:
        return [], None, False
    kept = rows if keep is None else [m for m in rows if m.room in keep]
    authors = [m.author_player_id for m in kept if m.author_player_id is not None]
    hidden = await hidden_for(ctx, store, reader, authors, shared) if authors else frozenset()
    return [m for m in kept if shown(m, hidden)], rows[-1].chat_seq, len(rows) == limit


async def read_page(
    ctx: Context, match_id: str, caller: Caller | None, room: Room | None, after: int, limit: int
) -> ChatPage:
    """A page of the rooms the caller may read (`room`: that one; a room it may not read is 403,
    except a switched-off spectators' room, which reads empty)."""
    store = chat_store(ctx)
    loaded = await ctx.loader.load(match_id)
    reader = reader_of(loaded, caller)
    rooms = readable(loaded, reader)
    if room is not None:
        if room not in rooms:
            if room == "spectators" and not spectator_chat(loaded):
                return ChatPage((), None)
            raise Forbidden(f"you may not read the {room} room now", {"field": "room", "room": room})
        rooms = (room,)
    messages, last, full = await read_visible(ctx, store, loaded, reader, rooms, after, limit)
    return ChatPage(tuple(messages), last if full else None)


@dataclass
class ChatReader:
    """What a live stream reads: the messages after its cursor that its viewer may read now, each
    once, in order. The cursor passes every message read, readable or not: a message is judged
    once, by the rights when the stream reaches it (so a player's stream, after the end, goes on
    with the spectators' room from where it is; the earlier ones are a `GET` away). `caller` is
    the stream's credential (None: an anonymous spectator). `shared`: this process's live chat
    (`ChatWatchers`), so that the streams one notification wakes read the store once."""

    ctx: Context
    match_id: str
    caller: Caller | None
    cursor: int
    page: int = MAX_PAGE
    shared: SharedReads | None = None
    _store: ChatStore = field(init=False)

    def __post_init__(self) -> None:
        self._store = chat_store(self.ctx)

    async def new_messages(self, at: int | None = None) -> list[ChatMessage]:
        """Everything new since the last call; moves the cursor. Rights as the match is now in the
        store, or (`at`: woken by a commit of that seq that may have changed them, and nothing
        else) as this process holds it, when that is at or after `at` (`Loader.at_least`). Nothing
        is read when this process knows there is no message after the cursor
        (`ChatWatchers.nothing_after`: a change of rights with nothing to judge, or a notification
        of a message read already)."""
        if self.shared is not None and self.shared.nothing_after(self.match_id, self.cursor):
            return []
        loaded = await self.ctx.loader.at_least(self.match_id, at)
        reader = reader_of(loaded, self.caller)
        rooms = readable(loaded, reader)
        out: list[ChatMessage] = []
        while True:
            messages, last, full = await read_visible(
                self.ctx, self._store, loaded, reader, ROOMS, self.cursor, self.page, rooms, self.shared
            )
            out.extend(messages)
            if last is not None:
                self.cursor = last
            if not full:
                return out

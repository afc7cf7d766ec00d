"""Process-local caches: folded matches keyed by `seq`, their per-viewer renderings, seat tokens,
players' bans (for at most `BAN_TTL_S`), and one `asyncio.Lock` per match.

The store is the truth. A cached entry is only ever a state this process saw committed, so
loading a match reads just the events after the cached `seq`.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Final

from app.games.core import Seat
from app.matches.fold import EventEnvelope, Match
from app.matches.views import EventRecord, View, commit_records, view_of
from app.service.ports import MatchRecord, SeatRecord


@dataclass(frozen=True, slots=True)
class Loaded:
    """A match as loaded (`app.service.loading`) and as cached: the same immutable object."""

    record: MatchRecord  # as first read: only its fixed members (game, players, secret…) are relied on
    match: Match
    seats: tuple[SeatRecord, ...]


class StateCache:
    def __init__(self, size: int = 1024) -> None:
        self._size = size
        self._entries: OrderedDict[str, Loaded] = OrderedDict()

    def get(self, match_id: str) -> Loaded | None:
        entry = self._entries.get(match_id)
        if entry is not None:
            self._entries.move_to_end(match_id)
        return entry

    def put(self, entry: Loaded) -> None:
        key = entry.match.match_id
        old = self._entries.get(key)
        if old is not None and old.match.seq > entry.match.seq:
            return  # never move a cached match backwards
        self._entries[key] = entry
        self._entries.move_to_end(key)
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)


class Renderings:
    """What a viewer receives of a committed state, built once per state and viewer: its view, and
    the commit that made the state redacted for it (the actor's reply and its stream frame share
    both). Keyed by match id and `seq`: a committed `seq` names one state in every process. The
    least recently used entries go first."""

    def __init__(self, size: int = 8192) -> None:
        self._size = size
        self._entries: OrderedDict[Hashable, View | tuple[EventRecord, ...]] = OrderedDict()

    def view(self, match: Match, seat: Seat | None) -> View:
        key = (match.match_id, match.seq, _VIEW, seat)
        cached = self._entries.get(key)
        if isinstance(cached, View):
            return cached
        view = view_of(match, seat)
        self._put(key, view)
        return view

    def commit_records(
        self,
        match: Match,
        events: Sequence[EventEnvelope],
        seat: Seat | None,
        decoded: Sequence[object] | None = None,
    ) -> tuple[EventRecord, ...]:
        """`app.matches.views.commit_records`, once per state, viewer and first seq of `events`."""
        first = events[0].seq if events else None
        key = (match.match_id, match.seq, _RECORDS, seat, first)
        cached = self._entries.get(key)
        if isinstance(cached, tuple):
            return cached
        records = commit_records(match, events, seat, decoded)
        self._put(key, records)
        return records

    def _put(self, key: Hashable, value: View | tuple[EventRecord, ...]) -> None:
        self._entries[key] = value
        if len(self._entries) > self._size:
            self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)


_VIEW: Final = "view"
_RECORDS: Final = "records"


TokenOwner = tuple[str, int, str | None]
"""What a seat token names: its match, its seat, and the player the seat is bound to (if any)."""


class TokenCache:
    """Seat token hash → what it named when last looked up (`TokenOwner`).

    Only a hint: a reissued token still hits here, so every use checks the hash against the
    current seat row (`app.service.auth`). The player a seat is bound to never changes (a reissue
    or a takeover keeps it), so the hint's player is the seat's."""

    def __init__(self, size: int = 65536) -> None:
        self._size = size
        self._entries: OrderedDict[str, TokenOwner] = OrderedDict()

    def get(self, token_hash: str) -> TokenOwner | None:
        return self._entries.get(token_hash)

    def put(self, token_hash: str, owner: TokenOwner) -> None:
        self._entries[token_hash] = owner
        if len(self._entries) > self._size:
            self._entries.popitem(last=False)

    def drop(self, token_hash: str) -> None:
        self._entries.pop(token_hash, None)


BAN_TTL_S: Final = 0.5  # a ban reaches seat tokens in this process within this (docs/moderation.md)


class BanCache:
    """Player id → whether it was banned when last read, trusted for `ttl_s` (monotonic time).

    Only seat tokens go through it (a player key's request reads its player anyway): an action by
    seat token then costs no store read for the ban but once per `ttl_s` per player. Bounded: the
    oldest entries go first."""

    def __init__(
        self, ttl_s: float = BAN_TTL_S, size: int = 65536, now: Callable[[], float] = time.monotonic
    ) -> None:
        self.ttl_s = ttl_s
        self._size = size
        self._now = now
        self._entries: OrderedDict[str, tuple[bool, float]] = OrderedDict()

    def get(self, player_id: str) -> bool | None:
        """Whether the player is banned, or None when unknown or older than `ttl_s`."""
        entry = self._entries.get(player_id)
        if entry is None or self._now() - entry[1] >= self.ttl_s:
            return None
        return entry[0]

    def put(self, player_id: str, banned: bool) -> None:
        self._entries[player_id] = (banned, self._now())
        self._entries.move_to_end(player_id)
        if len(self._entries) > self._size:
            self._entries.popitem(last=False)


class MatchLocks:
    """One lock per match in this process; unused locks disappear with their last holder."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def get(self, match_id: str) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[match_id] = lock
        return lock

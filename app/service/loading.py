"""Loading a match: its record, its seats and its state folded from the store through the cache."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.games.core import Game
from app.matches.lifecycle import LoadedMatch, fold
from app.service.cache import CacheEntry, StateCache
from app.service.errors import InternalError, NotFound
from app.service.ports import EventStore, MatchRecord, SeatRecord


@dataclass(frozen=True, slots=True)
class Loaded:
    record: MatchRecord
    match: LoadedMatch
    seats: tuple[SeatRecord, ...]

    @property
    def bots(self) -> frozenset[int]:
        return frozenset(s.seat for s in self.seats if s.bot)


class Loader:
    def __init__(
        self, store: EventStore, games: Mapping[str, Game[Any, Any, Any]], cache: StateCache
    ) -> None:
        self.store = store
        self.games = games
        self.cache = cache

    def game_of(self, record: MatchRecord) -> Game[Any, Any, Any]:
        game = self.games.get(record.game)
        if game is None:  # a match of a game this server no longer hosts
            raise InternalError(f"the game {record.game!r} of this match is not available")
        return game

    async def record(self, match_id: str) -> MatchRecord:
        record = await self.store.get_match(match_id)
        if record is None:
            raise NotFound("no such match", {"match_id": match_id})
        return record

    def cached(self, match_id: str) -> Loaded | None:
        """The last state this process committed or loaded, if every seat is filled; no I/O.

        It may be behind the store when another process wrote since: callers that act on it
        append at its `seq`, so a stale state ends in a `VersionConflict` and a fresh `load`.
        """
        entry = self.cache.get(match_id)
        if entry is None or entry.record is None or not entry.match.seated:
            return None
        return Loaded(entry.record, entry.match, entry.seats)

    async def load(self, match_id: str) -> Loaded:
        """The match as committed now: the cached fold plus only the events after its `seq`."""
        record = await self.record(match_id)
        game = self.game_of(record)
        entry = self.cache.get(match_id)
        if entry is not None and entry.match.seated:
            seats = entry.seats
        else:
            seats = tuple(await self.store.get_seats(match_id))
        seated = bool(seats) and all(s.name is not None for s in seats)
        base = entry.match if entry is not None else None
        events = await self.store.read(match_id, after=base.seq if base is not None else 0)
        if base is None or events:
            try:
                match = fold(match_id, game, record.players, events, seated, base)
            except ValueError:
                raise InternalError("this match has no readable events") from None
        else:
            match = dataclasses.replace(base, seated=seated)
        self.cache.put(CacheEntry(match, seats, record))
        return Loaded(record, match, seats)

    def remember(self, loaded: Loaded, match: LoadedMatch) -> None:
        """Cache `match`, a state just committed on top of `loaded`."""
        self.cache.put(CacheEntry(match, loaded.seats, loaded.record))

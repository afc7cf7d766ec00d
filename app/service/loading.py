"""Loading a match: its record, its seats and its state folded from the store through the cache.

The store is the truth; the cache holds the last state this process committed or read, so a load
reads only the events after the cached `seq`. Seat rows (token hashes, player ids) are re-read
whenever new events change a seat, so a reissued token or a takeover on another process is seen.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from typing import Final, cast

from app.games.core import AnyGame
from app.matches.events import SeatJoined, SeatTakenOver, SeatTokenReissued
from app.matches.fairness import V1
from app.matches.fold import Match, fold, new_match
from app.matches.settings import stored_settings
from app.service import replays, snapshots
from app.service.cache import Loaded, Renderings, StateCache
from app.service.errors import InternalError, NotFound
from app.service.ports import EventStore, MatchRecord, SeatRecord, StoredEvent
from app.service.replays import Replays

log = logging.getLogger("app.service")

SEAT_EVENTS: Final = frozenset(cls.TYPE for cls in (SeatJoined, SeatTokenReissued, SeatTakenOver))


class Loader:
    def __init__(self, store: EventStore, games: Mapping[str, AnyGame], cache: StateCache) -> None:
        self.store = store
        self.games = games
        self.cache = cache
        self.renderings = Renderings()  # views and a commit's records, once per state and viewer
        self._pending: set[asyncio.Task[None]] = set()  # snapshots being written
        self.replays = Replays()

    def game_of(self, record: MatchRecord) -> AnyGame:
        game = self.games.get(record.game)
        if game is None:  # a match of a game this server no longer hosts
            raise InternalError(f"the game {record.game!r} of this match is not available")
        return game

    async def record(self, match_id: str) -> MatchRecord:
        """The match's record, for its fixed members (game, players, secret, settings, the host and
        invite hashes): the cached one when this process holds the match (they never change, and
        no match is ever deleted), else read from the store. Raises `NotFound`."""
        cached = self.cache.get(match_id)
        if cached is not None:
            return cached.record
        return await self._stored_record(match_id)

    async def _stored_record(self, match_id: str) -> MatchRecord:
        record = await self.store.get_match(match_id)
        if record is None:
            raise NotFound("no such match", {"match_id": match_id})
        return record

    def cached(self, match_id: str) -> Loaded | None:
        """The last state this process committed or loaded; no I/O.

        It may be behind the store when another process wrote since: callers that act on it
        append at its `seq`, so a stale state ends in a `VersionConflict` and a fresh `load`.
        """
        return self.cache.get(match_id)

    async def to_decide_on(self, match_id: str, *, fresh: bool) -> Loaded:
        """What a writer decides on: the cached state (no I/O) unless `fresh` or none is held,
        else `load`. A decision on a stale cache ends in a `VersionConflict`; then ask `fresh`."""
        return (None if fresh else self.cached(match_id)) or await self.load(match_id)

    async def at_least(self, match_id: str, seq: int | None) -> Loaded:
        """The cached state when it is at `seq` or after (no I/O: a commit this process made or
        folded since), else `load`; `seq` None: `load`."""
        if seq is not None:
            cached = self.cached(match_id)
            if cached is not None and cached.match.seq >= seq:
                return cached
        return await self.load(match_id)

    async def load(self, match_id: str) -> Loaded:
        """The match as committed now: the cached fold (else the newest snapshot) plus only the
        events after its `seq`."""
        entry = self.cache.get(match_id)
        if entry is None:
            return await self._load_cold(match_id)
        record, seats, base = entry.record, entry.seats, entry.match
        events = await self.store.read(match_id, after=base.seq)
        if not events:
            return entry
        if any(e.type in SEAT_EVENTS for e in events):
            seats = tuple(await self.store.get_seats(match_id))
        return self._folded(record, seats, base, events)

    async def _load_cold(self, match_id: str) -> Loaded:
        """A match this process does not hold: its record and snapshot together, then the events
        after the snapshot and the seat rows together.

        The rows must be at least as new as the events: rows older than a join among the events
        would keep the fold's seat without its row (its token refused here for good). Rows and
        events commit together, and rows change only in commits holding a `SEAT_EVENTS` event
        (a join, a reissue, a takeover), all after the snapshot (read before the rows). So rows
        read before the events missed a commit only if one of these events is among the events,
        and its effect missing from the rows: a join's seat not taken, a takeover's not a bot, a
        reissue (whose token no event tells). Then the rows are read again, after the events."""
        record, snapshot = await asyncio.gather(
            self._stored_record(match_id), self.store.get_snapshot(match_id)
        )
        kept = None if snapshot is None else snapshots.load(snapshot, self.game_of(record))
        events, rows = await asyncio.gather(
            self.store.read(match_id, after=0 if kept is None else kept.seq), self.store.get_seats(match_id)
        )
        if not _rows_cover(rows, events):
            rows = await self.store.get_seats(match_id)
        seats = tuple(rows)
        return self._folded(record, seats, kept or self.empty(record, seats), events)

    def _folded(
        self, record: MatchRecord, seats: tuple[SeatRecord, ...], base: Match, events: Sequence[StoredEvent]
    ) -> Loaded:
        match = self._fold(base, events)
        if len(events) >= snapshots.EVERY:
            self._keep(match)
        loaded = Loaded(record, match, seats)
        self.remember(loaded)
        return loaded

    async def at(self, record: MatchRecord, seq: int, since: int = 0) -> tuple[Match, list[StoredEvent]]:
        """The match as it was at `seq`, and its events after `since`: the state this process holds
        when it is at `seq` (a retry of the newest commit), else a replay folded from the nearest
        state known before it (`app.service.replays`). Raises `InsideCommit`, before folding, when
        `seq` does not end a commit."""
        held = self.cache.get(record.id)
        if held is not None and held.match.seq == seq:
            return held.match, (await self.store.read(record.id, since, seq - since)) if since < seq else []
        if not stored_settings(record.settings).lifecycle:
            # An older match's seats are rows that every fold takes as they are now: from the start.
            seats = tuple(await self.store.get_seats(record.id))
            events = await self.store.read(record.id, 0, seq)
            _require_commit_end(events, seq)
            return self._fold(self.empty(record, seats), events), [e for e in events if e.seq > since]
        base = await self._replay_base(record, seq)
        start = min(since, base.seq)
        events = await self.store.read(record.id, start, seq - start)
        _require_commit_end(events, seq)  # the events after `base` hold the whole commit
        match = await self._replay(base, [e for e in events if e.seq > base.seq])
        return match, [e for e in events if e.seq > since]

    async def _replay_base(self, record: MatchRecord, seq: int) -> Match:
        """The nearest state at or before `seq` that ends a commit: one kept for replays, the stored
        snapshot (looked up only when no kept state is within `replays.EVERY` events), else the
        start. Only for a match whose seats are events (`lifecycle`)."""
        kept = self.replays.nearest(record.id, seq)
        if kept is None or seq - kept.seq > replays.EVERY:
            snapshot = await self.store.get_snapshot(record.id)
            if snapshot is not None and (0 if kept is None else kept.seq) < snapshot.seq <= seq:
                kept = snapshots.load(snapshot, self.game_of(record)) or kept
        return kept if kept is not None else self.empty(record, ())

    async def _replay(self, base: Match, events: Sequence[StoredEvent]) -> Match:
        """`base` with `events` (which end a commit) folded, about `replays.EVERY` at a time: each
        part ends a commit and its state is kept, the end's too; other requests run between parts."""
        match, start = base, 0
        while True:
            end = _part_end(events, start)
            match = self._fold(match, events[start:end])
            if end == len(events):
                break
            self.replays.keep(match)
            start = end
            await asyncio.sleep(0)  # a long replay does not hold up the event loop
        if events:  # it ends a commit (`at` refuses any other seq)
            self.replays.keep(match)
        return match

    def _keep(self, match: Match) -> None:
        """Keep a snapshot in the background: a load never waits for it, and a failure only costs
        the next cold load a longer fold."""

        async def put() -> None:
            try:
                await self.store.put_snapshot(snapshots.dump(match))
            except Exception:
                log.warning("keeping a snapshot failed", extra={"match_id": match.match_id}, exc_info=True)

        task = asyncio.create_task(put(), name=f"snapshot-{match.match_id}")
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    def empty(self, record: MatchRecord, seats: Sequence[SeatRecord]) -> Match:
        return new_match(
            record.id, self.game_of(record), record.players, stored_settings(record.settings), seats
        )

    def remember(self, loaded: Loaded) -> None:
        self.cache.put(loaded)

    @staticmethod
    def _fold(base: Match, events: Sequence[StoredEvent]) -> Match:
        try:
            match = fold(base, events)
        except (ValueError, KeyError) as e:
            raise InternalError("this match's events cannot be read") from e
        if match.seq == 0 and base.settings.fairness == V1:  # drago-fair-2: none until a seat is taken
            raise InternalError("this match has no events")
        return match


class InsideCommit(Exception):  # not an error of the server: a seq to refuse
    """A replay asked for a seq inside a commit, which runs from `first` to `last`."""

    def __init__(self, first: int, last: int) -> None:
        super().__init__(f"seqs {first} to {last} are one commit")
        self.first, self.last = first, last


def _rows_cover(rows: Sequence[SeatRecord], events: Sequence[StoredEvent]) -> bool:
    """Whether the seat rows show every seat change among `events`: each joined seat taken by its
    joiner, each seat taken over a bot of its level, and no token reissued (no event says which)."""
    by_seat = {r.seat: r for r in rows}
    for e in events:
        if e.type not in SEAT_EVENTS:
            continue
        row = by_seat.get(cast(int, e.data.get("seat")))
        if row is None or e.type == SeatTokenReissued.TYPE:
            return False
        d = e.data
        if e.type == SeatJoined.TYPE:
            if (row.name, row.bot, row.player_id) != (d.get("name"), d.get("bot", False), d.get("player_id")):
                return False
        elif not row.bot or row.bot_level != d.get("level"):  # a takeover
            return False
    return True


def _require_commit_end(events: Sequence[StoredEvent], seq: int) -> None:
    """Raise `InsideCommit` unless the event at `seq` (the last of `events`, which hold every event
    of its commit up to it) ends its commit."""
    last = events[-1] if events else None
    if last is not None and last.seq == seq and last.commit != seq:
        raise InsideCommit(min(e.seq for e in events if e.commit == last.commit), last.commit)


def _part_end(events: Sequence[StoredEvent], start: int) -> int:
    """Where the part of a replay that begins at `start` ends: after the first event that ends a
    commit once `replays.EVERY` events are in, else at the end."""
    for i in range(start + replays.EVERY - 1, len(events)):
        if events[i].seq == events[i].commit:
            return i + 1
    return len(events)

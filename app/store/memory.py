"""In-memory `EventStore`: the twin of the SQL stores for unit tests and a single throwaway process.

It keeps the same rules as the SQL stores (checked by the one contract suite): an append is all or
nothing, conflicts on the expected seq and on every unique key, notices get gap-free cursors per
player, and records come back as the frozen dataclasses that went in.

Lookups a SQL store answers from an index are answered from one here too (a dict kept in step with
every write): a seat by its token hash, a player by its key hash, a player's seats. The lobby and
the sweeps still scan the matches, which suits the test and single-process sizes this store is for.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Collection, Sequence
from datetime import datetime

from app.service import ports
from app.service.names import NameInUse, name_key
from app.service.ports import MatchRecord, NewEvent, SeatRecord
from app.store.chat_memory import MemoryChat
from app.store.ratings_memory import MemoryRatings

_LIVE = ("waiting", "active")


class MemoryEventStore(MemoryRatings, MemoryChat):
    appends_remotely = False  # an append does not wait: `ports.EventStore.appends_remotely`

    def __init__(self) -> None:
        self._matches: dict[str, MatchRecord] = {}
        self._seats: dict[str, list[SeatRecord]] = {}
        self._by_token: dict[str, SeatRecord] = {}  # the seat holding each token hash (unique, as a DB index)
        self._events: dict[str, list[ports.StoredEvent]] = {}
        self._idem: dict[tuple[str, int, str], tuple[ports.IdempotencyRecord, datetime]] = {}
        self._players: dict[str, ports.PlayerRecord] = {}
        self._by_key: dict[str, str] = {}  # each key hash's player id (unique, as a DB index)
        self._player_seats: dict[str, dict[str, int]] = {}  # player id -> {match id: seat}
        self._notices: dict[str, list[ports.StoredNotice]] = {}
        self._snapshots: dict[str, ports.Snapshot] = {}
        self._lock = asyncio.Lock()

    # Matches

    async def create_match(
        self, match: MatchRecord, seats: Sequence[SeatRecord], events: Sequence[NewEvent] = ()
    ) -> None:
        if match.seq != len(events):
            raise ValueError(f"match {match.id}: seq {match.seq} but {len(events)} events")
        async with self._lock:
            if match.id in self._matches:
                raise ValueError(f"match {match.id} exists")
            hashes = [s.token_hash for s in seats if s.token_hash is not None]
            if len(set(hashes)) != len(hashes) or any(h in self._by_token for h in hashes):
                raise ValueError("a token hash is in use")
            players = [s.player_id for s in seats if s.player_id is not None]
            if len(set(players)) != len(players) or any(p not in self._players for p in players):
                raise ValueError("a player is seated twice, or unknown")
            self._matches[match.id] = match
            self._set_seats(match.id, sorted(seats, key=lambda s: s.seat))
            n = len(events)
            self._events[match.id] = [
                ports.StoredEvent(match.id, i, e.type, dict(e.data), match.created_at, n)
                for i, e in enumerate(events, 1)
            ]

    async def get_match(self, match_id: str) -> MatchRecord | None:
        return self._matches.get(match_id)

    async def list_matches(self, flt: ports.MatchFilter) -> tuple[list[MatchRecord], int]:
        rows = [m for m in self._matches.values() if _listed(m, flt)]
        rows.sort(key=lambda m: (m.created_at, m.id), reverse=True)
        return rows[flt.offset : flt.offset + flt.limit], len(rows)

    async def get_seats(self, match_id: str) -> list[SeatRecord]:
        return list(self._seats.get(match_id, ()))

    async def seat_by_token(self, token_hash: str) -> SeatRecord | None:
        return self._by_token.get(token_hash)

    def _set_seats(self, match_id: str, seats: list[SeatRecord]) -> None:
        """Write a match's seats and keep the token and player indexes in step (checked unique
        before)."""
        for s in self._seats.get(match_id, ()):
            if s.token_hash is not None:
                del self._by_token[s.token_hash]
            if s.player_id is not None:
                held = self._player_seats[s.player_id]
                del held[match_id]
                if not held:
                    del self._player_seats[s.player_id]
        self._seats[match_id] = seats
        for s in seats:
            if s.token_hash is not None:
                self._by_token[s.token_hash] = s
            if s.player_id is not None:
                self._player_seats.setdefault(s.player_id, {})[match_id] = s.seat

    # Appending

    async def append(self, append: ports.Append) -> ports.AppendResult:
        a = append
        async with self._lock:
            stream = self._events.get(a.match_id)
            match = self._matches.get(a.match_id)
            if stream is None or match is None:
                raise KeyError(a.match_id)
            conflict = ports.VersionConflict(a.match_id, a.expected_seq, len(stream))
            if len(stream) != a.expected_seq:
                raise conflict
            seats = list(self._seats[a.match_id])
            for w in a.seats:
                if not 0 <= w.seat < len(seats):
                    raise KeyError(f"{a.match_id} seat {w.seat}")
                if w.player_id is not None and w.player_id not in self._players:
                    raise KeyError(f"player {w.player_id}")
                seats[w.seat] = SeatRecord(
                    a.match_id, w.seat, w.name, w.token_hash, w.bot, w.joined_at, w.player_id, w.bot_level
                )
            if a.seats and not self._seats_unique(a.match_id, seats):
                raise conflict
            if a.idempotency is not None:
                if not 0 <= a.idempotency.seat < len(seats):
                    raise KeyError(f"{a.match_id} seat {a.idempotency.seat}")
                key = (a.match_id, a.idempotency.seat, a.idempotency.key)
                if key in self._idem:
                    raise conflict
            for n in a.notices:
                if n.player_id not in self._players:
                    raise KeyError(f"player {n.player_id}")
            # Nothing can fail from here on: write it all.
            if a.idempotency is not None:
                self._idem[(a.match_id, a.idempotency.seat, a.idempotency.key)] = (a.idempotency, a.at)
            if a.seats:
                self._set_seats(a.match_id, seats)
            last = a.expected_seq + len(a.events)
            for e in a.events:
                stream.append(
                    ports.StoredEvent(a.match_id, len(stream) + 1, e.type, dict(e.data), a.at, last)
                )
            self._matches[a.match_id] = a.update.applied(match, last, a.at)
            written: list[ports.StoredNotice] = []
            for n in a.notices:
                player = self._players[n.player_id]
                cursor = player.cursor + 1
                self._players[n.player_id] = dataclasses.replace(player, cursor=cursor)
                stored = ports.StoredNotice(n.player_id, cursor, n.type, dict(n.data), a.at)
                self._notices.setdefault(n.player_id, []).append(stored)
                written.append(stored)
            return ports.AppendResult(last, tuple(written))

    async def write_notices(
        self, notices: Sequence[ports.NewNotice], at: datetime
    ) -> tuple[ports.StoredNotice, ...]:
        """Write notices outside an append (matchmaking's claims): the next cursor of each player."""
        async with self._lock:
            if any(n.player_id not in self._players for n in notices):
                raise KeyError("a notice's player is unknown")
            written: list[ports.StoredNotice] = []
            for n in notices:
                player = self._players[n.player_id]
                cursor = player.cursor + 1
                self._players[n.player_id] = dataclasses.replace(player, cursor=cursor)
                stored = ports.StoredNotice(n.player_id, cursor, n.type, dict(n.data), at)
                self._notices.setdefault(n.player_id, []).append(stored)
                written.append(stored)
            return tuple(written)

    def _seats_unique(self, match_id: str, seats: list[SeatRecord]) -> bool:
        players = [s.player_id for s in seats if s.player_id is not None]
        hashes = [s.token_hash for s in seats if s.token_hash is not None]
        if len(set(players)) != len(players) or len(set(hashes)) != len(hashes):
            return False
        return all((owner := self._by_token.get(h)) is None or owner.match_id == match_id for h in hashes)

    async def read(self, match_id: str, after: int = 0, limit: int | None = None) -> list[ports.StoredEvent]:
        stream = self._events.get(match_id, [])
        start = max(after, 0)
        end = len(stream) if limit is None else min(len(stream), start + limit)
        return stream[start:end]

    # Idempotency

    async def get_idempotent(self, match_id: str, seat: int, key: str) -> ports.IdempotencyRecord | None:
        found = self._idem.get((match_id, seat, key))
        return None if found is None else found[0]

    async def prune_idempotency(self, before: datetime) -> int:
        async with self._lock:
            old = [k for k, (_, at) in self._idem.items() if at < before]
            for k in old:
                del self._idem[k]
            return len(old)

    # Sweeping

    async def due_matches(self, now: datetime, limit: int) -> list[str]:
        due = [
            m
            for m in self._matches.values()
            if m.status in _LIVE and m.deadline_at is not None and m.deadline_at <= now
        ]
        due.sort(key=lambda m: (m.deadline_at, m.id))
        return [m.id for m in due[:limit]]

    async def stalled_bots(self, before: datetime, limit: int) -> list[str]:
        stalled = [
            m for m in self._matches.values() if m.status == "active" and m.bot_due and m.updated_at <= before
        ]
        stalled.sort(key=lambda m: (m.updated_at, m.id))
        return [m.id for m in stalled[:limit]]

    # Players

    async def create_player(self, player: ports.PlayerRecord) -> None:
        async with self._lock:
            if player.id in self._players or player.key_hash in self._by_key:
                raise ValueError(f"player {player.id} or its key exists")
            if any(name_key(p.name) == name_key(player.name) for p in self._players.values()):
                raise NameInUse(player.name)
            self._players[player.id] = player
            self._by_key[player.key_hash] = player.id

    async def get_player(self, player_id: str) -> ports.PlayerRecord | None:
        return self._players.get(player_id)

    async def player_by_key(self, key_hash: str) -> ports.PlayerRecord | None:
        player_id = self._by_key.get(key_hash)
        return None if player_id is None else self._players[player_id]

    async def set_player_key(self, player_id: str, key_hash: str) -> bool:
        async with self._lock:
            player = self._players.get(player_id)
            if player is None:
                return False
            if self._by_key.get(key_hash, player_id) != player_id:
                raise ValueError("this key hash is in use")
            del self._by_key[player.key_hash]
            self._by_key[key_hash] = player_id
            self._players[player_id] = dataclasses.replace(player, key_hash=key_hash)
            return True

    async def set_ban(self, player_id: str, banned_at: datetime | None, reason: str | None) -> bool:
        async with self._lock:
            player = self._players.get(player_id)
            if player is None:
                return False
            reason = None if banned_at is None else reason
            self._players[player_id] = dataclasses.replace(player, banned_at=banned_at, ban_reason=reason)
            return True

    async def banned_among(self, player_ids: Collection[str]) -> set[str]:
        players = (self._players.get(i) for i in player_ids)
        return {p.id for p in players if p is not None and p.banned_at is not None}

    async def player_matches(self, flt: ports.PlayerMatchFilter) -> tuple[list[ports.PlayerMatch], int]:
        found: list[ports.PlayerMatch] = []
        for match_id, seat in self._player_seats.get(flt.player_id, {}).items():
            m = self._matches[match_id]
            if flt.status is not None and m.status != flt.status:
                continue
            if flt.game is not None and m.game != flt.game:
                continue
            if flt.to_act and seat not in m.to_act:
                continue
            found.append(ports.PlayerMatch(m, seat))
        found.sort(key=lambda pm: (pm.record.updated_at, pm.record.id), reverse=True)
        return found[flt.offset : flt.offset + flt.limit], len(found)

    async def read_notices(
        self, player_id: str, after: int = 0, limit: int | None = None
    ) -> list[ports.StoredNotice]:
        notices = self._notices.get(player_id, [])
        start = max(after, 0)
        end = len(notices) if limit is None else min(len(notices), start + limit)
        return notices[start:end]

    # Snapshots

    async def get_snapshot(self, match_id: str) -> ports.Snapshot | None:
        return self._snapshots.get(match_id)

    async def put_snapshot(self, snapshot: ports.Snapshot) -> None:
        if snapshot.match_id not in self._matches:
            raise KeyError(snapshot.match_id)
        kept = self._snapshots.get(snapshot.match_id)
        if kept is None or kept.seq <= snapshot.seq:
            self._snapshots[snapshot.match_id] = snapshot

    # Operations

    async def ping(self) -> None:
        return None

    async def close(self) -> None:
        return None


def _listed(m: MatchRecord, flt: ports.MatchFilter) -> bool:
    if m.visibility != "public" and not flt.include_unlisted:
        return False
    if flt.status is not None and m.status != flt.status:
        return False
    if flt.game is not None and m.game != flt.game:
        return False
    return flt.open is None or flt.open == (m.status == "waiting" and m.open_seats > 0)

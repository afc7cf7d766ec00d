"""In-memory `EventStore`: the twin of the SQL store for unit tests and a single throwaway process."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from datetime import datetime

from app.service.ports import (
    IdempotencyRecord,
    MatchFilter,
    MatchRecord,
    MatchUpdate,
    NewEvent,
    SeatRecord,
    SeatTaken,
    StoredEvent,
    VersionConflict,
)


class MemoryEventStore:
    def __init__(self) -> None:
        self._matches: dict[str, MatchRecord] = {}
        self._seats: dict[str, list[SeatRecord]] = {}
        self._events: dict[str, list[StoredEvent]] = {}
        self._idem: dict[tuple[str, int, str], IdempotencyRecord] = {}
        self._lock = asyncio.Lock()

    async def create_match(
        self, match: MatchRecord, seats: Sequence[SeatRecord], events: Sequence[NewEvent] = ()
    ) -> None:
        if match.seq != len(events):
            raise ValueError(f"match {match.id}: seq {match.seq} but {len(events)} events")
        async with self._lock:
            if match.id in self._matches:
                raise ValueError(f"match {match.id} exists")
            self._matches[match.id] = match
            self._seats[match.id] = sorted(seats, key=lambda s: s.seat)
            self._events[match.id] = [
                StoredEvent(match.id, i, e.type, dict(e.data), match.created_at)
                for i, e in enumerate(events, 1)
            ]

    async def get_match(self, match_id: str) -> MatchRecord | None:
        return self._matches.get(match_id)

    async def list_matches(self, flt: MatchFilter) -> tuple[list[MatchRecord], int]:
        rows = [
            m
            for m in self._matches.values()
            if (flt.status is None or m.status == flt.status) and (flt.game is None or m.game == flt.game)
        ]
        rows.sort(key=lambda m: (m.created_at, m.id), reverse=True)
        return rows[flt.offset : flt.offset + flt.limit], len(rows)

    async def get_seats(self, match_id: str) -> list[SeatRecord]:
        return list(self._seats.get(match_id, ()))

    async def claim_seat(self, match_id: str, seat: int, name: str, token_hash: str, at: datetime) -> None:
        async with self._lock:
            seats = self._seats.get(match_id)
            if seats is None or not 0 <= seat < len(seats) or seats[seat].name is not None:
                raise SeatTaken(f"seat {seat} of match {match_id} is not free")
            seats[seat] = dataclasses.replace(seats[seat], name=name, token_hash=token_hash, joined_at=at)

    async def seat_by_token(self, token_hash: str) -> SeatRecord | None:
        for seats in self._seats.values():
            for s in seats:
                if s.token_hash == token_hash:
                    return s
        return None

    async def append(
        self,
        match_id: str,
        expected_seq: int,
        events: Sequence[NewEvent],
        update: MatchUpdate,
        at: datetime,
        idempotency: IdempotencyRecord | None = None,
    ) -> int:
        async with self._lock:
            stream = self._events.get(match_id)
            match = self._matches.get(match_id)
            if stream is None or match is None:
                raise KeyError(match_id)
            if len(stream) != expected_seq:
                raise VersionConflict(match_id, expected_seq, len(stream))
            if idempotency is not None:
                key = (match_id, idempotency.seat, idempotency.key)
                if key in self._idem:
                    raise VersionConflict(match_id, expected_seq, len(stream))
                self._idem[key] = idempotency
            for e in events:
                stream.append(StoredEvent(match_id, len(stream) + 1, e.type, dict(e.data), at))
            self._matches[match_id] = dataclasses.replace(
                match,
                seq=len(stream),
                status=update.status,
                to_act=update.to_act,
                scores=update.scores,
                winners=update.winners,
                updated_at=at,
            )
            return len(stream)

    async def read(self, match_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        stream = self._events.get(match_id, [])
        end = len(stream) if limit is None else min(len(stream), after + limit)
        return stream[max(after, 0) : end]

    async def get_idempotent(self, match_id: str, seat: int, key: str) -> IdempotencyRecord | None:
        return self._idem.get((match_id, seat, key))

    async def ping(self) -> None:
        return None

    async def close(self) -> None:
        return None

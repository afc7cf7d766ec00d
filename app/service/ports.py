"""Ports the services need from the outside world, and the records that cross them.

`EventStore` is the truth of every match: an append-only stream per match keyed `(match_id, seq)`,
plus the matches and seats tables. `Broadcaster` carries only "match M is at seq N" between
processes. Each port has an in-memory twin (`app.service.memory`) and one contract test suite that
runs against every implementation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

JSON = Any

MatchStatus = Literal["waiting", "active", "finished"]


class VersionConflict(Exception):
    """Appending at `expected_seq` failed because another writer got there first."""

    def __init__(self, match_id: str, expected_seq: int, actual_seq: int | None = None) -> None:
        super().__init__(f"match {match_id}: expected seq {expected_seq}, store is at {actual_seq}")
        self.match_id = match_id
        self.expected_seq = expected_seq
        self.actual_seq = actual_seq


class SeatTaken(Exception):
    """The seat was claimed by someone else (or does not exist)."""


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append: its type tag and full (unredacted) JSON payload."""

    type: str
    data: Mapping[str, JSON]


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event as stored: envelope (match, seq, time) around the game's payload."""

    match_id: str
    seq: int  # 1-based, gap-free within a match
    type: str
    data: Mapping[str, JSON]
    recorded_at: datetime


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """The listing projection of a match; `seq` is the last appended event (0 = none yet).

    `secret` is the seed the match's dice are rolled from; it never leaves the server while the
    match runs. `commitment` is SHA-256 over it and the deal, published at creation.
    """

    id: str
    game: str
    players: int
    options: Mapping[str, JSON]
    status: MatchStatus
    seq: int
    created_at: datetime
    updated_at: datetime
    secret: str
    commitment: str
    to_act: tuple[int, ...] = ()
    scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class SeatRecord:
    match_id: str
    seat: int
    name: str | None = None  # None while the seat is free
    token_hash: str | None = None
    bot: bool = False
    joined_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class MatchUpdate:
    """Projection changes written in the same transaction as an append."""

    status: MatchStatus
    to_act: tuple[int, ...]
    scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class IdempotencyRecord:
    """The first reply to a request that carried an `Idempotency-Key`, kept per (match, seat, key)."""

    match_id: str
    seat: int
    key: str
    request_hash: str  # a different body under the same key is refused, not replayed
    response: Mapping[str, JSON]


@dataclass(frozen=True, slots=True)
class MatchFilter:
    status: MatchStatus | None = None
    game: str | None = None
    limit: int = 50
    offset: int = 0


class EventStore(Protocol):
    async def create_match(
        self, match: MatchRecord, seats: Sequence[SeatRecord], events: Sequence[NewEvent] = ()
    ) -> None:
        """Insert a match, its seats and its first events (seq 1…) in one transaction.

        `match.seq` must equal `len(events)`; the events are recorded at `match.created_at`. A
        match that exists already raises `ValueError` and nothing is written.
        """
        ...

    async def get_match(self, match_id: str) -> MatchRecord | None: ...

    async def list_matches(self, flt: MatchFilter) -> tuple[list[MatchRecord], int]:
        """A page of matches (newest first) and the total count for the filter."""
        ...

    async def get_seats(self, match_id: str) -> list[SeatRecord]: ...

    async def claim_seat(self, match_id: str, seat: int, name: str, token_hash: str, at: datetime) -> None:
        """Take a free seat atomically; raises `SeatTaken` if it is not free."""
        ...

    async def seat_by_token(self, token_hash: str) -> SeatRecord | None: ...

    async def append(
        self,
        match_id: str,
        expected_seq: int,
        events: Sequence[NewEvent],
        update: MatchUpdate,
        at: datetime,
        idempotency: IdempotencyRecord | None = None,
    ) -> int:
        """Append `events` as seq `expected_seq+1 …` and apply `update`, in one transaction.

        Returns the new last seq. Raises `VersionConflict` if the match is not at
        `expected_seq` (or another writer inserts the same seq concurrently); then nothing is
        written, the idempotency record included.
        """
        ...

    async def read(self, match_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Events with `seq > after`, in order, at most `limit`."""
        ...

    async def get_idempotent(self, match_id: str, seat: int, key: str) -> IdempotencyRecord | None: ...

    async def ping(self) -> None:
        """Raise if the store is unreachable (readiness)."""
        ...

    async def close(self) -> None: ...


MessageHandler = Callable[[str, int], None]


class Broadcaster(Protocol):
    """Carries "match M is at seq N" to every process; never any event content.

    A process calls `start` once with its handler, `subscribe`/`unsubscribe` per match it serves,
    and `publish` after each commit. Delivery is best effort and may repeat or reorder seqs;
    readers always read the store after their own cursor, so nothing is lost or doubled.
    """

    async def start(self, handler: MessageHandler) -> None: ...

    async def stop(self) -> None: ...

    async def publish(self, match_id: str, seq: int) -> None: ...

    async def subscribe(self, match_id: str) -> None: ...

    async def unsubscribe(self, match_id: str) -> None: ...


Clock = Callable[[], datetime]
"""Injected time source, so services and tests agree on `now` (`app.service.ports.utcnow`)."""


def utcnow() -> datetime:
    return datetime.now(UTC)


class Notifier(Protocol):
    """Told after every commit that match M is now at seq N (the live hub implements it)."""

    async def notify(self, match_id: str, seq: int) -> None: ...

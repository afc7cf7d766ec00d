"""Builders of the port's records for the store tests, and a picture of what a match holds."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from app.service.ports import (
    Append,
    EventStore,
    IdempotencyRecord,
    MatchRecord,
    MatchStatus,
    MatchUpdate,
    NewEvent,
    NewNotice,
    PlayerRecord,
    SeatRecord,
    SeatWrite,
    Visibility,
)

T0 = datetime(2025, 3, 1, 12, 0, 0, 123456, tzinfo=UTC)
ACTIVE = MatchUpdate(status="active", to_act=(1,))


def new_id(prefix: str = "m") -> str:
    return f"{prefix}-{uuid.uuid4().hex}"


def match_record(
    match_id: str | None = None,
    *,
    game: str = "yutaka",
    players: int = 2,
    status: MatchStatus = "waiting",
    created_at: datetime = T0,
    visibility: Visibility = "public",
    open_seats: int = 0,
    **fields: Any,
) -> MatchRecord:
    return MatchRecord(
        id=match_id or new_id(),
        game=game,
        players=players,
        options={"variant": "standard", "rounds": 3, "nested": {"ok": True, "list": [1, 2]}},
        status=status,
        seq=0,
        created_at=created_at,
        updated_at=created_at,
        secret="s3cr3t",
        commitment="c0ffee",
        to_act=(0,),
        visibility=visibility,
        open_seats=open_seats,
        **fields,
    )


async def new_match(
    store: EventStore,
    players: int = 2,
    *,
    bots: tuple[int, ...] = (),
    seated: Sequence[PlayerRecord | None] = (),
    **fields: Any,
) -> str:
    """Create a match with free seats, except `bots` and the players `seated` (by seat); its id."""
    record = match_record(players=players, **fields)
    seats = []
    for i in range(players):
        p = seated[i] if i < len(seated) else None
        name = "bot" if i in bots else None if p is None else p.name
        token = None if p is None else new_id("token")
        seats.append(SeatRecord(record.id, i, name, token, i in bots, None, None if p is None else p.id))
    await store.create_match(record, seats)
    return record.id


def event(i: int) -> NewEvent:
    return NewEvent("card_played", {"n": i, "name": "Yutakâ ✓", "cards": [1, 2, 3], "x": {"y": None}})


def events(first: int, last: int) -> tuple[NewEvent, ...]:
    return tuple(event(i) for i in range(first, last + 1))


def append(
    match_id: str,
    expected_seq: int,
    evs: tuple[NewEvent, ...] | None = None,
    update: MatchUpdate = ACTIVE,
    at: datetime = T0,
    **fields: Any,
) -> Append:
    evs = events(expected_seq + 1, expected_seq + 1) if evs is None else evs
    return Append(match_id, expected_seq, evs, update, at, **fields)


def idem(match_id: str, key: str = "k1", seat: int = 0, first: int = 1, last: int = 1) -> IdempotencyRecord:
    return IdempotencyRecord(match_id, seat, key, "hash-1", first, last)


def join(
    seat: int, player: PlayerRecord | None = None, token: str | None = None, at: datetime = T0
) -> SeatWrite:
    """A seat taken by `player` (or by an anonymous "Guest") with a fresh token."""
    name = "Guest" if player is None else player.name
    pid = None if player is None else player.id
    return SeatWrite(seat, name, token or new_id("token"), False, at, pid)


def notice(player: PlayerRecord, n: int) -> NewNotice:
    return NewNotice(player.id, "your_turn", {"n": n, "match": "m"})


async def new_player(store: EventStore, name: str = "Ana", created_at: datetime = T0) -> PlayerRecord:
    """A new player named `name` and a unique tag (names are unique in a database, which the
    PostgreSQL tests share)."""
    p = PlayerRecord(new_id("p"), f"{name} {new_id('')[-8:]}", new_id("key"), created_at)
    await store.create_player(p)
    return p


async def contents(
    store: EventStore, match_id: str, players: Sequence[PlayerRecord] = (), key: str = "k1"
) -> Any:
    """Everything an append may write, to compare before and after one that must write nothing."""
    return (
        await store.get_match(match_id),
        await store.read(match_id),
        await store.get_seats(match_id),
        [await store.get_idempotent(match_id, s, key) for s in range(3)],
        [(await store.get_player(p.id), await store.read_notices(p.id)) for p in players],
    )


def later(record: MatchRecord, **changes: Any) -> MatchRecord:
    return dataclasses.replace(record, **changes)

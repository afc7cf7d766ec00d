"""The `EventStore` contract, run against every implementation (see `conftest.store`)."""

from __future__ import annotations

import asyncio
import dataclasses
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta, timezone

import pytest

from app.service.ports import (
    EventStore,
    IdempotencyRecord,
    MatchFilter,
    MatchRecord,
    MatchStatus,
    MatchUpdate,
    NewEvent,
    SeatRecord,
    SeatTaken,
    VersionConflict,
)

T0 = datetime(2025, 3, 1, 12, 0, 0, 123456, tzinfo=UTC)
ACTIVE = MatchUpdate(status="active", to_act=(1,))


def new_id() -> str:
    return f"m-{uuid.uuid4().hex}"


def match_record(
    match_id: str | None = None,
    *,
    game: str = "yutaka",
    players: int = 2,
    status: MatchStatus = "waiting",
    created_at: datetime = T0,
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
    )


async def new_match(
    store: EventStore,
    players: int = 2,
    *,
    bots: tuple[int, ...] = (),
    game: str = "yutaka",
    status: MatchStatus = "waiting",
    created_at: datetime = T0,
) -> str:
    """Create a match with free seats, except `bots`; return its id."""
    record = match_record(game=game, players=players, status=status, created_at=created_at)
    seats = [SeatRecord(record.id, i, "bot" if i in bots else None, bot=i in bots) for i in range(players)]
    await store.create_match(record, seats)
    return record.id


def event(i: int) -> NewEvent:
    return NewEvent("card_played", {"n": i, "name": "Yutakâ ✓", "cards": [1, 2, 3], "x": {"y": None}})


def idem(match_id: str, key: str = "k1", seat: int = 0) -> IdempotencyRecord:
    return IdempotencyRecord(match_id, seat, key, "hash-1", {"seq": 1, "events": [{"type": "x"}]})


# --- matches -------------------------------------------------------------------------------------


async def test_create_and_get_match_round_trips(store: EventStore) -> None:
    record = match_record()
    await store.create_match(record, [SeatRecord(record.id, 0), SeatRecord(record.id, 1)])
    assert await store.get_match(record.id) == record


async def test_unknown_match_is_none(store: EventStore) -> None:
    assert await store.get_match(new_id()) is None
    assert await store.get_seats(new_id()) == []
    assert await store.read(new_id()) == []


async def test_creating_an_existing_match_fails(store: EventStore) -> None:
    record = match_record()
    await store.create_match(record, [SeatRecord(record.id, 0)])
    with pytest.raises(ValueError):
        await store.create_match(record, [SeatRecord(record.id, 0)])


async def test_a_match_is_created_with_its_first_events_at_once(store: EventStore) -> None:
    record = dataclasses.replace(match_record(), seq=2, status="active")
    await store.create_match(
        record, [SeatRecord(record.id, 0), SeatRecord(record.id, 1)], [event(1), event(2)]
    )
    assert await store.get_match(record.id) == record
    stored = await store.read(record.id)
    assert [(e.seq, e.type, dict(e.data)["n"], e.recorded_at) for e in stored] == [
        (1, "card_played", 1, T0),
        (2, "card_played", 2, T0),
    ]
    assert await store.append(record.id, 2, [event(3)], ACTIVE, T0) == 3


async def test_a_refused_creation_writes_no_events(store: EventStore) -> None:
    record = match_record()
    await store.create_match(record, [SeatRecord(record.id, 0)])
    again = dataclasses.replace(record, seq=1)
    with pytest.raises(ValueError):
        await store.create_match(again, [SeatRecord(record.id, 0)], [event(1)])
    assert await store.read(record.id) == []
    with pytest.raises(ValueError):  # seq must count the events
        await store.create_match(match_record(), [], [event(1)])


async def test_list_filters_pages_and_counts(store: EventStore) -> None:
    game = f"g-{uuid.uuid4().hex}"  # other tests' matches share the PostgreSQL database
    ids = []
    statuses: list[MatchStatus] = ["waiting", "active", "waiting", "finished", "waiting"]
    for i, status in enumerate(statuses):
        ids.append(await new_match(store, game=game, status=status, created_at=T0 + timedelta(minutes=i)))
    await new_match(store, game=f"other-{game}", created_at=T0 + timedelta(hours=1))

    page, total = await store.list_matches(MatchFilter(game=game))
    assert [m.id for m in page] == ids[::-1] and total == 5

    page, total = await store.list_matches(MatchFilter(game=game, status="waiting", limit=2))
    assert [m.id for m in page] == [ids[4], ids[2]] and total == 3
    page, total = await store.list_matches(MatchFilter(game=game, status="waiting", limit=2, offset=2))
    assert [m.id for m in page] == [ids[0]] and total == 3
    page, total = await store.list_matches(MatchFilter(game=game, status="waiting", offset=5))
    assert page == [] and total == 3

    page, total = await store.list_matches(MatchFilter(game=game, status="finished"))
    assert [m.id for m in page] == [ids[3]] and total == 1
    assert page[0] == await store.get_match(ids[3])


async def test_list_without_filter_is_newest_first(store: EventStore) -> None:
    _, before = await store.list_matches(MatchFilter(limit=1))
    later = datetime.now(UTC) + timedelta(days=3650)  # newer than anything else in the database
    ids = [await new_match(store, created_at=later + timedelta(seconds=i)) for i in range(3)]
    page, total = await store.list_matches(MatchFilter(limit=3))
    assert [m.id for m in page] == ids[::-1]
    assert total == before + 3


# --- seats ---------------------------------------------------------------------------------------


async def test_seats_come_back_in_order(store: EventStore) -> None:
    match_id = await new_match(store, players=3, bots=(1,))
    assert await store.get_seats(match_id) == [
        SeatRecord(match_id, 0),
        SeatRecord(match_id, 1, name="bot", bot=True),
        SeatRecord(match_id, 2),
    ]


async def test_claim_a_free_seat_once(store: EventStore) -> None:
    match_id = await new_match(store)
    token = f"hash-{uuid.uuid4().hex}"
    await store.claim_seat(match_id, 1, "Ana", token, T0)

    seats = await store.get_seats(match_id)
    assert seats[1] == SeatRecord(match_id, 1, name="Ana", token_hash=token, joined_at=T0)
    assert seats[0] == SeatRecord(match_id, 0)
    with pytest.raises(SeatTaken):
        await store.claim_seat(match_id, 1, "Bea", f"hash-{uuid.uuid4().hex}", T0)
    assert (await store.get_seats(match_id))[1].name == "Ana"


async def test_claim_unknown_or_bot_seat_fails(store: EventStore) -> None:
    match_id = await new_match(store, bots=(0,))
    for m, seat in [(match_id, 0), (match_id, 2), (match_id, -1), (new_id(), 0)]:
        with pytest.raises(SeatTaken):
            await store.claim_seat(m, seat, "Ana", f"hash-{uuid.uuid4().hex}", T0)


async def test_concurrent_claims_of_one_seat_one_wins(store: EventStore) -> None:
    match_id = await new_match(store)
    results = await asyncio.gather(
        *(store.claim_seat(match_id, 0, f"p{i}", f"hash-{uuid.uuid4().hex}", T0) for i in range(10)),
        return_exceptions=True,
    )
    assert sum(r is None for r in results) == 1
    assert all(r is None or isinstance(r, SeatTaken) for r in results)


async def test_seat_by_token(store: EventStore) -> None:
    match_id = await new_match(store)
    token = f"hash-{uuid.uuid4().hex}"
    await store.claim_seat(match_id, 1, "Ana", token, T0)
    assert await store.seat_by_token(token) == SeatRecord(match_id, 1, "Ana", token, False, T0)
    assert await store.seat_by_token(f"hash-{uuid.uuid4().hex}") is None


# --- append and read -----------------------------------------------------------------------------


async def test_append_returns_the_new_seq_and_numbers_events_without_gaps(store: EventStore) -> None:
    match_id = await new_match(store)
    t1, t2 = T0 + timedelta(seconds=1), T0 + timedelta(seconds=2)
    assert await store.append(match_id, 0, [event(1)], ACTIVE, t1) == 1
    finished = MatchUpdate(status="finished", to_act=(), scores=(3, 5), winners=(1,))
    assert await store.append(match_id, 1, [event(2), event(3), event(4)], finished, t2) == 4

    stored = await store.read(match_id)
    assert [e.seq for e in stored] == [1, 2, 3, 4]
    assert [(e.match_id, e.type, e.data) for e in stored] == [
        (match_id, "card_played", event(i).data) for i in range(1, 5)
    ]
    assert [e.recorded_at for e in stored] == [t1, t2, t2, t2]

    match = await store.get_match(match_id)
    assert match is not None
    assert (match.seq, match.status, match.to_act, match.scores, match.winners) == (
        4,
        "finished",
        (),
        (3, 5),
        (1,),
    )
    assert (match.created_at, match.updated_at) == (T0, t2)


async def test_append_without_events_only_updates_the_projection(store: EventStore) -> None:
    match_id = await new_match(store)
    assert await store.append(match_id, 0, [], ACTIVE, T0) == 0
    match = await store.get_match(match_id)
    assert match is not None and (match.seq, match.status, match.to_act) == (0, "active", (1,))
    assert await store.read(match_id) == []


async def test_append_to_an_unknown_match_fails(store: EventStore) -> None:
    with pytest.raises(KeyError):
        await store.append(new_id(), 0, [event(1)], ACTIVE, T0)


async def _assert_untouched(store: EventStore, match_id: str, seq: int, key: str) -> None:
    assert [e.seq for e in await store.read(match_id)] == list(range(1, seq + 1))
    match = await store.get_match(match_id)
    assert match is not None and (match.seq, match.status, match.updated_at) == (seq, "active", T0)
    assert await store.get_idempotent(match_id, 0, key) is None


async def test_stale_append_conflicts_and_writes_nothing(store: EventStore) -> None:
    match_id = await new_match(store)
    assert await store.append(match_id, 0, [event(1), event(2)], ACTIVE, T0) == 2

    later = T0 + timedelta(minutes=1)
    finished = MatchUpdate(status="finished", to_act=(), scores=(1, 0), winners=(0,))
    for stale in (0, 1, 3):
        with pytest.raises(VersionConflict) as info:
            await store.append(match_id, stale, [event(9)], finished, later, idem(match_id, "late"))
        assert (info.value.match_id, info.value.expected_seq, info.value.actual_seq) == (match_id, stale, 2)
    await _assert_untouched(store, match_id, 2, "late")


async def test_reused_idempotency_key_conflicts_and_writes_nothing(store: EventStore) -> None:
    match_id = await new_match(store)
    assert await store.append(match_id, 0, [event(1)], ACTIVE, T0, idem(match_id, "k")) == 1
    with pytest.raises(VersionConflict):
        await store.append(match_id, 1, [event(2)], ACTIVE, T0 + timedelta(minutes=1), idem(match_id, "k"))
    await _assert_untouched(store, match_id, 1, "other")
    assert await store.get_idempotent(match_id, 0, "k") == idem(match_id, "k")


async def test_idempotency_record_is_stored_with_the_append(store: EventStore) -> None:
    match_id = await new_match(store)
    record = idem(match_id, "abc", seat=1)
    assert await store.get_idempotent(match_id, 1, "abc") is None
    await store.append(match_id, 0, [event(1)], ACTIVE, T0, record)
    assert await store.get_idempotent(match_id, 1, "abc") == record
    assert await store.get_idempotent(match_id, 0, "abc") is None
    assert await store.get_idempotent(match_id, 1, "abd") is None
    assert await store.get_idempotent(new_id(), 1, "abc") is None


async def test_read_after_and_limit(store: EventStore) -> None:
    match_id = await new_match(store)
    await store.append(match_id, 0, [event(i) for i in range(1, 6)], ACTIVE, T0)

    async def seqs(after: int = 0, limit: int | None = None) -> list[int]:
        return [e.seq for e in await store.read(match_id, after, limit)]

    assert await seqs() == [1, 2, 3, 4, 5]
    assert await seqs(after=2) == [3, 4, 5]
    assert await seqs(after=1, limit=2) == [2, 3]
    assert await seqs(after=4, limit=10) == [5]
    assert await seqs(after=5) == []
    assert await seqs(after=9) == []
    assert await seqs(limit=0) == []


async def test_times_come_back_timezone_aware(store: EventStore) -> None:
    plus2 = timezone(timedelta(hours=2))
    created = datetime(2025, 6, 1, 14, 30, 0, 5, tzinfo=plus2)
    record = match_record(created_at=created)
    await store.create_match(record, [SeatRecord(record.id, 0), SeatRecord(record.id, 1)])
    await store.claim_seat(record.id, 0, "Ana", f"hash-{uuid.uuid4().hex}", created)
    await store.append(record.id, 0, [event(1)], ACTIVE, created)

    match = await store.get_match(record.id)
    assert match is not None
    (stored,) = await store.read(record.id)
    joined = (await store.get_seats(record.id))[0].joined_at
    for t in (match.created_at, match.updated_at, stored.recorded_at, joined):
        assert t is not None and t.tzinfo is not None and t == created


# --- concurrency ---------------------------------------------------------------------------------


async def test_concurrent_appends_at_one_seq_one_wins(store: EventStore) -> None:
    match_id = await new_match(store)
    results = await asyncio.gather(
        *(store.append(match_id, 0, [event(i)], ACTIVE, T0) for i in range(20)), return_exceptions=True
    )
    assert results.count(1) == 1
    assert all(r == 1 or isinstance(r, VersionConflict) for r in results)
    (stored,) = await store.read(match_id)
    assert stored.data == event(results.index(1)).data


async def test_concurrent_writers_retrying_on_conflict_leave_no_gaps(store: EventStore) -> None:
    match_id = await new_match(store)
    writers, per_writer = 8, 10
    conflicts = 0

    async def writer(w: int) -> None:
        nonlocal conflicts
        for i in range(per_writer):
            while True:
                match = await store.get_match(match_id)
                assert match is not None
                try:
                    await store.append(match_id, match.seq, [NewEvent("e", {"w": w, "i": i})], ACTIVE, T0)
                    break
                except VersionConflict:
                    conflicts += 1
                    await asyncio.sleep(0)

    await asyncio.gather(*(writer(w) for w in range(writers)))

    stored = await store.read(match_id)
    assert [e.seq for e in stored] == list(range(1, writers * per_writer + 1))
    written = Counter((e.data["w"], e.data["i"]) for e in stored)
    assert set(written.values()) == {1} and len(written) == writers * per_writer
    match = await store.get_match(match_id)
    assert match is not None and match.seq == writers * per_writer

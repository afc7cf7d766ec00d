"""The `EventStore` contract, run against every implementation (see `conftest.store`): matches,
seats, appends (all or nothing), reads, commits, idempotency. Concurrency:
`test_contract_concurrency.py`; players, notices and the lobby: `test_contract_players.py`;
sweepers, pruning and snapshots: `test_contract_sweeps.py`.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta, timezone

import pytest

from app.service.ports import AppendResult, EventStore, MatchUpdate, SeatRecord, VersionConflict

from .records import (
    ACTIVE,
    T0,
    append,
    contents,
    event,
    events,
    idem,
    join,
    match_record,
    new_id,
    new_match,
    new_player,
    notice,
)

BIG = 2**62

# --- matches -------------------------------------------------------------------------------------


async def test_create_and_get_match_round_trips_every_column(store: EventStore) -> None:
    deadline = T0 + timedelta(minutes=5)
    record = match_record(
        settings={"clock": {"turn_seconds": 60}, "drafts": True},
        visibility="unlisted",
        host_token_hash=new_id("host"),
        invite_hash=new_id("invite"),
        deadline_at=deadline,
        open_seats=2,
        bot_due=True,
        scores=(1, 2),
        winners=(0,),
    )
    await store.create_match(record, [SeatRecord(record.id, 0), SeatRecord(record.id, 1)])
    assert await store.get_match(record.id) == record


async def test_unknown_match_is_empty(store: EventStore) -> None:
    unknown = new_id()
    assert await store.get_match(unknown) is None
    assert await store.get_seats(unknown) == []
    assert await store.read(unknown) == []
    assert await store.get_idempotent(unknown, 0, "k") is None
    assert await store.get_snapshot(unknown) is None
    assert await store.seat_by_token(new_id("token")) is None


async def test_creating_an_existing_match_fails_and_writes_nothing(store: EventStore) -> None:
    record = match_record()
    await store.create_match(record, [SeatRecord(record.id, 0)])
    again = dataclasses.replace(record, seq=1, game="other")
    with pytest.raises(ValueError):
        await store.create_match(again, [SeatRecord(record.id, 0, "Bea", new_id("token"))], [event(1)])
    assert await store.get_match(record.id) == record
    assert await store.read(record.id) == []
    assert await store.get_seats(record.id) == [SeatRecord(record.id, 0)]
    with pytest.raises(ValueError):  # seq must count the events
        await store.create_match(match_record(), [], [event(1)])


async def test_a_match_is_created_with_its_first_events_as_one_commit(store: EventStore) -> None:
    record = dataclasses.replace(match_record(), seq=2, status="active")
    await store.create_match(
        record, [SeatRecord(record.id, 0), SeatRecord(record.id, 1)], [event(1), event(2)]
    )
    assert await store.get_match(record.id) == record
    stored = await store.read(record.id)
    assert [(e.seq, e.commit, e.type, e.data, e.recorded_at) for e in stored] == [
        (1, 2, "card_played", event(1).data, T0),
        (2, 2, "card_played", event(2).data, T0),
    ]
    assert (await store.append(append(record.id, 2))).seq == 3


async def test_creation_refuses_a_token_in_use_and_a_player_seated_twice(store: EventStore) -> None:
    ana = await new_player(store)
    first = await new_match(store, seated=[ana])
    token = (await store.get_seats(first))[0].token_hash
    refused = (
        [(0, "Ana", token, None)],  # a token of another match
        [(0, "Ana", None, ana.id), (1, "Ana", None, ana.id)],  # one player, two seats
        [(0, "Zed", None, new_id("p"))],  # an unknown player
    )
    for seats in refused:
        record = match_record()
        rows = [SeatRecord(record.id, seat, name, tok, player_id=pid) for seat, name, tok, pid in seats]
        with pytest.raises(ValueError):
            await store.create_match(record, rows)
        assert await store.get_match(record.id) is None
        assert await store.get_seats(record.id) == []


async def test_seats_come_back_in_order_and_by_token(store: EventStore) -> None:
    ana = await new_player(store)
    match_id = await new_match(store, players=3, bots=(1,), seated=[ana])
    seats = await store.get_seats(match_id)
    assert seats[1:] == [SeatRecord(match_id, 1, name="bot", bot=True), SeatRecord(match_id, 2)]
    assert (seats[0].name, seats[0].player_id, seats[0].bot) == (ana.name, ana.id, False)
    assert seats[0].token_hash is not None
    assert await store.seat_by_token(seats[0].token_hash) == seats[0]


# --- append and read -----------------------------------------------------------------------------


async def test_append_numbers_events_without_gaps_and_marks_their_commit(store: EventStore) -> None:
    match_id = await new_match(store)
    t1, t2 = T0 + timedelta(seconds=1), T0 + timedelta(seconds=2)
    assert await store.append(append(match_id, 0, at=t1)) == AppendResult(1)
    deadline = T0 + timedelta(hours=1)
    finished = MatchUpdate("finished", (), (3, 5), (1,), deadline_at=deadline, open_seats=1, bot_due=True)
    assert await store.append(append(match_id, 1, events(2, 4), finished, t2)) == AppendResult(4)

    stored = await store.read(match_id)
    assert [(e.seq, e.commit, e.recorded_at) for e in stored] == [
        (1, 1, t1),
        (2, 4, t2),
        (3, 4, t2),
        (4, 4, t2),
    ]
    assert [(e.match_id, e.type, e.data) for e in stored] == [
        (match_id, "card_played", event(i).data) for i in range(1, 5)
    ]
    match = await store.get_match(match_id)
    assert match is not None
    assert (match.seq, match.status, match.to_act, match.scores, match.winners) == (
        4,
        "finished",
        (),
        (3, 5),
        (1,),
    )
    assert (match.deadline_at, match.open_seats, match.bot_due) == (deadline, 1, True)
    assert (match.created_at, match.updated_at) == (T0, t2)


async def test_append_without_events_only_updates_the_projection(store: EventStore) -> None:
    match_id = await new_match(store)
    assert (await store.append(append(match_id, 0, ()))).seq == 0
    match = await store.get_match(match_id)
    assert match is not None and (match.seq, match.status, match.to_act) == (0, "active", (1,))
    assert await store.read(match_id) == []


async def test_append_to_an_unknown_match_fails(store: EventStore) -> None:
    with pytest.raises(KeyError):
        await store.append(append(new_id(), 0))


async def test_a_stale_append_conflicts_and_writes_nothing(store: EventStore) -> None:
    ana = await new_player(store)
    match_id = await new_match(store)
    await store.append(append(match_id, 0, events(1, 2)))
    before = await contents(store, match_id, [ana], "late")
    finished = MatchUpdate(status="finished", to_act=(), scores=(1, 0), winners=(0,))
    for stale in (0, 1, 3, BIG):
        late = append(
            *(match_id, stale, (event(9),), finished, T0 + timedelta(minutes=1)),
            idempotency=idem(match_id, "late"),
            seats=(join(1, ana),),
            notices=(notice(ana, 1),),
        )
        with pytest.raises(VersionConflict) as info:
            await store.append(late)
        assert (info.value.match_id, info.value.expected_seq, info.value.actual_seq) == (match_id, stale, 2)
    assert await contents(store, match_id, [ana], "late") == before


async def test_a_reused_idempotency_key_conflicts_and_writes_nothing(store: EventStore) -> None:
    ana = await new_player(store)
    match_id = await new_match(store)
    await store.append(append(match_id, 0, idempotency=idem(match_id, "k")))
    before = await contents(store, match_id, [ana], "k")
    again = append(match_id, 1, idempotency=idem(match_id, "k", first=2, last=2), notices=(notice(ana, 1),))
    with pytest.raises(VersionConflict):
        await store.append(again)
    assert await contents(store, match_id, [ana], "k") == before
    assert await store.get_idempotent(match_id, 0, "k") == idem(match_id, "k")


async def test_the_idempotency_record_is_stored_with_the_append(store: EventStore) -> None:
    match_id = await new_match(store)
    record = idem(match_id, "abc", seat=1, first=1, last=3)
    assert await store.get_idempotent(match_id, 1, "abc") is None
    await store.append(append(match_id, 0, events(1, 3), idempotency=record))
    assert await store.get_idempotent(match_id, 1, "abc") == record
    assert await store.get_idempotent(match_id, 0, "abc") is None
    assert await store.get_idempotent(match_id, 1, "abd") is None
    assert await store.get_idempotent(new_id(), 1, "abc") is None
    with pytest.raises(KeyError):  # a key of a seat the match does not have
        await store.append(append(match_id, 3, idempotency=idem(match_id, "x", seat=7)))


async def test_seats_are_written_with_the_append(store: EventStore) -> None:
    ana = await new_player(store)
    match_id = await new_match(store, players=3)
    took = join(0, ana)
    bot = dataclasses.replace(join(2), name="bot", token_hash=None, bot=True, bot_level="strong")
    await store.append(append(match_id, 0, seats=(took, join(1), bot)))
    seats = await store.get_seats(match_id)
    assert seats[0] == SeatRecord(match_id, 0, ana.name, took.token_hash, False, T0, ana.id)
    assert seats[2] == SeatRecord(match_id, 2, "bot", None, True, T0, None, "strong")
    assert took.token_hash is not None and await store.seat_by_token(took.token_hash) == seats[0]


async def test_a_rewritten_seat_is_found_by_its_new_token_and_frees_the_old(store: EventStore) -> None:
    match_id, other = await new_match(store), await new_match(store)
    first = join(0)
    await store.append(append(match_id, 0, seats=(first,)))
    renewed = dataclasses.replace(first, token_hash=new_id("token"))
    await store.append(append(match_id, 1, seats=(renewed,)))  # a new token for the same seat
    assert first.token_hash is not None and renewed.token_hash is not None
    assert await store.seat_by_token(first.token_hash) is None
    assert (await store.seat_by_token(renewed.token_hash)) == (await store.get_seats(match_id))[0]
    await store.append(append(other, 0, seats=(join(1, token=first.token_hash),)))  # free again
    found = await store.seat_by_token(first.token_hash)
    assert found is not None and (found.match_id, found.seat) == (other, 1)
    with pytest.raises(VersionConflict):  # still held by the first match
        await store.append(append(other, 1, seats=(join(0, token=renewed.token_hash),)))


async def test_seat_conflicts_write_nothing(store: EventStore) -> None:
    ana, bea = await new_player(store), await new_player(store, "Bea")
    other = await new_match(store, seated=[bea])
    taken = (await store.get_seats(other))[0].token_hash
    match_id = await new_match(store, players=3, seated=[ana])
    before = await contents(store, match_id, [ana, bea])
    for seats in (
        (join(1, ana),),  # a player's second seat in a match
        (join(1, None, token=taken),),  # a token hash in use
        (join(1, bea), join(2, bea)),
    ):
        with pytest.raises(VersionConflict):
            await store.append(
                append(match_id, 0, seats=seats, notices=(notice(bea, 1),), idempotency=idem(match_id))
            )
        assert await contents(store, match_id, [ana, bea]) == before
    stranger = dataclasses.replace(ana, id=new_id("p"))
    for seats in ((join(5, bea),), (join(1, stranger),)):  # no such seat; no such player
        with pytest.raises(KeyError):
            await store.append(append(match_id, 0, seats=seats, notices=(notice(bea, 1),)))
        assert await contents(store, match_id, [ana, bea]) == before


async def test_read_after_and_limit_up_to_64_bits(store: EventStore) -> None:
    match_id = await new_match(store)
    await store.append(append(match_id, 0, events(1, 5)))

    async def seqs(after: int = 0, limit: int | None = None) -> list[int]:
        return [e.seq for e in await store.read(match_id, after, limit)]

    assert await seqs() == [1, 2, 3, 4, 5]
    assert await seqs(after=2) == [3, 4, 5]
    assert await seqs(after=1, limit=2) == [2, 3]
    assert await seqs(after=4, limit=10) == [5]
    assert await seqs(after=5) == await seqs(after=9) == await seqs(limit=0) == []
    assert await seqs(after=2**31) == await seqs(after=BIG) == await seqs(after=BIG, limit=BIG) == []
    assert await seqs(limit=BIG) == await seqs(after=0, limit=2**63 - 1) == [1, 2, 3, 4, 5]


async def test_times_come_back_timezone_aware_and_equal(store: EventStore) -> None:
    plus2 = timezone(timedelta(hours=2))
    created = datetime(2025, 6, 1, 14, 30, 0, 5, tzinfo=plus2)
    ana = await new_player(store, created_at=created)
    record = match_record(created_at=created, deadline_at=created)
    await store.create_match(record, [SeatRecord(record.id, 0), SeatRecord(record.id, 1)])
    update = dataclasses.replace(ACTIVE, deadline_at=created)
    await store.append(append(record.id, 0, update=update, at=created, seats=(join(0, ana, at=created),),
                              notices=(notice(ana, 1),)))  # fmt: skip
    match, player = await store.get_match(record.id), await store.get_player(ana.id)
    assert match is not None and player is not None
    (stored,) = await store.read(record.id)
    (noticed,) = await store.read_notices(ana.id)
    joined = (await store.get_seats(record.id))[0].joined_at
    times = (match.created_at, match.updated_at, match.deadline_at, stored.recorded_at, joined)
    for t in (*times, noticed.recorded_at, player.created_at):
        assert t is not None and t.utcoffset() is not None and t == created

"""The `EventStore` contract, continued: what the sweepers ask (deadlines due, bots stalled),
pruning idempotency keys, and snapshots (the newer one wins).

These queries span every match in the database, and the PostgreSQL one is shared by the whole
run: each test works in a year of its own, long before any other test's times.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.service.ports import EventStore, MatchUpdate, Snapshot

from .records import append, idem, new_id, new_match

BIG = 2**62


async def test_due_matches_are_live_ones_whose_deadline_passed_earliest_first(store: EventStore) -> None:
    t = datetime(1971, 1, 1, tzinfo=UTC)
    late = await new_match(store, deadline_at=t + timedelta(minutes=3))
    early = await new_match(store, deadline_at=t + timedelta(minutes=1), status="active")
    tie_a, tie_b = sorted([new_id(), new_id()])
    for match_id in (tie_b, tie_a):
        await new_match(store, match_id=match_id, deadline_at=t + timedelta(minutes=2))
    await new_match(store, deadline_at=t + timedelta(days=1))  # not due yet
    await new_match(store, deadline_at=t, status="finished")
    await new_match(store, deadline_at=t, status="aborted")

    assert await store.due_matches(t + timedelta(minutes=3), 10) == [early, tie_a, tie_b, late]
    assert await store.due_matches(t + timedelta(minutes=2), 2) == [early, tie_a]
    assert await store.due_matches(t, 10) == []
    # An append moves the deadline, or clears it.
    await store.append(append(early, 0, update=MatchUpdate("active", (0,), deadline_at=None)))
    await store.append(
        append(late, 0, update=MatchUpdate("active", (0,), deadline_at=t + timedelta(hours=2)))
    )
    assert await store.due_matches(t + timedelta(hours=3), 10) == [tie_a, tie_b, late]


async def test_stalled_bots_are_active_matches_owing_a_move_longest_waiting_first(store: EventStore) -> None:
    t = datetime(1972, 1, 1, tzinfo=UTC)
    ids = [await new_match(store, created_at=t) for _ in range(5)]
    due = MatchUpdate("active", (1,), bot_due=True)
    for minutes, i in ((3, 0), (1, 1), (2, 2)):
        await store.append(append(ids[i], 0, update=due, at=t + timedelta(minutes=minutes)))
    await store.append(append(ids[3], 0, update=MatchUpdate("active", (1,)), at=t))  # no bot owes anything
    await store.append(append(ids[4], 0, update=MatchUpdate("finished", (), bot_due=True), at=t))

    assert await store.stalled_bots(t + timedelta(minutes=3), 10) == [ids[1], ids[2], ids[0]]
    assert await store.stalled_bots(t + timedelta(minutes=2), 10) == [ids[1], ids[2]]
    assert await store.stalled_bots(t + timedelta(minutes=3), 1) == [ids[1]]
    assert await store.stalled_bots(t, 10) == []


async def test_prune_forgets_idempotency_keys_recorded_before_a_time(store: EventStore) -> None:
    t = datetime(1973, 1, 1, tzinfo=UTC)
    old, new = await new_match(store), await new_match(store)
    await store.append(append(old, 0, at=t, idempotency=idem(old, "a")))
    await store.append(
        append(old, 1, at=t + timedelta(seconds=1), idempotency=idem(old, "b", first=2, last=2))
    )
    await store.append(append(new, 0, at=t + timedelta(hours=1), idempotency=idem(new, "a")))

    assert await store.prune_idempotency(t) == 0
    assert await store.prune_idempotency(t + timedelta(minutes=1)) == 2
    assert await store.get_idempotent(old, 0, "a") is None and await store.get_idempotent(old, 0, "b") is None
    assert await store.get_idempotent(new, 0, "a") == idem(new, "a")
    assert len(await store.read(old)) == 2  # only the keys go


async def test_snapshots_keep_the_newest(store: EventStore) -> None:
    match_id = await new_match(store)
    assert await store.get_snapshot(match_id) is None
    first = Snapshot(match_id, 10, "v1", b"\x00state at 10\xff")
    await store.put_snapshot(first)
    assert await store.get_snapshot(match_id) == first
    await store.put_snapshot(Snapshot(match_id, 9, "v1", b"older"))
    assert await store.get_snapshot(match_id) == first
    again = Snapshot(match_id, 10, "v2", b"same seq, newer code")
    await store.put_snapshot(again)
    assert await store.get_snapshot(match_id) == again
    huge = Snapshot(match_id, BIG, "v2", bytes(range(256)) * 64)
    await store.put_snapshot(huge)
    assert await store.get_snapshot(match_id) == huge
    with pytest.raises(KeyError):
        await store.put_snapshot(Snapshot(new_id(), 1, "v1", b"x"))

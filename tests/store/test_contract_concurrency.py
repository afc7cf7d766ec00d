"""The `EventStore` contract, continued: concurrent appends. On the SQL stores appends that arrive
together are committed together (group commit); none of that may show: one winner per seq, no
gaps, each commit whole and in order, and a failing append fails alone."""

from __future__ import annotations

import asyncio
from collections import Counter

from app.service.ports import AppendResult, EventStore, NewEvent, VersionConflict

from .records import append, event, events, idem, join, new_id, new_match

# --- concurrency ---------------------------------------------------------------------------------


async def test_concurrent_appends_at_one_seq_one_wins(store: EventStore) -> None:
    match_id = await new_match(store)
    results = await asyncio.gather(*(store.append(append(match_id, 0, (event(i),))) for i in range(20)),
                                   return_exceptions=True)  # fmt: skip
    assert [isinstance(r, AppendResult) for r in results].count(True) == 1
    assert all(isinstance(r, AppendResult | VersionConflict) for r in results)
    (stored,) = await store.read(match_id)
    winner = next(i for i, r in enumerate(results) if isinstance(r, AppendResult))
    assert stored.data == event(winner).data


async def test_concurrent_writers_retrying_on_conflict_leave_no_gaps(store: EventStore) -> None:
    match_id = await new_match(store)
    writers, per_writer = 8, 10

    async def writer(w: int) -> None:
        for i in range(per_writer):
            while True:
                match = await store.get_match(match_id)
                assert match is not None
                try:
                    await store.append(append(match_id, match.seq, (NewEvent("e", {"w": w, "i": i}),)))
                    break
                except VersionConflict:
                    await asyncio.sleep(0)

    await asyncio.gather(*(writer(w) for w in range(writers)))
    stored = await store.read(match_id)
    assert [e.seq for e in stored] == [e.commit for e in stored] == list(range(1, writers * per_writer + 1))
    written = Counter((e.data["w"], e.data["i"]) for e in stored)
    assert set(written.values()) == {1} and len(written) == writers * per_writer


async def test_concurrent_appends_to_many_matches_each_commit_whole_and_in_order(store: EventStore) -> None:
    matches = [await new_match(store) for _ in range(16)]

    async def play(match_id: str, turns: int = 6) -> None:
        seq = 0
        for t in range(turns):
            size = 1 + t % 3
            seq = (await store.append(append(match_id, seq, events(seq + 1, seq + size)))).seq

    await asyncio.gather(*(play(m) for m in matches))
    for match_id in matches:
        stored = await store.read(match_id)
        assert [e.seq for e in stored] == list(range(1, 13))
        assert [e.commit for e in stored] == [1, 3, 3, 6, 6, 6, 7, 9, 9, 12, 12, 12]
        assert [e.data["n"] for e in stored] == list(range(1, 13))


async def test_a_failing_append_among_concurrent_ones_fails_alone(store: EventStore) -> None:
    holder, held = await new_match(store), new_id("token")
    await store.append(append(holder, 0, seats=(join(0, token=held),)))
    matches = [await new_match(store) for _ in range(12)]
    doomed = {3: append(matches[3], 0, seats=(join(0, token=held),)),  # a token hash in use
              7: append(matches[7], 5),  # a stale seq
              9: append(new_id(), 0)}  # fmt: skip
    batch = [doomed.get(i, append(m, 0, idempotency=idem(m))) for i, m in enumerate(matches)]
    results = await asyncio.gather(*(store.append(a) for a in batch), return_exceptions=True)
    assert [type(r).__name__ for r in results] == [
        {3: "VersionConflict", 7: "VersionConflict", 9: "KeyError"}.get(i, "AppendResult") for i in range(12)
    ]
    for i, match_id in enumerate(matches):
        assert len(await store.read(match_id)) == (0 if i in doomed else 1)
        assert (await store.get_idempotent(match_id, 0, "k1") is None) == (i in doomed)


async def test_ping_and_close(store: EventStore) -> None:
    await store.ping()
    await store.close()  # closing twice is harmless (the fixture closes again)

"""Replays (`?at=`) fold from the nearest state known before them — a kept one, the stored
snapshot, else the start — and equal a fold from the start; cold loads start from the snapshot."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest

from app.matches.fold import Match, fold
from app.matches.views import view_of
from app.service import errors, loading, reading, replays, snapshots
from app.service.context import Context
from app.service.ports import Snapshot, StoredEvent
from app.service.replays import Replays
from app.store.memory import MemoryEventStore
from tests.service.helpers import play_randomly, seated
from tests.service.toy_game import GAMES


@pytest.fixture
def folded(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of events of each fold the loader runs from now on."""
    counts: list[int] = []

    def counting(base: Match, events: Iterable[StoredEvent]) -> Match:
        events = list(events)
        counts.append(len(events))
        return fold(base, events)

    monkeypatch.setattr(loading, "fold", counting)
    return counts


@pytest.fixture(autouse=True)
def short_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A state kept every 3 events, so that toy matches have several."""
    monkeypatch.setattr(replays, "EVERY", 3)


async def played(ctx: Context, seed: int) -> tuple[str, list[Any], list[StoredEvent]]:
    match_id, callers = await seated(ctx)
    await play_randomly(ctx, match_id, callers, random.Random(seed))
    return match_id, callers, await ctx.store.read(match_id)


def boundaries(events: list[StoredEvent]) -> list[int]:
    """The seqs that end a commit, but the last (a replay there is the state held now)."""
    return [e.seq for e in events if e.seq == e.commit][:-1]


async def from_start(ctx: Context, match_id: str, events: list[StoredEvent], seq: int) -> Match:
    record = await ctx.loader.record(match_id)
    return fold(ctx.loader.empty(record, ()), events[:seq])


@pytest.mark.parametrize("seed", range(4))
async def test_replays_in_any_order_equal_a_fold_from_the_start(ctx: Context, seed: int) -> None:
    match_id, callers, events = await played(ctx, seed)
    seqs = boundaries(events) * 2
    random.Random(seed).shuffle(seqs)
    for seq in seqs:
        expected = await from_start(ctx, match_id, events, seq)
        for caller, seat in ((callers[0], 0), (callers[1], 1), (None, None)):
            view = await reading.get_view(ctx, match_id, caller, at=seq)
            assert view.to_json() == view_of(expected, seat).to_json()


async def test_stepping_through_a_match_folds_each_event_once(ctx: Context, folded: list[int]) -> None:
    match_id, callers, events = await played(ctx, 1)
    seqs = boundaries(events)
    folded.clear()
    for seq in seqs:  # forwards: each replay folds on from the one before
        await reading.get_view(ctx, match_id, callers[0], at=seq)
    assert sum(folded) == seqs[-1]
    for seq in reversed(seqs):  # backwards: every state is kept
        await reading.get_view(ctx, match_id, callers[1], at=seq)
    assert sum(folded) == seqs[-1]


async def test_a_replay_folds_from_the_nearest_kept_state(ctx: Context, folded: list[int]) -> None:
    match_id, callers, events = await played(ctx, 2)
    seqs = boundaries(events)
    await reading.get_view(ctx, match_id, callers[0], at=seqs[-1])  # keeps a state every 3 events
    longest = max(e.commit - e.seq + 1 for e in events)
    for seq in seqs:
        folded.clear()
        await reading.get_view(ctx, match_id, None, at=seq)
        assert sum(folded) <= replays.EVERY + longest


async def test_no_state_inside_a_commit_is_kept(ctx: Context) -> None:
    match_id, callers, events = await played(ctx, 3)
    inside = [e.seq for e in events if e.seq < e.commit]
    for seq in inside:
        with pytest.raises(errors.ValidationFailed):
            await reading.get_view(ctx, match_id, callers[0], at=seq)
    for seq in inside:
        kept = ctx.loader.replays.nearest(match_id, seq)
        assert kept is None or kept.seq < seq


async def test_a_replay_starts_from_the_stored_snapshot_before_it(
    ctx: Context, store: MemoryEventStore, folded: list[int]
) -> None:
    match_id, _, events = await played(ctx, 4)
    seqs = boundaries(events)
    early, late = seqs[1], seqs[-1]
    await store.put_snapshot(snapshots.dump(await from_start(ctx, match_id, events, early)))
    ctx.loader.replays = Replays()  # nothing kept: a process that never replayed this match
    folded.clear()
    past = await reading.get_view(ctx, match_id, None, at=late)
    assert sum(folded) == late - early
    assert past.to_json() == view_of(await from_start(ctx, match_id, events, late), None).to_json()


async def test_a_snapshot_after_the_replay_or_of_other_code_is_not_used(
    ctx: Context, store: MemoryEventStore, folded: list[int]
) -> None:
    match_id, _, events = await played(ctx, 5)
    seqs = boundaries(events)
    later = snapshots.dump(await from_start(ctx, match_id, events, seqs[-1]))
    await store.put_snapshot(later)
    ctx.loader.replays = Replays()
    folded.clear()
    await reading.get_view(ctx, match_id, None, at=seqs[-2])
    assert sum(folded) == seqs[-2]  # from the start
    other = Snapshot(match_id, seqs[-1] + 1, "other code", later.data)
    await store.put_snapshot(other)
    ctx.loader.replays = Replays()
    folded.clear()
    await reading.get_view(ctx, match_id, None, at=seqs[-1])
    assert sum(folded) == seqs[-1]


async def test_a_cold_load_starts_from_the_snapshot_and_equals_the_fold(
    ctx: Context, store: MemoryEventStore, folded: list[int]
) -> None:
    match_id, _, events = await played(ctx, 6)
    seqs = boundaries(events)
    middle = seqs[len(seqs) // 2]
    await store.put_snapshot(snapshots.dump(await from_start(ctx, match_id, events, middle)))
    other = Context(store, GAMES)  # another process: it does not hold the match
    folded.clear()
    loaded = await other.loader.load(match_id)
    assert folded == [len(events) - middle]
    expected = await from_start(ctx, match_id, events, len(events))
    assert loaded.match.seq == expected.seq and loaded.match.state == expected.state
    for seat in (0, 1, None):
        assert view_of(loaded.match, seat).to_json() == view_of(expected, seat).to_json()


def test_kept_states_are_bounded_and_the_least_recently_used_go_first() -> None:
    kept = Replays(capacity=3)
    states = {seq: _state("m", seq) for seq in (4, 8, 12)}
    for state in states.values():
        kept.keep(state)
    assert kept.nearest("m", 10) is states[8] and kept.nearest("m", 3) is None
    assert kept.nearest("m", 99) is states[12] and kept.nearest("other", 99) is None
    kept.keep(_state("n", 5))  # drops the least recently used: seq 4 (8 and 12 were just used)
    assert len(kept) == 3
    assert kept.nearest("m", 7) is None and kept.nearest("m", 8) is states[8]
    for seq in range(20, 40):
        kept.keep(_state("p", seq))
    assert len(kept) == 3 and kept.nearest("m", 99) is None and kept.nearest("n", 9) is None


def _state(match_id: str, seq: int) -> Any:
    """A stand-in for a match state: `Replays` reads only its id and seq."""
    return type("State", (), {"match_id": match_id, "seq": seq})()

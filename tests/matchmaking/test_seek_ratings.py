"""Ratings in matchmaking, on memory, SQLite and PostgreSQL (a database of the test's own: the
ratings of the built-in bots are shared by a whole database): a seek's `rating_range` against the
other seekers' displayed ratings (a player with none has a newcomer's, 0), `rated` in the key, the
range kept through the store, and the bot level closest to the group's rating (ties: the weaker)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from app.service.auth import Caller
from app.service.matcher import closest_level, match_once
from app.service.ratings import bot_player_id, ordinal
from app.service.seeks import Matchmaking, SeekRequest, create_seek
from app.store.migrate import upgrade
from tests.matchmaking.conftest import SIGMA, FakeClock, matchmaking, new_player, plant


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def own_url(request: pytest.FixtureRequest) -> str | None:
    """A migrated database of the test's own (synchronous: migrating runs its own event loop)."""
    if request.param == "memory":
        return None
    url = str(request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "fresh_postgres_url"))
    upgrade(url)
    return url


@pytest.fixture
async def own(own_url: str | None, clock: FakeClock) -> AsyncIterator[Matchmaking]:
    """Matchmaking over a database of the test's own."""
    m = matchmaking(own_url, clock)
    try:
        yield m
    finally:
        await m.ctx.store.close()


def pid(c: Caller) -> str:
    assert c.player_id is not None
    return c.player_id


async def test_ranges_decide_who_meets_whom(own: Matchmaking, clock: FakeClock) -> None:
    mm = own
    ann, bob, cy = [await new_player(mm, n) for n in ("ann", "bob", "cy")]
    await plant(mm, "yutaka", {pid(ann): 20.0, pid(bob): 5.0})  # cy has no rating: 0
    a = await create_seek(mm, ann, SeekRequest("yutaka", 2, rating_range=(10.0, 30.0)))
    clock.advance(1)
    b = await create_seek(mm, bob, SeekRequest("yutaka", 2))  # bob (5) is outside ann's range
    clock.advance(1)
    c = await create_seek(mm, cy, SeekRequest("yutaka", 2, rating_range=(-5.0, 4.0)))  # ann and bob outside
    assert await match_once(mm) == 0
    stored = await mm.store.get_seek(a.id)
    assert stored is not None and stored.rating_range == (10.0, 30.0)  # kept through the store
    assert stored.settings == a.settings  # the range is not one of the match settings
    # A newcomer at 0 inside ann's range, and ann inside its range: they meet.
    dee = await new_player(mm, "dee")
    clock.advance(1)
    d = await create_seek(mm, dee, SeekRequest("yutaka", 2, rating_range=(15.0, 25.0)))
    await plant(mm, "yutaka", {pid(dee): 12.0})
    assert await match_once(mm) == 1
    after = {s.id: await mm.store.get_seek(s.id) for s in (a, b, c, d)}
    assert after[a.id] is not None and after[a.id].status == "matched"  # type: ignore[union-attr]
    assert after[d.id] is not None and after[d.id].match_id == after[a.id].match_id  # type: ignore[union-attr]
    assert [after[s.id].status for s in (b, c)] == ["open", "open"]  # type: ignore[union-attr]
    # Bounds are inclusive: bob (5) meets a range that ends at 5; cy (0) one that starts at 0.
    clock.advance(1)
    e = await create_seek(mm, cy, SeekRequest("yutaka", 2, rating_range=(5.0, 5.0)))
    assert await match_once(mm) == 1
    for seek in (b, e):
        got = await mm.store.get_seek(seek.id)
        assert got is not None and got.status == "matched"
    assert (await mm.store.get_seek(c.id)).status == "open"  # type: ignore[union-attr]


async def test_rated_and_casual_seeks_never_meet(own: Matchmaking) -> None:
    ann, bob = await new_player(own, "ann"), await new_player(own, "bob")
    await create_seek(own, ann, SeekRequest("yutaka", 2, settings={"rated": True}))
    await create_seek(own, bob, SeekRequest("yutaka", 2))
    assert await match_once(own) == 0
    cy = await new_player(own, "cy")
    await create_seek(own, cy, SeekRequest("yutaka", 2, settings={"rated": True}))
    assert await match_once(own) == 1
    [match] = [s.match_id for s in await own.store.player_seeks(pid(cy), 5)]
    assert match is not None
    record = await own.ctx.store.get_match(match)
    assert record is not None and record.settings["rated"] is True


async def test_bot_fill_takes_the_level_closest_to_the_group(own: Matchmaking, clock: FakeClock) -> None:
    mm = own
    bots = {"random": -3.0, "greedy": 9.0, "ismcts": 21.0}
    await plant(mm, "mount_drago", {bot_player_id(level): r for level, r in bots.items()})
    ann, bob = await new_player(mm, "ann"), await new_player(mm, "bob")
    await plant(mm, "mount_drago", {pid(ann): 30.0, pid(bob): 10.0})  # mean 20: ismcts (21)
    for who in (ann, bob):
        await create_seek(mm, who, SeekRequest("mount_drago", 3, bots_after_s=10))
    cy = await new_player(mm, "cy")  # a newcomer, 0: random (−3) rather than greedy (9)
    await create_seek(mm, cy, SeekRequest("mount_drago", 2, bots_after_s=10))
    clock.advance(10)
    assert await match_once(mm) == 2
    levels = {}
    for who in (ann, cy):
        [seek] = await mm.store.player_seeks(pid(who), 5)
        assert seek.match_id is not None
        seats = await mm.ctx.store.get_seats(seek.match_id)
        levels[pid(who)] = {s.bot_level for s in seats if s.bot}
    assert levels == {pid(ann): {"ismcts"}, pid(cy): {"random"}}


def test_closest_level_ties_go_to_the_weaker() -> None:
    assert closest_level([15.0], {"random": 10.0, "greedy": 20.0, "ismcts": 30.0}) == "random"
    assert closest_level([16.0], {"random": 10.0, "greedy": 20.0, "ismcts": 30.0}) == "greedy"
    assert closest_level([0.0], {"random": 0.0, "greedy": 0.0, "ismcts": 0.0}) == "random"  # a new server
    assert closest_level([-1.0, 61.0], {"ismcts": 31.0, "greedy": 29.0}) == "greedy"
    assert ordinal(26.0, SIGMA) == 20.0

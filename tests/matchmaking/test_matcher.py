"""The matcher over every backend: groups, seat order, notices, the wait for larger groups, bot fill
(also after the process that took the seek is gone)."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime, timedelta

import jsonschema  # type: ignore[import-untyped]  # no stubs in the dev extras

from app.api.frame_text import notice_frame
from app.games.chance import seeded
from app.openapi import FRAMES_PATH
from app.service.matcher import Group, Matcher, MatchPass, compatible, match_once, plan
from app.service.ratings import BOT_LEVELS
from app.service.seek_ports import SeekRecord
from app.service.seeks import Matchmaking, SeekRequest, create_seek, seek_key
from tests.matchmaking.conftest import FakeClock, matchmaking, new_player

PLAYER_FRAME = jsonschema.Draft202012Validator(
    {
        "$ref": "#/$defs/PlayerServerFrame",
        "$defs": json.loads(FRAMES_PATH.read_text(encoding="utf-8"))["$defs"],
    }
)


async def _match_of(mm: Matchmaking, seek_id: str) -> tuple[SeekRecord, str]:
    seek = await mm.store.get_seek(seek_id)
    assert seek is not None and seek.status == "matched" and seek.match_id is not None
    return seek, seek.match_id


async def test_two_seekers_become_a_started_match(mm: Matchmaking, clock: FakeClock) -> None:
    ann, bob = await new_player(mm, "ann"), await new_player(mm, "bob")
    a = await create_seek(mm, ann, SeekRequest(game="yutaka", players=2))
    clock.advance(1)
    b = await create_seek(mm, bob, SeekRequest(game="yutaka", players=2))
    assert await match_once(mm) == 1
    (sa, match_id), (sb, other) = await _match_of(mm, a.id), await _match_of(mm, b.id)
    assert match_id == other and {sa.seat, sb.seat} == {0, 1}
    record = await mm.ctx.store.get_match(match_id)
    assert record is not None and record.status == "active" and record.open_seats == 0
    seats = await mm.ctx.store.get_seats(match_id)
    assert {s.player_id: s.seat for s in seats} == {ann.player_id: sa.seat, bob.player_id: sb.seat}
    assert not any(s.bot for s in seats)
    # The seat order is the match's own randomness, checkable once the secret is revealed.
    order = [a.id, b.id]
    seeded(f"{record.secret}:seats").shuffle(order)
    assert order == [a.id if sa.seat == 0 else b.id, b.id if sa.seat == 0 else a.id]
    # Each player is told on its personal stream, in the same commit as the match.
    for who, seek in ((ann, sa), (bob, sb)):
        assert who.player_id is not None
        told = await mm.ctx.store.read_notices(who.player_id)
        kinds = [n.type for n in told]
        assert kinds[0] == "seek_matched" and "match_started" in kinds
        assert told[0].data == {
            "seek_id": seek.id,
            "match_id": match_id,
            "seat": seek.seat,
            "seq": record.seq,
        }
        frame = json.loads(notice_frame(told[0]))
        PLAYER_FRAME.validate(frame)  # the personal stream's committed frame schema knows it
    assert await match_once(mm) == 0  # nothing left


async def test_incompatible_seeks_stay_open(mm: Matchmaking) -> None:
    ann, bob = await new_player(mm, "ann"), await new_player(mm, "bob")
    await create_seek(mm, ann, SeekRequest(game="mount_drago", players=2))
    await create_seek(mm, bob, SeekRequest(game="mount_drago", players=3))
    await create_seek(mm, bob, SeekRequest(game="mount_drago", players=2, options={"negative_floor": False}))
    await create_seek(mm, bob, SeekRequest(game="mount_drago", players=2, opponents="bots"))
    await create_seek(mm, ann, SeekRequest(game="mount_drago", players=[2, 3]))  # ann twice: never
    assert await match_once(mm) == 0
    assert len(await mm.store.open_seeks(mm.ctx.clock(), 50)) == 5


async def test_a_larger_group_gathers_for_the_documented_wait(mm: Matchmaking, clock: FakeClock) -> None:
    callers = [await new_player(mm, f"p{i}") for i in range(3)]
    seeks = [await create_seek(mm, c, SeekRequest(game="mount_drago", players=[2, 3, 4, 5])) for c in callers]
    clock.advance(mm.group_wait_s - 1)
    assert await match_once(mm) == 0  # three could play, but five would: wait
    clock.advance(1)
    assert await match_once(mm) == 1
    match_ids = {(await _match_of(mm, s.id))[1] for s in seeks}
    assert len(match_ids) == 1
    record = await mm.ctx.store.get_match(match_ids.pop())
    assert record is not None and record.players == 3


async def test_a_full_group_forms_at_once(mm: Matchmaking, clock: FakeClock) -> None:
    callers = [await new_player(mm, f"p{i}") for i in range(6)]
    for c in callers:
        await create_seek(mm, c, SeekRequest(game="mount_drago", players=[4, 5]))
        clock.advance(1)
    assert await match_once(mm) == 1  # five at once; the sixth waits
    left = await mm.store.open_seeks(mm.ctx.clock(), 50)
    assert [s.player_id for s in left] == [callers[5].player_id]


async def test_bots_fill_after_the_wait(mm: Matchmaking, clock: FakeClock) -> None:
    ann = await new_player(mm, "ann")
    seek = await create_seek(mm, ann, SeekRequest(game="mount_drago", players=[3, 4], bots_after_s=30))
    clock.advance(29)
    assert await match_once(mm) == 0
    clock.advance(1)
    assert await match_once(mm) == 1
    matched, match_id = await _match_of(mm, seek.id)
    record = await mm.ctx.store.get_match(match_id)
    assert record is not None and record.status == "active" and record.players == 3
    seats = await mm.ctx.store.get_seats(match_id)
    assert [s.bot for s in seats].count(True) == 2
    assert seats[matched.seat or 0].player_id == ann.player_id
    # One level, the closest to ann's rating (test_seek_ratings.py; the shared database's bots may
    # have ratings already).
    assert len({s.bot_level for s in seats if s.bot}) == 1 and seats[0].bot_level in (None, *BOT_LEVELS)


async def test_bot_fill_when_the_process_that_took_the_seek_is_gone(sql_url: str, clock: FakeClock) -> None:
    url = sql_url
    first = matchmaking(url, clock)
    ann = await new_player(first, "ann")
    seek = await create_seek(first, ann, SeekRequest(game="yutaka", players=2, bots_after_s=60))
    await first.ctx.store.close()  # the process that took the seek is gone; the seek is in the DB
    clock.advance(60)
    other = matchmaking(url, clock)
    try:
        assert await match_once(other) == 1
        _, match_id = await _match_of(other, seek.id)
        record = await other.ctx.store.get_match(match_id)
        assert record is not None and record.status == "active"
        seats = await other.ctx.store.get_seats(match_id)
        assert [s.bot for s in seats].count(True) == 1
        bot_first = record.to_act != (next(s.seat for s in seats if not s.bot),)
        assert (match_id in other.ctx.bots.woken) == bot_first  # type: ignore[attr-defined]
    finally:
        await other.ctx.store.close()


# The plan alone, over records (players marked as bots included).

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _seek(i: int, counts: tuple[int, ...] = (2,), **kw: object) -> SeekRecord:
    base = SeekRecord(
        id=f"s{i}", player_id=f"p{i}", name=f"p{i}", game="mount_drago", counts=counts, options={},
        settings={}, key=seek_key("mount_drago", {}, {}), opponents="humans", bot=False,
        bots_after_s=None, created_at=T0 + timedelta(seconds=i), expires_at=T0 + timedelta(hours=1),
    )  # fmt: skip
    return dataclasses.replace(base, **kw)  # type: ignore[arg-type]


def test_opponents_and_bot_players() -> None:
    human, bot = _seek(1), _seek(2, bot=True)
    assert not compatible(human, bot)  # the human takes humans only
    assert compatible(dataclasses.replace(human, opponents="any"), bot)  # the bot takes humans
    assert not compatible(
        dataclasses.replace(human, opponents="any"), dataclasses.replace(bot, opponents="bots")
    )
    assert compatible(dataclasses.replace(human, opponents="bots"), dataclasses.replace(bot, opponents="any"))
    assert not compatible(human, _seek(3, player_id="p1"))  # the same player
    assert not compatible(human, _seek(3, counts=(3,)))


def test_oldest_first_and_no_seek_twice() -> None:
    seeks = [_seek(i) for i in range(5)]
    groups = plan(seeks, T0 + timedelta(seconds=10), 15)
    assert groups == [Group((seeks[0], seeks[1]), 2), Group((seeks[2], seeks[3]), 2)]


def test_a_waiting_group_keeps_its_members_from_younger_seeks() -> None:
    old = _seek(0, counts=(2, 3))
    young = [_seek(1, counts=(2, 3)), _seek(2, counts=(2,)), _seek(3, counts=(2,))]
    now = T0 + timedelta(seconds=5)
    # s0 and s1 could play two, but three is their largest: they wait; s2 and s3 pair up meanwhile.
    assert plan([old, *young], now, 15) == [Group((young[1], young[2]), 2)]


def test_the_matcher_paces_itself_by_what_its_last_pass_saw(mm: Matchmaking) -> None:
    """At once after a pass that formed a match; `interval_s` while seeks are open; `idle_s` (never
    less than `interval_s`) after a pass that found none. A posted seek kicks it (see
    tests/matchmaking/test_seeks_http.py)."""
    matcher = Matcher(mm, interval_s=0.5, idle_s=5.0)
    assert matcher.pause(MatchPass(seen=4, formed=1)) == 0.0
    assert matcher.pause(MatchPass(seen=3, formed=0)) == 0.5
    assert matcher.pause(MatchPass(seen=0, formed=0)) == 5.0
    assert mm.kick == matcher._periodic.kick  # what a posted seek calls
    assert Matcher(mm, interval_s=2.0, idle_s=1.0).pause(MatchPass(seen=0, formed=0)) == 2.0

"""Acceptance: 200 seekers with random compatible and incompatible parameters against three
matchers at once on one database (three stores, each with its own connections, as three processes
would have): every compatible group matched exactly once, nobody in two matches, no incompatible pair
matched (rating ranges included: most seekers have a rating, some a range), and what is left open
could not form a group."""

from __future__ import annotations

import asyncio
import random
import uuid
from datetime import timedelta

from app.service.matcher import compatible, match_once, plan, with_ratings
from app.service.ports import PlayerRecord
from app.service.seek_ports import SeekRecord
from app.service.seeks import Matchmaking, seek_key
from tests.matchmaking.conftest import FakeClock, matchmaking, plant

SEEKERS = 200


def _random_range(rng: random.Random) -> tuple[float, float] | None:
    if rng.random() < 0.6:
        return None
    low = rng.randrange(-15, 30)
    return float(low), float(low + rng.randrange(5, 35))


def _random_seek(rng: random.Random, player: PlayerRecord, clock: FakeClock, bot: bool) -> SeekRecord:
    game = rng.choice(["mount_drago", "mount_drago", "yutaka"])
    if game == "yutaka":
        counts: tuple[int, ...] = (2,)
        options: dict[str, object] = {}
    else:
        counts = tuple(sorted(rng.sample([2, 3, 4, 5], rng.randint(1, 3))))
        options = rng.choice([{}, {}, {"negative_floor": False}])
    settings = rng.choice([{}, {"on_timeout": "forfeit"}])
    return SeekRecord(
        id=uuid.uuid4().hex, player_id=player.id, name=player.name, game=game, counts=counts,
        options=options, settings=settings, key=seek_key(game, options, settings),
        opponents=rng.choice(["humans", "humans", "any", "bots"]), bot=bot, bots_after_s=None,
        created_at=clock() + timedelta(milliseconds=rng.randrange(10_000)),
        expires_at=clock() + timedelta(hours=1), rating_range=_random_range(rng),
    )  # fmt: skip


async def _quiesce(processes: list[Matchmaking]) -> None:
    """Rounds of one pass per process, all at once, until a round forms nothing anywhere."""
    for _ in range(1000):
        formed = await asyncio.gather(*(match_once(p) for p in processes))
        if not any(formed):
            return
    raise AssertionError("the matchers never settled")


async def test_200_seekers_three_matchers(sql_url: str, clock: FakeClock) -> None:
    url = sql_url
    backend = url.partition(":")[0]
    processes = [matchmaking(url, clock) for _ in range(3)]
    try:
        rng = random.Random(42)
        store = processes[0].ctx.store
        seeks: dict[str, SeekRecord] = {}
        ratings: dict[str, dict[str, float]] = {"mount_drago": {}, "yutaka": {}}
        for i in range(SEEKERS):
            player = PlayerRecord(
                uuid.uuid4().hex, f"p{i}-{uuid.uuid4().hex[:8]}", uuid.uuid4().hex, clock()
            )  # names are unique per database
            await store.create_player(player)
            seek = _random_seek(rng, player, clock, bot=rng.random() < 0.2)
            assert await processes[i % 3].store.add_seek(seek, 5, clock())
            seeks[seek.id] = seek
            if rng.random() < 0.7:  # the others are newcomers (0)
                ratings[seek.game][player.id] = float(rng.randrange(-10, 40))
        for game, displayed in ratings.items():
            await plant(processes[0], game, displayed)
        clock.advance(11)  # every seek exists now; none has waited for a larger group yet
        await _quiesce(processes)
        clock.advance(processes[0].group_wait_s)  # smaller groups may form now
        await _quiesce(processes)

        stored = [await processes[0].store.get_seek(s) for s in seeks]
        rated = await with_ratings(processes[0], [s for s in stored if s is not None])
        final = {s.id: s for s in rated}
        assert len(final) == SEEKERS and all(s.rating_range == seeks[s.id].rating_range for s in rated)
        by_match: dict[str, list[SeekRecord]] = {}
        for s in final.values():
            assert s is not None and s.status in ("open", "matched")
            if s.status == "matched":
                assert s.match_id is not None
                by_match.setdefault(s.match_id, []).append(s)
        assert by_match, "nothing matched"
        players_seated: set[str] = set()
        for match_id, group in by_match.items():
            record = await store.get_match(match_id)
            assert record is not None and record.status == "active"
            assert len(group) == record.players  # every seat a seeker: no bots were asked for
            seats = await store.get_seats(match_id)
            assert {s.player_id: s.seat for s in seats} == {g.player_id: g.seat for g in group}
            for a in group:
                assert record.players in a.counts
                assert all(compatible(a, b) for b in group if b is not a), "an incompatible pair"
            assert not players_seated & {g.player_id for g in group}, "a seeker in two matches"
            players_seated |= {g.player_id for g in group}
        left = sorted(
            (s for s in final.values() if s is not None and s.status == "open"),
            key=lambda s: (s.created_at, s.id),
        )
        assert left, "the random parameters leave some seekers unmatched"
        assert plan(left, clock(), processes[0].group_wait_s) == []  # nothing left could form a group
        matched = sum(p.metrics["matched"] for p in processes)
        assert matched == len(by_match)  # each group formed exactly once
        print(
            f"\n{backend}: {len(by_match)} matches from {SEEKERS - len(left)} seekers, {len(left)} left, "
            f"{sum(p.metrics['lost_claims'] for p in processes)} claims lost to another process"
        )
    finally:
        for p in processes:
            await p.ctx.store.close()

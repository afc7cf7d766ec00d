"""The matcher: open seeks become matches, in any process, with no leader and no double match.

Every process runs the same pass now and then (`Matcher`: often while seeks are open, seldom when
none are, at once when a seek is posted to it): expire the seeks whose time is up, read
the open seeks oldest first, `plan` groups over them, and `claim` each group in the store, which
marks its seeks matched and creates the match in ONE transaction or writes nothing when a seek is no
longer open (another process was first): see `app.service.seek_ports`. State lives only in the
database, so a process killed at any point leaves nothing half done, and any other process's next
pass picks the seeks up.

Planning (`plan`, pure), oldest seek first:
- Compatible seeks (`compatible`): the same game, options and settings (`SeekRecord.key`, `rated`
  included), a player count both accept, different players, each accepts the other as an opponent
  (`humans` takes players not marked as bots, `bots` only players marked as bots, `any` both), and
  each one's displayed rating in the game (`SeekRecord.rating`, looked up by `match_once` in the
  games where a seek has a range; 0 for a player with no rating yet, as for a newcomer) lies inside
  the other's `rating_range`.
- The oldest seek gathers compatible seeks, oldest first, each compatible with all gathered so far
  and leaving a count they all accept that seats everyone gathered, until the group fills the
  largest count they share.
- A group forms at once at the largest count its members can fill when that is the largest count
  they all accept; a smaller group (say three Mount Drago seekers who would all play five) forms
  only once the oldest seek has waited `group_wait_s` — the wait during which a larger table may
  gather. While it waits, its members are kept from younger seeks' groups (oldest first).
- Bot fill: a seek with `bots_after_s` that has waited so long (and no human group formed for it)
  gathers the compatible seeks whose `bots_after_s` wait is over too, and the missing seats go to
  server bots, at the smallest count the group accepts (fewest bots). The level (`closest_level`) is
  the built-in bot level whose bot player's displayed rating in the game is closest to the mean of
  the group's ratings; on a tie the weaker one (the lower rating, then random < greedy < ismcts).
  An operator's fixed `Matchmaking.bot_level` overrides it.
- Seats are shuffled with the match's own randomness (`app.service.seated`).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from app.service.periodic import Periodic
from app.service.ports import StoredNotice
from app.service.rating_projection import rating_store
from app.service.ratings import BOT_LEVELS, Rating, bot_player_id, ordinal
from app.service.seated import NewMatch, Person, create_seated, seated_match
from app.service.seek_ports import MatchWrite, SeekClaim, SeekRecord
from app.service.seeks import Matchmaking

log = logging.getLogger("app.matcher")

SEEK_MATCHED: Final = "seek_matched"


@dataclass(frozen=True, slots=True)
class Group:
    """Seeks that become one match of `players` seats, `bots` of them server bots."""

    seeks: tuple[SeekRecord, ...]
    players: int
    bots: int = 0


def _accepts(a: SeekRecord, b: SeekRecord) -> bool:
    return a.opponents == "any" or (a.opponents == "bots") == b.bot


def _in_range(a: SeekRecord, b: SeekRecord) -> bool:
    return a.rating_range is None or a.rating_range[0] <= b.rating <= a.rating_range[1]


def compatible(a: SeekRecord, b: SeekRecord) -> bool:
    """Whether two seeks may sit in one match (see the module docstring)."""
    return (
        a.key == b.key
        and a.game == b.game
        and a.player_id != b.player_id
        and bool(set(a.counts) & set(b.counts))
        and _accepts(a, b)
        and _accepts(b, a)
        and _in_range(a, b)
        and _in_range(b, a)
    )


def closest_level(ratings: Sequence[float], levels: Mapping[str, float]) -> str:
    """The bot level whose rating (`levels`: level -> displayed rating) is closest to the mean of
    `ratings`; on a tie the weaker: the lower rating, then the earlier of `BOT_LEVELS`."""
    mean = sum(ratings) / len(ratings)
    order = {level: i for i, level in enumerate(BOT_LEVELS)}
    return min(levels, key=lambda level: (abs(levels[level] - mean), levels[level], order.get(level, 99)))


def _waited(seek: SeekRecord, now: datetime) -> float:
    return (now - seek.created_at).total_seconds()


def _bots_due(seek: SeekRecord, now: datetime) -> bool:
    return seek.bots_after_s is not None and _waited(seek, now) >= seek.bots_after_s


def _gather(first: SeekRecord, pool: Sequence[SeekRecord]) -> tuple[list[SeekRecord], set[int]]:
    members, counts = [first], set(first.counts)
    for t in pool:
        if len(members) >= max(counts):
            break
        shared = counts & set(t.counts)
        if t.id == first.id or max(shared, default=0) <= len(members):
            continue  # a count that seats everyone, `t` too, must remain
        if all(compatible(m, t) for m in members):
            members.append(t)
            counts = shared
    return members, counts


def plan(seeks: Sequence[SeekRecord], now: datetime, group_wait_s: float) -> list[Group]:
    """The groups to form from `seeks` (open, oldest first) at `now`."""
    taken: set[str] = set()
    groups: list[Group] = []
    for s in seeks:
        if s.id in taken:
            continue
        pool = [t for t in seeks if t.id not in taken]
        members, counts = _gather(s, pool)
        fillable = [c for c in counts if c <= len(members)]
        waited = _waited(s, now) >= group_wait_s or _bots_due(s, now)
        if fillable and (max(fillable) == max(counts) or waited):
            n = max(fillable)
            groups.append(Group(tuple(members[:n]), n))
            taken.update(m.id for m in members[:n])
            continue
        if _bots_due(s, now):
            members, counts = _gather(s, [t for t in pool if _bots_due(t, now)])
            n = min(c for c in counts if c >= len(members))
            groups.append(Group(tuple(members), n, n - len(members)))
            taken.update(m.id for m in members)
            continue
        taken.update(m.id for m in members)  # waiting for a larger group: kept for it
    return groups


def build(mm: Matchmaking, group: Group, now: datetime, level: str) -> NewMatch:
    """The match of `group` with its seekers seated (server bots at `level`)."""
    first = group.seeks[0]
    return seated_match(
        mm.ctx,
        game=first.game,
        players=group.players,
        options=first.options,
        settings=first.settings,
        people=[Person(s.id, s.player_id, s.name) for s in group.seeks],
        bot_level=level,
        now=now,
        extra=[(s.id, SEEK_MATCHED, {"seek_id": s.id}) for s in group.seeks],
    )


async def form(mm: Matchmaking, group: Group) -> str | None:
    """Claim `group` and create its match; the match id, or None when another process was first."""
    level = mm.bot_level or mm.ctx.config.default_bot_level
    if group.bots and not mm.bot_level:
        level = await bot_level_for(mm, group)
    new = build(mm, group, mm.ctx.clock(), level)

    async def claim(write: MatchWrite) -> tuple[StoredNotice, ...] | None:
        return await mm.store.claim(SeekClaim(dict(new.seat_of), write))

    if await create_seated(mm.ctx, new, claim) is None:
        mm.metrics["lost_claims"] += 1
        return None
    mm.metrics["matched"] += 1
    return new.match_id


@dataclass(frozen=True, slots=True)
class MatchPass:
    """What one pass saw and did: the open seeks it read, the matches it formed."""

    seen: int
    formed: int


async def matching_pass(mm: Matchmaking) -> MatchPass:
    """One pass: expire the seeks and challenges that are due, plan over the open seeks, claim each
    group."""
    now = mm.ctx.clock()
    await mm.store.expire_seeks(now)
    await mm.store.expire_challenges(now)
    seeks = await with_ratings(mm, await mm.store.open_seeks(now, mm.scan))
    formed = 0
    for group in plan(seeks, now, mm.group_wait_s):
        if await form(mm, group) is not None:
            formed += 1
    return MatchPass(len(seeks), formed)


async def match_once(mm: Matchmaking) -> int:
    """One pass (`matching_pass`); how many matches it formed."""
    return (await matching_pass(mm)).formed


async def displayed(mm: Matchmaking, game: str, player_ids: Sequence[str]) -> dict[str, float]:
    """The players' displayed ratings in `game`; a player with none has a newcomer's, 0."""
    found = await rating_store(mm.ctx).get_ratings(game, player_ids)
    return {p: ordinal(found[p].mu, found[p].sigma) if p in found else Rating().ordinal for p in player_ids}


async def with_ratings(mm: Matchmaking, seeks: Sequence[SeekRecord]) -> list[SeekRecord]:
    """The seeks with their players' displayed ratings, looked up for the games where a seek has a
    rating range (elsewhere the ratings decide nothing in planning)."""
    out = list(seeks)
    for game in dict.fromkeys(s.game for s in seeks if s.rating_range is not None):
        ratings = await displayed(mm, game, list(dict.fromkeys(s.player_id for s in seeks if s.game == game)))
        out = [dataclasses.replace(s, rating=ratings[s.player_id]) if s.game == game else s for s in out]
    return out


async def bot_level_for(mm: Matchmaking, group: Group) -> str:
    """The level of the bots that fill `group`'s seats: the built-in level (of those this server
    runs) whose rating is closest to the group's mean rating (`closest_level`)."""
    levels = [level for level in BOT_LEVELS if level in mm.ctx.config.bot_levels]
    if not levels:
        return mm.ctx.config.default_bot_level
    game = group.seeks[0].game
    people = [s.player_id for s in group.seeks]
    ratings = await displayed(mm, game, [*people, *map(bot_player_id, levels)])
    return closest_level(
        [ratings[p] for p in people], {level: ratings[bot_player_id(level)] for level in levels}
    )


class Matcher:
    """This process's matcher loop: a pass every `interval_s` while there are open seeks (and again
    at once after a pass that formed a match: more may be waiting); every `idle_s` (at least
    `interval_s`) after a pass that found none, and at once when a seek is posted to this process
    (`Matchmaking.kick`). So an idle fleet does not ask its database about seeks twice a second per
    process, and a new seek is still planned at once by the process it was posted to; another
    process's seeks wait at most `idle_s` for this one (only if their own process stopped)."""

    def __init__(self, mm: Matchmaking, *, interval_s: float = 0.5, idle_s: float = 5.0) -> None:
        self.mm = mm
        self.interval_s = interval_s
        self.idle_s = max(idle_s, interval_s)
        work = functools.partial(matching_pass, mm)
        self._periodic = Periodic(
            "matcher", work, interval_s, log=log, failure="matching failed", pause=self.pause
        )
        mm.kick = self._periodic.kick

    def pause(self, result: object) -> float:
        """Seconds to the next pass after one that returned `result` (a `MatchPass`)."""
        assert isinstance(result, MatchPass)
        if result.formed:
            return 0.0
        return self.interval_s if result.seen else self.idle_s

    async def start(self) -> None:
        await self._periodic.start()

    async def stop(self) -> None:
        await self._periodic.stop()

"""The matcher: open seeks become matches, in any process, with no leader and no double match.

Every process runs the same pass now and then (`Matcher`): expire the seeks whose time is up, read
the open seeks oldest first, `plan` groups over them, and `claim` each group in the store, which
marks its seeks matched and creates the match in ONE transaction or writes nothing when a seek is no
longer open (another process was first): see `app.service.seek_ports`. State lives only in the
database, so a process killed at any point leaves nothing half done, and any other process's next
pass picks the seeks up.

Planning (`plan`, pure), oldest seek first:
- Compatible seeks (`compatible`): the same game, options and settings (`SeekRecord.key`), a player
  count both accept, different players, and each accepts the other as an opponent (`humans` takes
  players not marked as bots, `bots` only players marked as bots, `any` both).
- The oldest seek gathers compatible seeks, oldest first, each compatible with all gathered so far
  and leaving a count they all accept that seats everyone gathered, until the group fills the
  largest count they share.
- A group forms at once at the largest count its members can fill when that is the largest count
  they all accept; a smaller group (say three Mount Drago seekers who would all play five) forms
  only once the oldest seek has waited `group_wait_s` — the wait during which a larger table may
  gather. While it waits, its members are kept from younger seeks' groups (oldest first).
- Bot fill: a seek with `bots_after_s` that has waited so long (and no human group formed for it)
  gathers the compatible seeks whose `bots_after_s` wait is over too, and the missing seats go to
  server bots, at the smallest count the group accepts (fewest bots). The level is the matchmaking's
  `bot_level` (the server's default bot level): with no ratings yet there is no group rating to be
  close to.
- Seats are shuffled with the match's own randomness (`app.service.seated`).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from app.service.periodic import Periodic
from app.service.seated import NewMatch, Person, announce, seated_match
from app.service.seek_ports import SeekClaim, SeekRecord
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


def compatible(a: SeekRecord, b: SeekRecord) -> bool:
    """Whether two seeks may sit in one match (see the module docstring)."""
    return (
        a.key == b.key
        and a.game == b.game
        and a.player_id != b.player_id
        and bool(set(a.counts) & set(b.counts))
        and _accepts(a, b)
        and _accepts(b, a)
    )


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


def build(mm: Matchmaking, group: Group, now: datetime) -> tuple[SeekClaim, NewMatch]:
    """The match of `group` with its seekers seated, and the claim that writes it."""
    first = group.seeks[0]
    new = seated_match(
        mm.ctx,
        game=first.game,
        players=group.players,
        options=first.options,
        settings=first.settings,
        people=[Person(s.id, s.player_id, s.name) for s in group.seeks],
        bot_level=mm.bot_level or mm.ctx.config.default_bot_level,
        now=now,
        extra=[(s.id, SEEK_MATCHED, {"seek_id": s.id}) for s in group.seeks],
    )
    return SeekClaim(dict(new.seat_of), new.write), new


async def form(mm: Matchmaking, group: Group) -> str | None:
    """Claim `group` and create its match; the match id, or None when another process was first."""
    claim, new = build(mm, group, mm.ctx.clock())
    written = await mm.store.claim(claim)
    if written is None:
        mm.metrics["lost_claims"] += 1
        return None
    mm.metrics["matched"] += 1
    await announce(mm.ctx, new, written)
    return new.loaded.record.id


async def match_once(mm: Matchmaking) -> int:
    """One pass: expire the seeks and challenges that are due, plan over the open seeks, claim each
    group; returns how many matches it formed."""
    now = mm.ctx.clock()
    await mm.store.expire_seeks(now)
    await mm.store.expire_challenges(now)
    seeks = await mm.store.open_seeks(now, mm.scan)
    formed = 0
    for group in plan(seeks, now, mm.group_wait_s):
        if await form(mm, group) is not None:
            formed += 1
    return formed


class Matcher:
    """This process's matcher loop: a pass every `interval_s` (and again at once after a pass that
    formed a match, while seeks keep coming)."""

    def __init__(self, mm: Matchmaking, *, interval_s: float = 0.5) -> None:
        self.mm = mm
        self.interval_s = interval_s
        # Again at once after a pass that formed a match: more seeks may be waiting.
        work = functools.partial(match_once, mm)
        self._periodic = Periodic("matcher", work, interval_s, log=log, failure="matching failed", again=True)

    async def start(self) -> None:
        await self._periodic.start()

    async def stop(self) -> None:
        await self._periodic.stop()

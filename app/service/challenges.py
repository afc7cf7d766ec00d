"""Challenges: a player invites named players to a match; it starts when every one has accepted.

`create_challenge` (the challenger's key) stores the challenge and tells each invited player on its
personal stream (`challenge_received`) in the same transaction. `accept` records the answer and
tells the challenger (`challenge_accepted`); the last acceptance creates the match with everyone
seated (seat order from the match's own randomness, `app.service.seated`) in the same transaction.
`decline` (with an optional reason) closes the challenge and tells the others (`challenge_declined`).
A challenge expires `DEFAULT_EXPIRY_S` after creation unless it says otherwise (`expires_s`); the
matcher's pass marks it, and every read judges by the clock. Each write is conditional on the
version it read, so two answers at once never lose one another: the later retries.

Players may say they are bots (`set_bot`); a challenge shows whether its challenger and each invited
player is one, and a seek whether players marked as bots are welcome.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Final

from app.games.codec import JSON
from app.service import rating_reads
from app.service.auth import Caller
from app.service.errors import ChallengeClosed, Forbidden, NotFound, StaleVersion, ValidationFailed
from app.service.players import player_of
from app.service.ports import NewNotice, StoredNotice, player_channel
from app.service.rating_reads import Profile
from app.service.seated import Person, create_seated, seated_match
from app.service.seek_ports import ChallengeRecord, MatchWrite
from app.service.seeks import MAX_EXPIRY_S, Matchmaking, SeekRequest, check_seek

DEFAULT_EXPIRY_S: Final = 86_400.0
MAX_REASON: Final = 200
MAX_RETRIES: Final = 8
RECEIVED: Final = "challenge_received"
ACCEPTED: Final = "challenge_accepted"
DECLINED: Final = "challenge_declined"


@dataclass(frozen=True, slots=True)
class ChallengeRequest:
    to: Sequence[str]
    game: str
    players: int | None = None  # default: the challenger and everyone invited
    options: Mapping[str, JSON] = field(default_factory=dict)
    settings: Mapping[str, JSON] = field(default_factory=dict)
    expires_s: float | None = None


@dataclass(frozen=True, slots=True)
class ChallengeView:
    """A challenge with the bot flags of everyone in it (challenger first)."""

    challenge: ChallengeRecord
    bots: Mapping[str, bool]
    expired: bool  # open in the store, but past its expiry: answered as expired


async def _view(mm: Matchmaking, c: ChallengeRecord) -> ChallengeView:
    bots = {p: bool(await mm.store.player_bot(p)) for p in (c.from_id, *c.to_ids)}
    expired = c.status == "open" and c.expires_at <= mm.ctx.clock()
    return ChallengeView(c, bots, expired)


async def create_challenge(mm: Matchmaking, caller: Caller, req: ChallengeRequest) -> ChallengeView:
    ctx = mm.ctx
    me = await player_of(ctx, caller, "challenging needs a player key (Authorization: Bearer pk_…)")
    to = list(req.to)
    if not to or len(set(to)) != len(to):
        raise ValidationFailed("to lists one or more different players", {"field": "to"})
    if me.id in to:
        raise ValidationFailed("a player cannot challenge itself", {"field": "to"})
    players = 1 + len(to) if req.players is None else req.players
    if players != 1 + len(to):
        raise ValidationFailed("players is the challenger and everyone invited", {"field": "players"})
    _, options, settings = check_seek(ctx, SeekRequest(req.game, players, req.options, req.settings))
    expires = DEFAULT_EXPIRY_S if req.expires_s is None else req.expires_s
    if not 1 <= expires <= MAX_EXPIRY_S:
        raise ValidationFailed(f"expires_s is from 1 to {MAX_EXPIRY_S:.0f}", {"field": "expires_s"})
    names = []
    for player_id in to:
        found = await ctx.store.get_player(player_id)
        if found is None:
            raise NotFound("no such player", {"field": "to", "player_id": player_id})
        names.append(found.name)
    now = ctx.clock()
    challenge = ChallengeRecord(
        id=uuid.uuid4().hex, from_id=me.id, from_name=me.name, to_ids=tuple(to), to_names=tuple(names),
        game=req.game, players=players, options=options, settings=settings, created_at=now,
        expires_at=now + timedelta(seconds=expires),
    )  # fmt: skip
    data = {"challenge_id": challenge.id, "player_id": me.id, "name": me.name, "game": req.game}
    told = [NewNotice(p, RECEIVED, data) for p in to]
    written = await mm.store.add_challenge(challenge, told)
    await _tell(mm, written)
    return await _view(mm, challenge)


async def my_challenges(mm: Matchmaking, caller: Caller, *, limit: int) -> list[ChallengeView]:
    me = await player_of(mm.ctx, caller)
    return [await _view(mm, c) for c in await mm.store.player_challenges(me.id, limit)]


async def _invited(mm: Matchmaking, caller: Caller, challenge_id: str) -> tuple[str, ChallengeRecord]:
    me = await player_of(mm.ctx, caller)
    c = await mm.store.get_challenge(challenge_id)
    if c is None:
        raise NotFound("no such challenge", {"challenge_id": challenge_id})
    if me.id not in c.to_ids:
        raise Forbidden("this challenge is not addressed to this player")
    return me.id, c


def _require_open(mm: Matchmaking, c: ChallengeRecord) -> None:
    if c.status == "open" and c.expires_at <= mm.ctx.clock():
        raise ChallengeClosed("this challenge has expired", {"status": "expired"})
    if c.status != "open":
        raise ChallengeClosed(f"this challenge is {c.status}", {"status": c.status})


async def accept(mm: Matchmaking, caller: Caller, challenge_id: str) -> ChallengeView:
    """Accept; the last acceptance creates the match with everyone seated."""
    ctx = mm.ctx
    for _ in range(MAX_RETRIES):
        me, c = await _invited(mm, caller, challenge_id)
        if c.answers.get(me) == "accepted" and c.status != "open":
            return await _view(mm, c)  # answered already (a retry)
        _require_open(mm, c)
        answers = {**c.answers, me: "accepted"}
        now = ctx.clock()
        others = [p for p in (c.from_id, *c.to_ids) if p != me]
        data = {"challenge_id": c.id, "player_id": me}
        if all(answers.get(p) == "accepted" for p in c.to_ids):
            people = [Person(c.from_id, c.from_id, c.from_name)]
            people += [Person(p, p, n) for p, n in zip(c.to_ids, c.to_names, strict=True)]
            new = seated_match(
                ctx, game=c.game, players=c.players, options=c.options, settings=c.settings, people=people,
                bot_level=ctx.config.default_bot_level, now=now,
                extra=[(p, ACCEPTED, data) for p in others],
            )  # fmt: skip
            updated = dataclasses.replace(
                c, status="accepted", answers=answers, match_id=new.match_id, version=c.version + 1
            )

            write = functools.partial(_accepted, mm, updated, now)
            if await create_seated(ctx, new, write) is not None:
                return await _view(mm, updated)
            continue
        updated = dataclasses.replace(c, answers=answers, version=c.version + 1)
        written = await mm.store.update_challenge(
            updated, None, [NewNotice(p, ACCEPTED, data) for p in others], now
        )
        if written is not None:
            await _tell(mm, written)
            return await _view(mm, updated)
    raise StaleVersion("the challenge is busy; try again")


async def _accepted(
    mm: Matchmaking, updated: ChallengeRecord, now: datetime, write: MatchWrite
) -> tuple[StoredNotice, ...] | None:
    """The last acceptance: the challenge updated and its match created, in one transaction."""
    return await mm.store.update_challenge(updated, write, (), now)


async def decline(mm: Matchmaking, caller: Caller, challenge_id: str, reason: str | None) -> ChallengeView:
    if reason is not None and (len(reason) > MAX_REASON or not reason.isprintable()):
        raise ValidationFailed(f"a reason has at most {MAX_REASON} printable characters", {"field": "reason"})
    for _ in range(MAX_RETRIES):
        me, c = await _invited(mm, caller, challenge_id)
        _require_open(mm, c)
        answers = {**c.answers, me: "declined"}
        updated = dataclasses.replace(
            c, status="declined", answers=answers, reason=reason, version=c.version + 1
        )
        data: dict[str, JSON] = {"challenge_id": c.id, "player_id": me, "reason": reason}
        told = [NewNotice(p, DECLINED, data) for p in (c.from_id, *c.to_ids) if p != me]
        written = await mm.store.update_challenge(updated, None, told, mm.ctx.clock())
        if written is not None:
            await _tell(mm, written)
            return await _view(mm, updated)
    raise StaleVersion("the challenge is busy; try again")


async def set_bot(mm: Matchmaking, caller: Caller, bot: bool) -> tuple[str, str, bool]:
    """Mark the caller's player as a bot (or not); its public profile shows it."""
    me = await player_of(mm.ctx, caller)
    await mm.store.set_player_bot(me.id, bot)
    return me.id, me.name, bot


async def profile(mm: Matchmaking, player_id: str) -> Profile:
    """A player's public profile (`app.service.rating_reads.profile`: name, ratings), marked as a bot
    also when the player says it is one (`PATCH /v1/players/me`)."""
    found = await rating_reads.profile(mm.ctx, player_id)
    if found.bot or not await mm.store.player_bot(player_id):
        return found
    return dataclasses.replace(found, bot=True)


async def _tell(mm: Matchmaking, written: Sequence[StoredNotice]) -> None:
    for player in dict.fromkeys(n.player_id for n in written):
        cursor = max(n.cursor for n in written if n.player_id == player)
        with contextlib.suppress(Exception):  # the write stands; live readers catch up on their next read
            await mm.ctx.notifier.notify(player_channel(player), cursor)

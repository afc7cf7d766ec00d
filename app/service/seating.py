"""Seats and the host: joining a seat (the start when it is the last), reissuing a seat's token,
handing a silent seat to a bot, aborting before the start, and the sweepers' timeouts and expiry.

Each is one commit at the loaded `seq` (events + the seat row it changes); a conflict reloads and
decides again, so two people racing for the last seat end with one `seat_taken`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Final

from app.games.core import Seat
from app.matches import decide
from app.matches.decide import Refused
from app.matches.events import MatchEvent
from app.matches.fairness import V2, new_seat_seed, with_deal
from app.matches.fold import Match
from app.matches.settings import stored_settings
from app.service.auth import Caller, hash_token, invite_ok, new_token, require_host
from app.service.cache import Loaded
from app.service.committing import commit
from app.service.context import Context
from app.service.errors import (
    Forbidden,
    NotFound,
    PlayerKeyRequired,
    ServiceError,
    StaleVersion,
    ValidationFailed,
    from_code,
)
from app.service.ports import SeatWrite, VersionConflict
from app.service.reading import summary_of
from app.service.results import MatchSummary, SeatGrant

MAX_NAME: Final = 40
MAX_SEED: Final = 64
MAX_RETRIES: Final = 8

Plan = Callable[[Loaded], tuple[Sequence[object], tuple[SeatWrite, ...]]]


async def _commit_plan(ctx: Context, match_id: str, plan: Plan, by: Seat | None = None) -> Loaded:
    """Decide and commit; reload and decide again after losing a race.

    As for actions, the first try decides on this process's cached state, without reading: seat
    rows change only in commits, so a cache behind the store ends in a `VersionConflict` and a
    fresh load. A refusal or "nothing to do" judged on the cache is judged again on the store's."""
    async with ctx.locks.get(match_id):
        for attempt in range(MAX_RETRIES):
            fresh = attempt > 0  # the first try judges on the cache, every later one on the store's
            loaded = await ctx.loader.to_decide_on(match_id, fresh=fresh)
            try:
                events, seats = plan(loaded)
            except Refused as r:
                if fresh:
                    raise from_code(r.code, r.message, r.details) from None
                continue
            if not events:
                if fresh:
                    return loaded
                continue
            with contextlib.suppress(VersionConflict):  # lost a race: judge again on the store's
                return (await commit(ctx, loaded, events, by=by, seats=seats)).loaded
    raise StaleVersion("the match is busy; try again")


def clean_name(name: str) -> str:
    name = name.strip()
    if not 1 <= len(name) <= MAX_NAME or not name.isprintable():
        raise ValidationFailed(f"a name has 1 to {MAX_NAME} printable characters", {"field": "name"})
    return name


def clean_seed(seed: str | None) -> str | None:
    """A seat's own seed (docs/fairness.md), exactly as sent: 1 to 64 printable characters."""
    if seed is not None and (not 1 <= len(seed) <= MAX_SEED or not seed.isprintable()):
        raise ValidationFailed(
            f"a client_seed has 1 to {MAX_SEED} printable characters", {"field": "client_seed"}
        )
    return seed


async def join_seat(
    ctx: Context,
    match_id: str,
    seat: Seat,
    name: str,
    *,
    invite: str | None = None,
    player: Caller | None = None,
    client_seed: str | None = None,
) -> SeatGrant:
    """Take a free seat; returns its token (shown this once, stored only as a hash) and its seed.

    With a player key (`player`) the seat is bound to that player, whose key then authorizes
    everything the token does in this match. The seat's seed is `client_seed`, else one the server
    chooses (drago-fair-2); taking the last seat of a drago-fair-2 match deals it."""
    name = clean_name(name)
    client_seed = clean_seed(client_seed)
    record = await ctx.loader.record(match_id)
    if not 0 <= seat < record.players:
        raise NotFound(f"this match has seats 0 to {record.players - 1}", {"seat": seat})
    if not invite_ok(record, invite):
        raise Forbidden("this match is unlisted: joining needs its invite code", {"field": "invite"})
    if stored_settings(record.settings).rated and (player is None or player.kind != "player"):
        raise PlayerKeyRequired()
    if player is not None and player.kind != "player":
        raise ValidationFailed("join with a player key or without a credential", {"field": "authorization"})
    player_id = None if player is None else player.player_id
    token = new_token()
    seed = client_seed
    if seed is None and record.settings.get("fairness") == V2:
        seed = new_seat_seed()

    def plan(loaded: Loaded) -> tuple[Sequence[object], tuple[SeatWrite, ...]]:
        m = loaded.match
        events = with_deal(
            m, decide.join(m, seat, name, player_id, seed), loaded.record.options, loaded.record.secret
        )
        row = SeatWrite(seat, name, hash_token(token), False, ctx.clock(), player_id, None)
        return events, (row,)

    await _commit_plan(ctx, match_id, plan, by=seat)
    return SeatGrant(match_id, seat, token, seed)


async def reissue_token(ctx: Context, match_id: str, seat: Seat, host_token: str | None) -> SeatGrant:
    """The host gives a seat a new token; the old one stops working at once."""
    record = await ctx.loader.record(match_id)
    require_host(record, host_token)
    _seat_exists(record.players, seat)
    token = new_token()

    def plan(loaded: Loaded) -> tuple[list[MatchEvent], tuple[SeatWrite, ...]]:
        events = decide.reissue(loaded.match, seat)
        old = loaded.seats[seat]
        row = SeatWrite(
            seat, old.name, hash_token(token), old.bot, old.joined_at, old.player_id, old.bot_level
        )
        return events, (row,)

    await _commit_plan(ctx, match_id, plan)  # the commit forgets the replaced token's hint
    return SeatGrant(match_id, seat, token)


async def hand_to_bot(ctx: Context, match_id: str, seat: Seat, host_token: str | None) -> MatchSummary:
    """The host hands a silent seat to a server bot for the rest of the match."""
    record = await ctx.loader.record(match_id)
    require_host(record, host_token)
    _seat_exists(record.players, seat)
    level = ctx.config.takeover_bot_level
    return summary_of(
        await _commit_plan(ctx, match_id, lambda loaded: (decide.hand_to_bot(loaded.match, seat, level), ()))
    )


async def abort(ctx: Context, match_id: str, host_token: str | None) -> MatchSummary:
    """The host cancels a match that has not started."""
    record = await ctx.loader.record(match_id)
    require_host(record, host_token)
    return summary_of(await _commit_plan(ctx, match_id, lambda loaded: (decide.abort(loaded.match), ())))


async def fire_due(ctx: Context, match_id: str) -> bool:
    """The sweeper's work on one due match: expire it, or time out the seats whose clock ran out.

    Appended at the loaded seq like any request: when several processes sweep the same deadline,
    the store lets exactly one commit win and the others see nothing left to do. Returns whether
    this call committed something.
    """
    now = ctx.clock()
    level = ctx.config.takeover_bot_level
    fired = False

    def plan(loaded: Loaded) -> tuple[list[MatchEvent], tuple[SeatWrite, ...]]:
        nonlocal fired
        m: Match = loaded.match
        if m.status == "waiting":
            expiry = ctx.config.waiting_expiry_s
            due = expiry is not None and (now - loaded.record.created_at).total_seconds() >= expiry
            events = decide.expire(m) if due else []
            fired = bool(events)
            return events, ()
        events = decide.timeouts(m, now, level)
        fired = bool(events)
        return events, ()

    try:
        await _commit_plan(ctx, match_id, plan)
    except ServiceError:
        return False
    return fired


def _seat_exists(players: int, seat: Seat) -> None:
    if not 0 <= seat < players:
        raise NotFound(f"this match has seats 0 to {players - 1}", {"seat": seat})

"""Creating a match: validate the request, roll its secret, seat the server bots, deal, store it.

The match, its seats and its first commit are written by `commit`, in one transaction, so no crash
leaves a half-made match. A drago-fair-2 match (docs/fairness.md) is dealt when its last seat is
taken: its first commit holds the bots' `seat_joined` (with seeds the server chose), and when bots
fill every seat the deal and `match_started` too; a match with a development `seed` or `setup` is
drago-fair-1 and is dealt here (the deal, the bots' `seat_joined`, `match_started` when bots fill
every seat).
Bots do not play here: the bot runner is woken after the commit, so the request's latency does not
depend on them.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field

from app.games.codec import JSON, DecodeError, to_json
from app.games.core import InvalidOptions, Seat
from app.matches import decide
from app.matches.events import SeatJoined
from app.matches.fairness import V2, commitment, commitment_v2, new_seat_seed, new_secret, rng_for, with_deal
from app.matches.fold import advance
from app.matches.settings import InvalidSettings, MatchSettings, parse_settings
from app.service.auth import HOST_PREFIX, INVITE_PREFIX, Caller, hash_token, new_token
from app.service.cache import Loaded
from app.service.committing import commit
from app.service.context import Context
from app.service.errors import Forbidden, Unauthorized, ValidationFailed
from app.service.ports import MatchRecord, SeatRecord, SeatWrite
from app.service.reading import summary_of
from app.service.results import CreatedMatch


@dataclass(frozen=True, slots=True)
class CreateRequest:
    game: str
    players: int
    options: Mapping[str, JSON] = field(default_factory=dict)
    settings: Mapping[str, JSON] = field(default_factory=dict)  # clock, on_timeout, visibility, drafts…
    bots: Mapping[Seat, str | None] = field(default_factory=dict)  # seat → level (None: the default)
    seed: str | None = None
    setup: Mapping[str, JSON] | None = None


async def create_match(ctx: Context, req: CreateRequest, creator: Caller | None = None) -> CreatedMatch:
    """Create a match (`creator`: the caller's credential, required to be a player key when the
    server says so)."""
    if ctx.config.require_player_key and (creator is None or creator.kind != "player"):
        raise Unauthorized("this server creates matches for players only: send a player key (pk_…)")
    if (req.seed is not None or req.setup is not None) and not ctx.config.dev_features:
        fields = [f for f, v in (("seed", req.seed), ("setup", req.setup)) if v is not None]
        raise Forbidden(
            "seed and setup are development features and this server has them disabled", {"fields": fields}
        )
    rules = ctx.games.get(req.game)
    if rules is None:
        raise ValidationFailed(f"unknown game {req.game!r}", {"field": "game", "known": sorted(ctx.games)})
    info = rules.info
    if not info.min_players <= req.players <= info.max_players:
        raise ValidationFailed(
            f"{info.title} is played by {info.min_players} to {info.max_players} players",
            {"field": "players", "min": info.min_players, "max": info.max_players},
        )
    bots = _bot_levels(ctx, req)
    try:
        settings = parse_settings(req.settings)
    except InvalidSettings as e:
        raise ValidationFailed(e.message, {"field": e.path}) from None
    raw_options = dict(req.options)
    if settings.drafts:  # a drafted turn never ends by itself (app.matches.decide)
        if raw_options.get("explicit_end_turn", True) is not True:
            raise ValidationFailed(
                "drafts need options.explicit_end_turn", {"field": "options.explicit_end_turn"}
            )
        raw_options["explicit_end_turn"] = True
    try:
        options = rules.parse_options(req.players, raw_options)
    except InvalidOptions as e:
        raise ValidationFailed(e.message, {"field": e.path}) from None
    if req.seed is None and req.setup is None:
        return await _create_v2(ctx, req, settings, options, bots)
    secret = new_secret() if req.seed is None else req.seed
    try:
        deal = rules.start(req.players, options, rng_for(secret, 0), req.setup)
    except InvalidOptions as e:
        raise ValidationFailed(e.message, {"field": e.path}) from None
    except DecodeError as e:
        raise ValidationFailed(str(e), {"field": "setup"}) from None
    deal_json = to_json(deal)
    settings = dataclasses.replace(settings, lifecycle=True)
    return await _store(ctx, req, settings, options, bots, secret, commitment(secret, deal_json), [deal])


async def _create_v2(
    ctx: Context, req: CreateRequest, settings: MatchSettings, options: JSON, bots: dict[Seat, str]
) -> CreatedMatch:
    secret = new_secret()
    settings = dataclasses.replace(settings, lifecycle=True, fairness=V2)
    return await _store(ctx, req, settings, options, bots, secret, commitment_v2(secret), [])


async def _store(
    ctx: Context,
    req: CreateRequest,
    settings: MatchSettings,
    options: JSON,
    bots: dict[Seat, str],
    secret: str,
    committed: str,
    deal: list[object],
) -> CreatedMatch:
    """Seat the bots, store the match and its first commit (`deal`: the drago-fair-1 deal)."""
    match_id = uuid.uuid4().hex
    now = ctx.clock()
    host_token = new_token(HOST_PREFIX)
    invite = new_token(INVITE_PREFIX) if settings.visibility == "unlisted" else None
    record = MatchRecord(
        id=match_id, game=req.game, players=req.players, options=to_json(options), status="waiting",
        seq=0, created_at=now, updated_at=now, secret=secret, commitment=committed,
        settings=to_json(settings), visibility=settings.visibility, host_token_hash=hash_token(host_token),
        invite_hash=None if invite is None else hash_token(invite),
    )  # fmt: skip
    free = tuple(SeatRecord(match_id, s) for s in range(req.players))
    empty = Loaded(record, ctx.loader.empty(record, ()), free)
    dealt = advance(empty.match, deal, now)
    seeds = {s: new_seat_seed() for s in bots} if settings.fairness == V2 else None
    seated = with_deal(dealt, decide.seat_bots(dealt, bots, seeds), to_json(options), secret)
    bot_rows = [
        SeatWrite(e.seat, e.name, None, True, now, None, e.level) for e in seated if isinstance(e, SeatJoined)
    ]
    loaded = (await commit(ctx, empty, [*deal, *seated], seats=bot_rows, at=now, create=True)).loaded
    return CreatedMatch(summary_of(loaded), host_token, invite)


def _bot_levels(ctx: Context, req: CreateRequest) -> dict[Seat, str]:
    levels: dict[Seat, str] = {}
    for seat, level in req.bots.items():
        if not 0 <= seat < req.players:
            raise ValidationFailed(f"bot seats are from 0 to {req.players - 1}", {"field": "bots"})
        chosen = ctx.config.default_bot_level if level is None else level
        if chosen not in ctx.config.bot_levels:
            raise ValidationFailed(
                f"unknown bot level {chosen!r}", {"field": "bots", "known": list(ctx.config.bot_levels)}
            )
        levels[seat] = chosen
    return levels

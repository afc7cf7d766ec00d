"""Players: one key for many matches (like a personal API token), "my matches", personal notices.

A player is a name and a key (`pk_…`, shown once, stored as a hash; rotating it makes the old one
stop working at once). A seat joined with a player key is bound to the player, whose key then
authorizes everything that seat's token does in that match. Each commit that starts a player's
match, hands it the turn, takes its seat over or ends the match writes a notice to the player's
personal stream in the same transaction (`app.service.committing.notices`): public facts only —
match ids, seats, seqs, deadlines — never anything hidden.
"""

from __future__ import annotations

import uuid

from app.service.auth import PLAYER_PREFIX, Caller, check_player, hash_token, new_token
from app.service.context import Context
from app.service.errors import NameTaken, Unauthorized, ValidationFailed
from app.service.names import NameInUse, player_name
from app.service.ports import MatchStatus, PlayerMatchFilter, PlayerRecord
from app.service.reading import listed
from app.service.results import PlayerInfo, PlayerKey, PlayerMatchItem, PlayerMatchListing


async def create_player(ctx: Context, name: str) -> PlayerKey:
    """A new player; its name is unique regardless of case (409 `name_taken`, `app.service.names`)."""
    name = player_name(name)
    key = new_token(PLAYER_PREFIX)
    player = PlayerRecord(uuid.uuid4().hex, name, hash_token(key), ctx.clock())
    try:
        await ctx.store.create_player(player)
    except NameInUse:
        raise NameTaken(details={"field": "name"}) from None
    return PlayerKey(player.id, name, key)


_NEEDS_KEY = "this needs a player key (Authorization: Bearer pk_…)"


async def player_of(ctx: Context, caller: Caller, needs_key: str = _NEEDS_KEY) -> PlayerRecord:
    """The caller's player record; `Unauthorized` for a seat token or a key no longer valid,
    `Banned` for a banned player."""
    if caller.kind != "player" or caller.player_id is None:
        raise Unauthorized(needs_key)
    player = await ctx.store.get_player(caller.player_id)
    if player is None or player.key_hash != caller.digest:
        raise Unauthorized("this player key is not valid")
    check_player(ctx, player)
    return player


def check_after(player: PlayerRecord, after: int) -> None:
    """A notice cursor to resume after must not be ahead of the player's."""
    if after > player.cursor:
        raise ValidationFailed(
            f"after must be at most the player's cursor, {player.cursor}",
            {"field": "after", "cursor": player.cursor},
        )


async def me(ctx: Context, caller: Caller) -> PlayerInfo:
    p = await player_of(ctx, caller)
    return PlayerInfo(p.id, p.name, p.created_at)


async def rotate_key(ctx: Context, caller: Caller) -> PlayerKey:
    """A new key for the player; the old one stops working at once."""
    p = await player_of(ctx, caller)
    key = new_token(PLAYER_PREFIX)
    if not await ctx.store.set_player_key(p.id, hash_token(key)):
        raise Unauthorized("this player key is not valid")
    return PlayerKey(p.id, p.name, key)


async def my_matches(
    ctx: Context,
    caller: Caller,
    *,
    status: MatchStatus | None = None,
    game: str | None = None,
    to_act: bool = False,
    limit: int = 50,
    offset: int = 0,
) -> PlayerMatchListing:
    """The player's matches, newest activity first; `to_act`: only where one of its seats must act."""
    p = await player_of(ctx, caller)
    found, total = await ctx.store.player_matches(
        PlayerMatchFilter(p.id, status, game, to_act, limit, offset)
    )
    items = []
    for pm in found:
        summary = listed(pm.record, await ctx.store.get_seats(pm.record.id))
        mine = pm.seat in pm.record.to_act and pm.record.status == "active"
        deadline = None
        if mine and pm.record.deadline_at is not None:
            deadline = next((c.deadline for c in summary.clock if c.seat == pm.seat), None)
        items.append(PlayerMatchItem(summary, pm.seat, mine, deadline))
    return PlayerMatchListing(tuple(items), total, limit, offset)

"""Bans: an operator disables a player's key (`python -m app admin ban`), on every process at once.

A ban is two columns of the player (`banned_at`, `ban_reason`), so every process sees it in the
store: a request with the player's key reads the player and is refused (403 `banned`) at once; a
seat token of a seat the banned player holds is refused too, within `BAN_TTL_S` (its ban is read
through `Context.bans`, `app.service.auth`). Open streams are the one thing a request does not
cover: each process runs a `BanWatch` that asks the store, every `BAN_CHECK_S`, which of the
players holding its open streams are banned, and has the edge close theirs (4403). It needs no
broadcast (the operator's command may run where no broadcast reaches, and it works with Redis
down); one indexed query per process and pass. The reason is for operators and never shown to
the banned player.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection
from typing import Final

from app.service.context import Context
from app.service.errors import NotFound
from app.service.periodic import Periodic
from app.service.ports import PlayerRecord

log = logging.getLogger("app.bans")

BAN_CHECK_S: Final = 0.5  # a ban closes open streams within this, plus one query (docs/moderation.md)


async def ban_player(ctx: Context, player_id: str, reason: str | None = None) -> PlayerRecord:
    """Ban the player now (a ban already in force gets this time and reason); `NotFound` if unknown."""
    if not await ctx.store.set_ban(player_id, ctx.clock(), reason or None):
        raise NotFound(f"no player {player_id}")
    ctx.bans.put(player_id, True)
    return await _player(ctx, player_id)


async def unban_player(ctx: Context, player_id: str) -> PlayerRecord:
    """Lift the player's ban (nothing happens to a player not banned); `NotFound` if unknown."""
    if not await ctx.store.set_ban(player_id, None, None):
        raise NotFound(f"no player {player_id}")
    ctx.bans.put(player_id, False)
    return await _player(ctx, player_id)


async def _player(ctx: Context, player_id: str) -> PlayerRecord:
    player = await ctx.store.get_player(player_id)
    if player is None:  # deleted meanwhile: players are never deleted
        raise NotFound(f"no player {player_id}")
    return player


class BanWatch:
    """This process's check of the players behind its open streams (`owners`): `close` is called
    with those found banned, each pass (until their streams are gone)."""

    def __init__(
        self,
        ctx: Context,
        owners: Callable[[], Collection[str]],
        close: Callable[[set[str]], None],
        *,
        interval_s: float = BAN_CHECK_S,
    ) -> None:
        self.ctx = ctx
        self.owners = owners
        self.close = close
        self.loop = Periodic("ban-watch", self.check_once, interval_s, log=log, failure="ban check failed")

    async def start(self) -> None:
        await self.loop.start()

    async def stop(self) -> None:
        await self.loop.stop()

    async def check_once(self) -> int:
        """One pass; returns how many of the players behind open streams are banned."""
        owners = set(self.owners())
        if not owners:
            return 0
        banned = await self.ctx.store.banned_among(owners)
        for player_id in owners:  # fresh for the seat tokens of these players too
            self.ctx.bans.put(player_id, player_id in banned)
        if banned:
            self.close(banned)
        return len(banned)

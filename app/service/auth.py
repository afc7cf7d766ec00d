"""Who a caller is: seat tokens, player keys and host tokens, all stored only as SHA-256 hashes.

A bearer credential is looked up once (`identify`) and then checked against the match as loaded
for every use (`seat_in`), because a seat's token can be reissued and a player's key rotated at
any time by another process: the caches here are hints, the seat rows and players are the truth.

A banned player's key is refused (403 `banned`) at once, as its player is read for every request;
so is the seat token of a seat a banned player holds, within `BAN_TTL_S` (the ban is read through
`Context.bans`, docs/moderation.md). `identify` refuses both before anything else happens.

Credentials are long random strings (`secrets.token_urlsafe(32)`, 256 bits): player keys start
with `pk_`, host tokens with `ht_`, invite codes with `iv_`; seat tokens have no prefix.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from app.games.core import Seat
from app.service.cache import Loaded
from app.service.context import Context
from app.service.errors import Banned, Forbidden, Unauthorized
from app.service.ports import MatchRecord, PlayerRecord, SeatRecord

PLAYER_PREFIX: Final = "pk_"
HOST_PREFIX: Final = "ht_"
INVITE_PREFIX: Final = "iv_"


@lru_cache(maxsize=16_384)  # every request hashes its credential; a token's digest never changes
def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


_AVOIDED: Final = (PLAYER_PREFIX, HOST_PREFIX, INVITE_PREFIX, "-")


def new_token(prefix: str = "") -> str:
    """A new credential. An unprefixed one (a seat token) never starts with a reserved prefix (a
    random one would once in 87,381 draws, as `token_urlsafe` uses `_`, and a `pk_` one reads as a
    player key) nor with `-` (one in 64 would, and then read as an option on a command line:
    `python -m drago_client.bot --token -x…` fails)."""
    token = secrets.token_urlsafe(32)
    while not prefix and token.startswith(_AVOIDED):
        token = secrets.token_urlsafe(32)
    return prefix + token


@dataclass(frozen=True, slots=True)
class Caller:
    """A bearer credential, identified: a seat token (of `match_id`/`seat`) or a player's key."""

    kind: Literal["seat", "player"]
    digest: str
    match_id: str | None = None  # seat tokens
    seat: Seat | None = None
    player_id: str | None = None  # player keys


async def identify(ctx: Context, token: str | None) -> Caller:
    """Look a bearer credential up; `Unauthorized` for a missing or unknown one."""
    if not token:
        raise Unauthorized()
    digest = hash_token(token)
    if token.startswith(PLAYER_PREFIX):
        player = await ctx.store.player_by_key(digest)
        if player is not None:
            check_player(ctx, player)
            return Caller("player", digest, player_id=player.id)
    owner = ctx.tokens.get(digest)
    if owner is None:
        seat = await ctx.store.seat_by_token(digest)
        if seat is None:  # a seat token issued before they avoided "pk_" may still start with it
            what = "player key" if token.startswith(PLAYER_PREFIX) else "token"
            raise Unauthorized(f"this {what} is not valid")
        owner = (seat.match_id, seat.seat, seat.player_id)
        ctx.tokens.put(digest, owner)
    if owner[2] is not None:
        await check_not_banned(ctx, owner[2])
    return Caller("seat", digest, match_id=owner[0], seat=owner[1])


def check_player(ctx: Context, player: PlayerRecord) -> None:
    """`Banned` for a banned player (just read: its ban is remembered for seat tokens too)."""
    banned = player.banned_at is not None
    ctx.bans.put(player.id, banned)
    if banned:
        raise Banned()


async def check_not_banned(ctx: Context, player_id: str, *, fresh: bool = False) -> None:
    """`Banned` if the player is banned, as read at most `BAN_TTL_S` ago (now, if `fresh`)."""
    banned = None if fresh else ctx.bans.get(player_id)
    if banned is None:
        player = await ctx.store.get_player(player_id)
        if player is not None:
            check_player(ctx, player)
    elif banned:
        raise Banned()


def check_match(caller: Caller, match_id: str) -> None:
    """A seat token of another match is 403 (the match exists: the caller checked that first)."""
    if caller.kind == "seat" and caller.match_id != match_id:
        raise Forbidden("this token belongs to another match")


def seat_in(loaded: Loaded, caller: Caller) -> Seat:
    """The seat `caller` holds in the loaded match, checked against the current seat rows."""
    check_match(caller, loaded.record.id)
    if caller.kind == "player":
        for held in loaded.seats:
            if held.player_id == caller.player_id:
                return held.seat
        raise Forbidden("this player holds no seat in this match")
    seat = caller.seat
    assert seat is not None
    row: SeatRecord | None = loaded.seats[seat] if 0 <= seat < len(loaded.seats) else None
    if row is None or row.token_hash is None or not hmac.compare_digest(row.token_hash, caller.digest):
        raise Unauthorized("this token is not valid (it may have been reissued)")
    return seat


def require_host(record: MatchRecord, token: str | None) -> None:
    """The host token of `record`, else 401 (none) or 403 (another credential)."""
    if not token:
        raise Unauthorized("this needs the match's host token (Authorization: Bearer <host token>)")
    expected = record.host_token_hash
    if expected is None or not hmac.compare_digest(expected, hash_token(token)):
        raise Forbidden("only the match's host token may do this")


def invite_ok(record: MatchRecord, invite: str | None) -> bool:
    expected = record.invite_hash
    return expected is None or (invite is not None and hmac.compare_digest(expected, hash_token(invite)))

"""Seeks: "find me a game like this", kept in the database until matched, cancelled or expired.

A player (with its key) posts a seek: a game, the acceptable player counts, the game options and
the match settings (`rated` among them), which seekers it accepts as opponents (`humans`, `bots` —
players marked as bots — or `any`), optionally a `rating_range` (the displayed ratings of the other
seekers it accepts, bounds included, each within `RATING_BOUNDS`), `bots_after_s` (after that wait,
server bots may fill the missing seats) and `expires_s` (default `DEFAULT_EXPIRY_S`). The matcher
(`app.service.matcher`) turns compatible seeks into matches. A player holds at most
`Matchmaking.max_open` open seeks.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Final, Protocol, TypeVar

from app.games.codec import JSON, to_json
from app.games.core import InvalidOptions
from app.matches.fairness import canonical_json
from app.matches.settings import InvalidSettings, parse_settings
from app.service.auth import Caller
from app.service.context import Context
from app.service.errors import Forbidden, NotFound, SeekClosed, TooManySeeks, ValidationFailed
from app.service.players import player_of
from app.service.seek_ports import Opponents, SeekRecord, SeekStore

DEFAULT_EXPIRY_S: Final = 3600.0
MAX_EXPIRY_S: Final = 7 * 86_400.0
MAX_BOTS_AFTER_S: Final = 86_400.0
DEFAULT_MAX_OPEN: Final = 5
DEFAULT_GROUP_WAIT_S: Final = 15.0
OPPONENTS: Final = ("humans", "bots", "any")
# A range's bounds: displayed ratings (μ − 3σ) start at 0 and in practice stay within about −25 and 60,
# so a bound outside these is a mistake, not a wish.
RATING_BOUNDS: Final = (-100.0, 200.0)


@dataclass
class Matchmaking:
    """What the seek use cases and the matcher run against: the service context and the seek store.

    `max_open`: open seeks per player. `group_wait_s`: how long the oldest seek of a group waits for
    a larger group before a smaller one forms (`app.service.matcher`)."""

    ctx: Context
    store: SeekStore
    max_open: int = DEFAULT_MAX_OPEN
    group_wait_s: float = DEFAULT_GROUP_WAIT_S
    bot_level: str | None = None  # server bots that fill seats; None: the level closest to the group's rating
    scan: int = 1000  # open seeks the matcher reads per pass
    metrics: dict[str, int] = field(default_factory=lambda: {"matched": 0, "lost_claims": 0})
    # This process's matcher's next pass, now (set by `app.service.matcher.Matcher`): a seek was posted.
    kick: Callable[[], None] = field(default=lambda: None, repr=False)


@dataclass(frozen=True, slots=True)
class SeekRequest:
    game: str
    players: int | Sequence[int]
    options: Mapping[str, JSON] = field(default_factory=dict)
    settings: Mapping[str, JSON] = field(default_factory=dict)
    opponents: Opponents = "humans"
    bots_after_s: float | None = None
    expires_s: float | None = None
    rating_range: tuple[float, float] | None = None


def seek_key(game: str, options: Mapping[str, JSON], settings: Mapping[str, JSON]) -> str:
    """Seeks can only match within one key: the same game, options and settings."""
    material = canonical_json({"game": game, "options": dict(options), "settings": dict(settings)})
    return hashlib.sha256(material).hexdigest()


def check_seek(ctx: Context, req: SeekRequest) -> tuple[tuple[int, ...], dict[str, JSON], dict[str, JSON]]:
    """The acceptable counts, the options and the normalized settings of a seek; `ValidationFailed`
    (nothing stored) for an unknown game, a count it is not played by, or options or settings it
    refuses for any of the counts."""
    rules = ctx.games.get(req.game)
    if rules is None:
        raise ValidationFailed(f"unknown game {req.game!r}", {"field": "game", "known": sorted(ctx.games)})
    info = rules.info
    counts = (req.players,) if isinstance(req.players, int) else tuple(req.players)
    if not counts or len(set(counts)) != len(counts):
        raise ValidationFailed("players is a count or a list of different counts", {"field": "players"})
    for n in counts:
        if not info.min_players <= n <= info.max_players:
            raise ValidationFailed(
                f"{info.title} is played by {info.min_players} to {info.max_players} players",
                {"field": "players", "min": info.min_players, "max": info.max_players},
            )
    try:
        settings = parse_settings(req.settings)
    except InvalidSettings as e:
        raise ValidationFailed(e.message, {"field": f"settings.{e.path}" if e.path else "settings"}) from None
    options = dict(req.options)
    for n in counts:
        raw = dict(options)
        if settings.drafts:
            raw["explicit_end_turn"] = True
        try:
            rules.parse_options(n, raw)
        except InvalidOptions as e:
            raise ValidationFailed(
                e.message, {"field": f"options.{e.path}" if e.path else "options"}
            ) from None
    return tuple(sorted(counts)), options, to_json(settings)


def _check_times(req: SeekRequest) -> tuple[float, float | None]:
    expires = DEFAULT_EXPIRY_S if req.expires_s is None else req.expires_s
    if not 1 <= expires <= MAX_EXPIRY_S:
        raise ValidationFailed(f"expires_s is from 1 to {MAX_EXPIRY_S:.0f}", {"field": "expires_s"})
    if req.bots_after_s is not None and not 0 <= req.bots_after_s <= MAX_BOTS_AFTER_S:
        raise ValidationFailed(f"bots_after_s is from 0 to {MAX_BOTS_AFTER_S:.0f}", {"field": "bots_after_s"})
    if req.opponents not in OPPONENTS:
        raise ValidationFailed("opponents is humans, bots or any", {"field": "opponents"})
    return expires, req.bots_after_s


def check_rating_range(bounds: tuple[float, float] | None) -> tuple[float, float] | None:
    """The range as floats; `ValidationFailed` when a bound is not a finite number within
    `RATING_BOUNDS` or the minimum exceeds the maximum."""
    if bounds is None:
        return None
    low, high = RATING_BOUNDS
    for name, value in zip(("min", "max"), bounds, strict=True):
        if not low <= value <= high:  # NaN fails too
            raise ValidationFailed(
                f"rating_range.{name} is a displayed rating from {low:g} to {high:g}",
                {"field": f"rating_range.{name}", "min": low, "max": high},
            )
    if bounds[0] > bounds[1]:
        raise ValidationFailed("rating_range.min exceeds rating_range.max", {"field": "rating_range"})
    return float(bounds[0]), float(bounds[1])


async def create_seek(mm: Matchmaking, caller: Caller, req: SeekRequest) -> SeekRecord:
    ctx = mm.ctx
    player = await player_of(ctx, caller, "seeking needs a player key (Authorization: Bearer pk_…)")
    counts, options, settings = check_seek(ctx, req)
    expires, bots_after = _check_times(req)
    rating_range = check_rating_range(req.rating_range)
    now = ctx.clock()
    bot = bool(await mm.store.player_bot(player.id))
    seek = SeekRecord(
        id=uuid.uuid4().hex, player_id=player.id, name=player.name, game=req.game, counts=counts,
        options=options, settings=settings, key=seek_key(req.game, options, settings),
        opponents=req.opponents, bot=bot, bots_after_s=bots_after, created_at=now,
        expires_at=now + timedelta(seconds=expires), rating_range=rating_range,
    )  # fmt: skip
    if not await mm.store.add_seek(seek, mm.max_open, now):
        raise TooManySeeks(
            f"a player holds at most {mm.max_open} open seeks: cancel one first",
            {"field": "seeks", "max_open": mm.max_open},
        )
    mm.kick()
    return seek


async def open_seeks(mm: Matchmaking, *, game: str | None, limit: int) -> list[SeekRecord]:
    return await mm.store.open_seeks(mm.ctx.clock(), limit, game)


async def my_seeks(mm: Matchmaking, caller: Caller, *, limit: int) -> list[SeekRecord]:
    player = await player_of(mm.ctx, caller)
    return await mm.store.player_seeks(player.id, limit)


class Owned(Protocol):
    @property
    def player_id(self) -> str: ...


R = TypeVar("R", bound=Owned)


def owned(found: R | None, player_id: str, kind: str, record_id: str) -> R:
    """`found` when it is `player_id`'s; `NotFound` when there is none, `Forbidden` when it is
    another player's (a seek, a webhook)."""
    if found is None:
        raise NotFound(f"no such {kind}", {f"{kind}_id": record_id})
    if found.player_id != player_id:
        raise Forbidden(f"this {kind} is another player's")
    return found


async def cancel_seek(mm: Matchmaking, caller: Caller, seek_id: str) -> SeekRecord:
    player = await player_of(mm.ctx, caller)
    owned(await mm.store.get_seek(seek_id), player.id, "seek", seek_id)
    if not await mm.store.cancel_seek(seek_id):
        current = await mm.store.get_seek(seek_id)
        status = None if current is None else current.status
        raise SeekClosed(f"this seek is {status} already", {"status": status})
    cancelled = await mm.store.get_seek(seek_id)
    assert cancelled is not None
    return cancelled

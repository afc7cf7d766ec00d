"""Reading the ratings projection: a game's leaderboard, a player's public profile and rating
history, a match's rating changes. Public: names, bot flags and numbers only — never a key, a
seat token, or anything of a match that is not finished."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final

from app.service.context import Context
from app.service.errors import NotFound, ValidationFailed
from app.service.rating_ports import RatingPoint, RatingRecord
from app.service.rating_projection import rating_store
from app.service.ratings import PROVISIONAL_GAMES, bot_level_of, ordinal

MAX_LEADERBOARD: Final = 100
MAX_OFFSET: Final = 10**6


@dataclass(frozen=True, slots=True)
class GameRating:
    """A player's rating in one game: `rating` is the displayed one, μ − 3σ; `provisional` below
    the number of rated games the leaderboard asks for."""

    game: str
    rating: float  # μ − 3σ
    mu: float
    sigma: float
    provisional: bool
    games: int
    wins: int
    last_played: datetime


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    rank: int  # 1-based position in the whole board (offset + index + 1)
    player_id: str
    name: str
    bot: bool
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class Leaderboard:
    game: str
    entries: tuple[LeaderboardEntry, ...]
    limit: int
    offset: int
    min_games: int


@dataclass(frozen=True, slots=True)
class Profile:
    player_id: str
    name: str
    bot: bool
    ratings: tuple[GameRating, ...]


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    match_id: str
    seat: int
    rank: int
    at: datetime
    rating_before: float
    rating_after: float
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


@dataclass(frozen=True, slots=True)
class RatingHistory:
    player_id: str
    game: str
    points: tuple[HistoryPoint, ...]


@dataclass(frozen=True, slots=True)
class SeatChange:
    seat: int
    player_id: str
    rank: int
    rating_before: float
    rating_after: float
    delta: float


@dataclass(frozen=True, slots=True)
class MatchRatings:
    match_id: str
    rated: bool
    applied: bool
    changes: tuple[SeatChange, ...]


def _game(ctx: Context, game: str) -> None:
    if game not in ctx.games:
        raise NotFound(f"unknown game {game!r}", {"game": game, "known": sorted(ctx.games)})


async def leaderboard(ctx: Context, game: str, limit: int, offset: int) -> Leaderboard:
    """Non-provisional players, best displayed rating first, ties by player id (stable paging);
    `limit` is capped at `MAX_LEADERBOARD`; a page past the end is empty."""
    _game(ctx, game)
    if limit < 1 or not 0 <= offset <= MAX_OFFSET:
        raise ValidationFailed(f"limit is at least 1 and offset 0 to {MAX_OFFSET}", {"field": "limit"})
    limit = min(limit, MAX_LEADERBOARD)
    rows = await rating_store(ctx).leaderboard(game, PROVISIONAL_GAMES, limit, offset)
    entries = tuple(
        LeaderboardEntry(offset + i + 1, r.player_id, r.name, r.bot, ordinal(r.mu, r.sigma), r.mu, r.sigma,
                         r.games, r.wins)
        for i, r in enumerate(rows)
    )  # fmt: skip
    return Leaderboard(game, entries, limit, offset, PROVISIONAL_GAMES)


async def _who(ctx: Context, player_id: str) -> tuple[str, bool]:
    level = bot_level_of(player_id)
    if level is not None:
        return level, True
    player = await ctx.store.get_player(player_id)
    if player is None:
        raise NotFound("no such player", {"player_id": player_id})
    return player.name, False


def _game_rating(r: RatingRecord) -> GameRating:
    return GameRating(
        r.game, ordinal(r.mu, r.sigma), r.mu, r.sigma, r.games < PROVISIONAL_GAMES, r.games, r.wins,
        r.last_played,
    )  # fmt: skip


async def profile(ctx: Context, player_id: str) -> Profile:
    name, bot = await _who(ctx, player_id)
    rows = await rating_store(ctx).player_ratings(player_id)
    return Profile(player_id, name, bot, tuple(_game_rating(r) for r in rows))


def _point(p: RatingPoint) -> HistoryPoint:
    return HistoryPoint(
        p.match_id, p.seat, p.rank, p.at, ordinal(p.mu_before, p.sigma_before),
        ordinal(p.mu_after, p.sigma_after), p.mu_before, p.sigma_before, p.mu_after, p.sigma_after,
    )  # fmt: skip


async def history(ctx: Context, player_id: str, game: str) -> RatingHistory:
    """One point per rated match, in the order they were applied (a bot in several seats of one
    match: its best-placed seat's, which is the one that set its rating)."""
    _game(ctx, game)
    await _who(ctx, player_id)
    points: dict[int, RatingPoint] = {}
    for p in await rating_store(ctx).rating_history(player_id, game):
        if p.ord not in points or p.rank < points[p.ord].rank:
            points[p.ord] = p
    return RatingHistory(player_id, game, tuple(_point(points[o]) for o in sorted(points)))


async def match_ratings(ctx: Context, match_id: str) -> MatchRatings:
    """Each seat's rating before and after a finished rated match (empty before it is applied)."""
    match = (await ctx.loader.load(match_id)).match
    rated = match.settings.rated
    points = await rating_store(ctx).match_points(match_id) if rated and match.status == "finished" else []
    changes = tuple(
        SeatChange(
            p.seat,
            p.player_id,
            p.rank,
            ordinal(p.mu_before, p.sigma_before),
            ordinal(p.mu_after, p.sigma_after),
            ordinal(p.mu_after, p.sigma_after) - ordinal(p.mu_before, p.sigma_before),
        )
        for p in points
    )
    return MatchRatings(match_id, rated, bool(points), changes)

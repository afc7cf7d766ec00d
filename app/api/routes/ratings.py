"""Ratings: `/v1/games/{game}/leaderboard`, `/v1/players/{player_id}` (public profile) and its
rating history, `/v1/matches/{match_id}/ratings` (each seat's rating before and after). All public.

A game's rating, a history point and a seat's change are the service's records as they are
(`GameRating`, `HistoryPoint`, `SeatChange`): a copy of their fields here would only be a second
list to keep equal."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query
from pydantic import Field

from app.api.deps import Ctx, MatchId, Mm
from app.api.errors import error_responses
from app.api.schemas import ASCII_DIGITS, Out
from app.service import challenges, rating_reads
from app.service.rating_reads import GameRating, HistoryPoint, SeatChange

router = APIRouter(tags=["ratings"])

PlayerId = Annotated[
    str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$", description="A player id.")
]
GameName = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[a-z0-9_]+$", description="A game.")]


class LeaderboardEntryOut(Out):
    rank: int = Field(description="Position on the whole board (1 = best).")
    player_id: str
    name: str
    bot: bool = Field(description="A built-in server bot (one player per level).")
    rating: float = Field(description="The displayed rating, μ − 3σ.")
    mu: float
    sigma: float
    games: int
    wins: int


class LeaderboardOut(Out):
    game: str
    entries: list[LeaderboardEntryOut]
    limit: int
    offset: int
    min_games: int = Field(description="Players with fewer rated games are provisional and not listed.")


class ProfileOut(Out):
    player_id: str
    name: str
    bot: bool
    ratings: list[GameRating]


class RatingHistoryOut(Out):
    player_id: str
    game: str
    points: list[HistoryPoint]


class MatchRatingsOut(Out):
    match_id: str
    rated: bool
    applied: bool = Field(description="Whether the ratings projection has applied this match yet.")
    changes: list[SeatChange]


@router.get(
    "/v1/games/{game}/leaderboard",
    operation_id="getLeaderboard",
    response_model=LeaderboardOut,
    summary="A game's leaderboard: non-provisional players, best first",
    description="Ordered by the displayed rating, then player id (stable under ties). `limit` over "
    f"{rating_reads.MAX_LEADERBOARD} is capped; a page past the end is empty.",
    responses=error_responses(404, 422),
)
async def get_leaderboard(
    game: GameName,
    ctx: Ctx,
    limit: Annotated[int, Query(ge=1, le=10_000), ASCII_DIGITS] = 50,
    offset: Annotated[int, Query(ge=0, le=rating_reads.MAX_OFFSET), ASCII_DIGITS] = 0,
) -> LeaderboardOut:
    return LeaderboardOut.model_validate(await rating_reads.leaderboard(ctx, game, limit, offset))


@router.get(
    "/v1/players/{player_id}",
    operation_id="getPlayerProfile",
    response_model=ProfileOut,
    summary="A player's public profile: name, bot flag, rating per game",
    responses=error_responses(404, 422),
)
async def get_profile(player_id: PlayerId, mm: Mm) -> ProfileOut:
    return ProfileOut.model_validate(await challenges.profile(mm, player_id))


@router.get(
    "/v1/players/{player_id}/ratings/{game}",
    operation_id="getRatingHistory",
    response_model=RatingHistoryOut,
    summary="A player's rating history in a game: one point per rated match",
    responses=error_responses(404, 422),
)
async def get_history(player_id: PlayerId, game: GameName, ctx: Ctx) -> RatingHistoryOut:
    return RatingHistoryOut.model_validate(await rating_reads.history(ctx, player_id, game))


@router.get(
    "/v1/matches/{match_id}/ratings",
    operation_id="getMatchRatings",
    response_model=MatchRatingsOut,
    summary="Each seat's rating before and after a finished rated match",
    responses=error_responses(404, 422),
)
async def get_match_ratings(match_id: MatchId, ctx: Ctx) -> MatchRatingsOut:
    return MatchRatingsOut.model_validate(await rating_reads.match_ratings(ctx, match_id))
